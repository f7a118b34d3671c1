package diagnostics

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// What a key create's outcome says to the user: its notes in order, then
// its end. The protocol's tests (internal/recovery) assert which outcome
// each situation gives.
func TestKeyDiagnostics(t *testing.T) {
	t.Parallel()
	in := identityclient.CreateServiceSpecificCredentialInput{UserName: "kim", ServiceName: "models.cloud.example", CredentialAgeDays: 30}
	boom := errors.New("boom")
	started := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	key := &identityclient.ServiceSpecificCredential{ServiceSpecificCredentialID: "ACCAKEY"}
	mark := recovery.MarkTag("ACCAKEY")
	notMarked := recovery.KeyNotMarked{KeyID: "ACCAKEY", MarkTag: mark, Nonce: "n1", Record: "terraform-cloud:creating:n1", Started: started, Until: started.Add(time.Minute)}
	markFailed, bothFailed, unrecordFailed := notMarked, notMarked, notMarked
	markFailed.MarkErr = boom
	bothFailed.MarkErr, bothFailed.UnrecordErr = boom, boom
	unrecordFailed.UnrecordErr = boom
	tests := []struct {
		name      string
		out       recovery.KeyOutcome
		summaries string
		details   []string
	}{
		{"created", recovery.KeyOutcome{End: recovery.KeyCreated{Key: key}}, "", nil},
		{"mark not set, record removed", recovery.KeyOutcome{End: recovery.KeyCreated{Key: key}, Notes: []recovery.KeyNote{markFailed}},
			"Warning: Key Not Claimed", []string{"the record of its create was removed", "set the tag " + mark + " = n1"}},
		{"neither", recovery.KeyOutcome{End: recovery.KeyCreated{Key: key}, Notes: []recovery.KeyNote{bothFailed}},
			"Warning: Key Not Claimed", []string{"neither marking it as held (tag " + mark + ") nor removing the record of its create (tag terraform-cloud:creating:n1)"}},
		{"record not removed", recovery.KeyOutcome{End: recovery.KeyCreated{Key: key}, Notes: []recovery.KeyNote{unrecordFailed}},
			"Warning: Key Create Record Not Cleared", []string{"is marked as held (tag " + mark + ")", "(until 2026-03-01T12:01:00Z)"}},
		{"recovery denied, not recorded, refused", recovery.KeyOutcome{End: recovery.KeyRefused{Err: boom}, Notes: []recovery.KeyNote{recovery.KeyRecoveryDenied{Err: boom}, recovery.KeyNotRecorded{Err: boom}}},
			"Warning: Interrupted Key Creates Not Recovered; Warning: Key Create Not Recorded; Error: " + KeyCreateSummary, []string{"Grant identity:ListUserTags", `Creating a key for user "kim" failed: boom`}},
		{"orphan removed, then adopted", recovery.KeyOutcome{End: recovery.KeyAdopted{Key: key, Started: started}, Notes: []recovery.KeyNote{recovery.KeyOrphanRemoved{KeyID: "ACCAOLD", Started: started}}},
			"Warning: Orphaned Identity Service Specific Credential Deleted; Warning: Identity Service Specific Credential Adopted",
			[]string{"Key ACCAOLD of user \"kim\" was made by a create interrupted at 2026-03-01T12:00:00Z", "Key ACCAKEY of user \"kim\" was made by a create started at 2026-03-01T12:00:00Z whose answer never arrived"}},
		{"answer lost, unrecorded", recovery.KeyOutcome{End: recovery.KeyAnswerLost{Err: boom}}, "Error: " + KeyCreateSummary, []string{"the create was not recorded"}},
		{"answer lost, look failed", recovery.KeyOutcome{End: recovery.KeyAnswerLost{Record: "terraform-cloud:creating:n1", LookErr: boom, Err: boom}}, "Error: " + KeyCreateSummary, []string{"stays recorded on the user (tag terraform-cloud:creating:n1)"}},
		{"answer lost, none landed", recovery.KeyOutcome{End: recovery.KeyAnswerLost{Record: "terraform-cloud:creating:n1", Until: started, Err: boom}}, "Error: " + KeyCreateSummary, []string{"no key from it appeared by 2026-03-01T12:00:00Z"}},
		{"interrupted, unrecorded", recovery.KeyOutcome{End: recovery.KeyInterrupted{Err: boom}}, "Error: " + KeyCreateSummary, []string{"and it was not recorded"}},
		{"interrupted, recorded", recovery.KeyOutcome{End: recovery.KeyInterrupted{Record: "terraform-cloud:creating:n1", Until: started, Err: boom}}, "Error: " + KeyCreateSummary, []string{"(tag terraform-cloud:creating:n1)", "waits until 2026-03-01T12:00:00Z"}},
		{"look failed", recovery.KeyOutcome{End: recovery.KeyLookFailed{Err: boom}}, "Error: " + KeyCreateSummary, []string{"so nothing was created"}},
		{"ambiguous", recovery.KeyOutcome{End: recovery.KeyAmbiguous{Record: "terraform-cloud:creating:n0", Started: started, Keys: []string{"ACCAA", "ACCAB"}}}, "Error: " + KeyCreateSummary, []string{"(ACCAA, ACCAB)", "remove the tag terraform-cloud:creating:n0"}},
		{"orphan not deleted", recovery.KeyOutcome{End: recovery.KeyOrphanNotDeleted{KeyID: "ACCAOLD", Started: started, Err: boom}}, "Error: " + KeyCreateSummary, []string{"Key ACCAOLD of user \"kim\" was left behind"}},
		{"reset failed", recovery.KeyOutcome{End: recovery.KeyResetFailed{KeyID: "ACCAOLD", Started: started, Err: boom}}, "Error: " + KeyCreateSummary, []string{"resetting it to obtain a value failed"}},
		{"waited out", recovery.KeyOutcome{End: recovery.KeyWaitedOut{InFlight: recovery.RecordsInFlight{User: "kim", Waited: time.Minute,
			Records: []recovery.InFlight{{Tag: "terraform-cloud:creating:far", Started: started, Lapses: started.Add(time.Hour)}}}}},
			"Error: " + KeyCreateSummary, []string{`User "kim" carries the record`, "tag terraform-cloud:creating:far", "lapses 2026-03-01T13:00:00Z", "apply again after 2026-03-01T13:00:00Z", "remove the tag"}},
		{"maybe unsaved", recovery.KeyOutcome{End: recovery.KeyCreated{Key: key}, Notes: []recovery.KeyNote{recovery.KeyMaybeUnsaved{Keys: []recovery.KeyOnUser{
			{ID: "ACCAOLD", MarkTag: "terraform-cloud:creating:n0", Created: started, Settled: started}}}}},
			"Warning: Keys Possibly Held by No State", []string{"ACCAOLD (created 2026-03-01T12:00:00Z, marked as held by tag terraform-cloud:creating:n0 at 2026-03-01T12:00:00Z)", "delete it (identity:DeleteServiceSpecificCredential)", "remove its mark from the user first"}},
		{"key limit", recovery.KeyOutcome{End: recovery.KeyRefused{Err: fmt.Errorf("full: %w", client.ErrLimitExceeded), Keys: []recovery.KeyOnUser{
			{ID: "ACCAA", MarkTag: "terraform-cloud:creating:n0", Created: started, Settled: started}, {ID: "ACCAB", Created: started}}}},
			"Error: " + KeyCreateSummary, []string{"ACCAA (created 2026-03-01T12:00:00Z, marked as held by tag", "ACCAB (created 2026-03-01T12:00:00Z, marked as held by no configuration", "held by nobody"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			AddKeyCreateOutcome(in, tt.out, &diags)
			checkOutcome(t, diags, tt.summaries, tt.details)
		})
	}
}

// A refused key delete names the key and its user, the user quoted, ends
// with the service's error, and is about the resource as a whole.
func TestAddKeyDeleteError(t *testing.T) {
	var diags diag.Diagnostics
	AddKeyDeleteError(&diags, "kim", "ACCAKEY", fmt.Errorf("boom"))
	if len(diags) != 1 || diags[0].Summary() != "Unable to Delete Identity Service Specific Credential" || diags[0].Detail() != `Deleting key ACCAKEY of user "kim" failed: boom` {
		t.Fatalf("got %v", diags)
	}
	if _, ok := diags[0].(diag.DiagnosticWithPath); ok {
		t.Errorf("on an attribute, want the resource")
	}
}
