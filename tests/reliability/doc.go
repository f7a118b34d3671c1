// Package reliability holds the tests that drive the real Terraform CLI and
// a provider binary against the emulator: injected faults, interrupted
// applies, refused bad input, secrets kept out of logs and plans, and
// concurrent runs. It has no code of its own; see the _test.go files.
package reliability
