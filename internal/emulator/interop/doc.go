// Package interop holds tests only: aws-sdk-go-v2's own service clients
// (opensearch, iam, bedrockruntime, from the Go module proxy) against the
// in-process emulator. They need nothing installed, so they run in every
// `go test ./...` and in make test-race. harness_test.go says which settings
// differ from a client aimed at the real services, and why.
package interop
