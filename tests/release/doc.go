// Package release checks the release as a user gets it: a snapshot built
// with the project's goreleaser configuration, its SHA256SUMS signed and
// verified, installed from a filesystem mirror by a real `terraform init`
// and used for a plan against the emulator.
package release
