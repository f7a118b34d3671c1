package diagnostics

import (
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// What a user create tells the user: the diagnostics of its outcome
// (internal/recovery).

// UserCreateSummary titles every error of a user create.
const UserCreateSummary = "Unable to Create Identity User"

// AddUserCreateOutcome turns how a user create went into diagnostics: its notes
// in order, then its end.
func AddUserCreateOutcome(in identityclient.CreateUserInput, out recovery.UserOutcome, diags *diag.Diagnostics) {
	name := in.UserName
	for _, n := range out.Notes {
		if n, ok := n.(recovery.UserRecordNotCleared); ok {
			diags.AddWarning("User Create Record Not Cleared",
				fmt.Sprintf("User %q was created and is in the state, but removing the record of its create (tag %s) failed. Until the tag is removed, another configuration that creates a user of this name would adopt this one: remove the tag (identity:UntagUser).\n\n%s",
					n.UserName, n.Record, n.Err))
		}
	}
	failed := func(detail string) { diags.AddAttributeError(path.Root("user_name"), UserCreateSummary, detail) }
	switch e := out.End.(type) {
	case recovery.UserCreated:
	case recovery.UserAdopted:
		u := e.User
		diags.AddWarning("Identity User Adopted",
			fmt.Sprintf("User %q (id %s) was created at %s by a create that was interrupted before Terraform recorded the user, and no configuration held it. The provider adopted it into the state instead of failing with EntityAlreadyExists; nothing else was created.",
				u.UserName, u.UserID, u.CreateDate.UTC().Format(time.RFC3339)))
	case recovery.UserRefused:
		failed(fmt.Sprintf("Creating user %q failed: %s", name, e.Err))
	case recovery.UserAnswerLost:
		err := fmt.Errorf("%w; no user %q appeared within %s, so most likely nothing was created: apply again", e.Err, name, e.Wait)
		if e.ReadErr != nil {
			err = fmt.Errorf("%w; reading the user to learn the outcome also failed (%w): apply again (if the user was created, it carries the record of this create, and the next apply adopts it)", e.Err, e.ReadErr)
		}
		failed(fmt.Sprintf("Creating user %q failed: %s", name, err))
	case recovery.UserTaken:
		why := ""
		switch {
		case e.SpelledAs != "":
			why = fmt.Sprintf(" The user that exists is spelled %q.", e.SpelledAs)
		case e.OtherRunAdopting:
			why = " Another run is adopting the user, made by an interrupted create, at the same time; if that run was interrupted too, apply again in a few minutes."
		}
		failed(fmt.Sprintf("A user named %q already exists (names are unique regardless of case).%s Choose another user_name, or bring the existing user under Terraform with: terraform import <address> %s\n\n%s",
			name, why, name, e.Err))
	case recovery.UserUnreadable:
		failed(fmt.Sprintf("User %q already exists, and reading it to tell whether an interrupted create made it failed, so nothing was adopted. Apply again.\n\n%s",
			name, errors.Join(e.Err, e.ReadErr)))
	case recovery.UserWaitInterrupted:
		failed(fmt.Sprintf("User %q already exists and carries the record of a create whose answer may still arrive; the wait for it was interrupted, so nothing was adopted. Apply again.\n\n%s",
			name, errors.Join(e.Err, e.WaitErr)))
	case recovery.UserOtherPath:
		u := e.User
		diags.AddAttributeError(path.Root("path"), UserCreateSummary,
			fmt.Sprintf("User %q (id %s) with path %q was created at %s by a create that was interrupted before Terraform recorded it, but the configuration asks for path %q. "+
				"Set path to the user's and apply (the provider adopts the user), then change it (the plan replaces the user); or delete the user and apply.\n\n%s",
				u.UserName, u.UserID, u.Path, u.CreateDate.UTC().Format(time.RFC3339), in.Path, e.Err))
	case recovery.UserTakeoverFailed:
		failed(fmt.Sprintf("User %q was made by an interrupted create, and taking it over failed, so nothing was adopted. Apply again.\n\n%s",
			e.User.UserName, errors.Join(e.Err, e.ClaimErr)))
	case recovery.UserInterrupted:
		failed(fmt.Sprintf("The create of user %q was interrupted before its answer arrived. "+
			"If the service created the user, the user carries the record of this create (tag %s), and the next apply, on this machine or any other, adopts it once %s have passed since its creation.\n\n%s",
			name, e.Record, e.Window.Round(time.Second), e.Err))
	default:
		failed(fmt.Sprintf("The create of user %q ended in a way the provider does not handle (%T); this is a bug in the provider.", name, e))
	}
}
