package search

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/privatestate"
)

// An imported domain may be in the middle of someone else's change. The
// provider cannot tell such a change from one of its own killed applies by
// looking at the domain, so it notes, at import, which change was the
// domain's latest then: a change the provider found at import is not its
// own, and with nothing to send a plan does not wait for it (the next
// refresh records its status). Any later change, including one a killed
// apply of this provider started, is followed as before.

// importedDomain is the private state's note of an import: whether the
// import's read has run, and the domain's latest change it found.
type importedDomain struct {
	Read   bool   `json:"read"`
	Change string `json:"change"`
}

// privateImported is the private state's key for importedDomain.
const privateImported = "imported"

// markImported notes an import, before its read.
func markImported(ctx context.Context, p privatestate.Setter) diag.Diagnostics {
	return privatestate.Set(ctx, p, privateImported, importedDomain{})
}

// recordImportedChange completes the note of an import at its read: the
// domain's latest change then. Later reads leave the note as it is.
func recordImportedChange(ctx context.Context, p privatestate.GetSetter, live *domainState) diag.Diagnostics {
	note := readImported(ctx, p)
	if note == nil || note.Read {
		return nil
	}
	return privatestate.Set(ctx, p, privateImported, importedDomain{Read: true, Change: live.latestChange})
}

// importFound reports whether changeID is the change an import found on
// the domain: someone else's, not one this provider started.
func importFound(ctx context.Context, p privatestate.Getter, changeID string) bool {
	note := readImported(ctx, p)
	return note != nil && note.Read && changeID != "" && note.Change == changeID
}

func readImported(ctx context.Context, p privatestate.Getter) *importedDomain {
	var note importedDomain
	if !privatestate.Get(ctx, p, privateImported, &note) {
		return nil
	}
	return &note
}
