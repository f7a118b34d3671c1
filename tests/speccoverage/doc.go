// Package speccoverage holds the check that SPEC_COVERAGE.md, the table of
// the specifications' rows against the code and tests that keep them, names
// only code and tests that exist. It has no code of its own.
package speccoverage
