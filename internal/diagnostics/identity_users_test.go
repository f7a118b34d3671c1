package diagnostics

import (
	"errors"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// What a user create's outcome says to the user: its notes in order, then
// its end. The protocol's tests (internal/recovery) assert which outcome
// each situation gives.
func TestUserDiagnostics(t *testing.T) {
	t.Parallel()
	in := identityclient.CreateUserInput{UserName: "orphan", Path: "/"}
	boom := errors.New("boom")
	orphan := &identityclient.User{UserName: "orphan", UserID: "AIDAORPHAN", Path: "/team/", CreateDate: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	tests := []struct {
		name      string
		out       recovery.UserOutcome
		summaries string
		details   []string
	}{
		{"created", recovery.UserOutcome{End: recovery.UserCreated{User: orphan}}, "", nil},
		{"adopted", recovery.UserOutcome{End: recovery.UserAdopted{User: orphan}}, "Warning: Identity User Adopted", []string{`User "orphan" (id AIDAORPHAN) was created at 2026-03-01T12:00:00Z`}},
		{"record not cleared", recovery.UserOutcome{End: recovery.UserCreated{User: orphan}, Notes: []recovery.UserNote{recovery.UserRecordNotCleared{UserName: "orphan", Record: "terraform-cloud:creating-user", Err: boom}}},
			"Warning: User Create Record Not Cleared", []string{"(tag terraform-cloud:creating-user) failed"}},
		{"taken", recovery.UserOutcome{End: recovery.UserTaken{Err: boom}}, "Error: " + UserCreateSummary,
			[]string{`A user named "orphan" already exists (names are unique regardless of case). Choose another user_name`, "terraform import <address> orphan"}},
		{"taken, spelled otherwise", recovery.UserOutcome{End: recovery.UserTaken{Err: boom, SpelledAs: "Orphan"}}, "Error: " + UserCreateSummary, []string{`The user that exists is spelled "Orphan".`}},
		{"taken, another run adopting", recovery.UserOutcome{End: recovery.UserTaken{Err: boom, OtherRunAdopting: true}}, "Error: " + UserCreateSummary, []string{"Another run is adopting the user"}},
		{"other path", recovery.UserOutcome{End: recovery.UserOtherPath{User: orphan, Err: boom}}, "Error: " + UserCreateSummary,
			[]string{`User "orphan" (id AIDAORPHAN) with path "/team/" was created at`, `the configuration asks for path "/"`}},
		{"refused", recovery.UserOutcome{End: recovery.UserRefused{Err: boom}}, "Error: " + UserCreateSummary, []string{`Creating user "orphan" failed: boom`}},
		{"answer lost, none appeared", recovery.UserOutcome{End: recovery.UserAnswerLost{Err: boom, Wait: time.Second}}, "Error: " + UserCreateSummary, []string{`boom; no user "orphan" appeared within 1s`}},
		{"answer lost, read failed", recovery.UserOutcome{End: recovery.UserAnswerLost{Err: boom, ReadErr: boom}}, "Error: " + UserCreateSummary, []string{"reading the user to learn the outcome also failed (boom)"}},
		{"unreadable", recovery.UserOutcome{End: recovery.UserUnreadable{Err: boom, ReadErr: boom}}, "Error: " + UserCreateSummary, []string{"reading it to tell whether an interrupted create made it failed"}},
		{"wait interrupted", recovery.UserOutcome{End: recovery.UserWaitInterrupted{Err: boom, WaitErr: boom}}, "Error: " + UserCreateSummary, []string{"the wait for it was interrupted"}},
		{"takeover failed", recovery.UserOutcome{End: recovery.UserTakeoverFailed{User: orphan, Err: boom, ClaimErr: boom}}, "Error: " + UserCreateSummary, []string{"taking it over failed"}},
		{"interrupted", recovery.UserOutcome{End: recovery.UserInterrupted{Record: "terraform-cloud:creating-user", Window: 5 * time.Second, Err: boom}}, "Error: " + UserCreateSummary,
			[]string{"(tag terraform-cloud:creating-user)", "once 5s have passed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			AddUserCreateOutcome(in, tt.out, &diags)
			checkOutcome(t, diags, tt.summaries, tt.details)
		})
	}
}
