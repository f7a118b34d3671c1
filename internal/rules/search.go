package rules

import (
	"regexp"
	"time"
)

// The search service's path and query parameters and its one time limit,
// all the spec's: the provider's domain_name, dry_run_id and change_id
// validators, the client's request checks and the emulator's use these.
var (
	// DomainName is a domain's name: 3 to 28 characters of the spec's
	// pattern, which admits ASCII only (so bytes are characters).
	DomainName = Value{Length: between(3, 28), Form: &Form{
		Re:      regexp.MustCompile(`^[a-z][a-z0-9\-]+$`),
		Must:    "must start with a lower-case letter and contain only lower-case letters, digits and hyphens",
		Example: "demo",
	}}
	// ChangeID is a DryRunId or a ChangeId: exactly 36 characters in
	// hexadecimal groups 8-4-4-4-12.
	ChangeID = Value{Length: between(36, 36), Form: &Form{
		Re:      regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`),
		Must:    "must be 36 characters in hexadecimal groups 8-4-4-4-12",
		Example: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
	}}
)

// MaxSnapshotPause is the spec's longest suspension of automated snapshots
// (AutomatedSnapshotPauseOptions): 3 days.
const MaxSnapshotPause = 72 * time.Hour
