package diagnostics

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// What a key create tells the user: the diagnostics of its outcome
// (internal/recovery) and of the plan's check that the principal that
// applies may create the key.

// KeyCreateSummary titles every error of a key create.
const KeyCreateSummary = "Unable to Create Identity Service Specific Credential"

// AddKeyCreateOutcome turns how a key create went into diagnostics: its notes
// in order, then its end.
func AddKeyCreateOutcome(in identityclient.CreateServiceSpecificCredentialInput, out recovery.KeyOutcome, diags *diag.Diagnostics) {
	user := in.UserName
	for _, n := range out.Notes {
		switch n := n.(type) {
		case recovery.KeyRecoveryDenied:
			diags.AddWarning("Interrupted Key Creates Not Recovered",
				fmt.Sprintf("The provider may not read the tags of user %q (identity:ListUserTags), where it records key creates in flight, so a key left by an interrupted create cannot be recognised and adopted. "+
					"The key is created regardless. Grant identity:ListUserTags, identity:TagUser and identity:UntagUser on the user to have interrupted creates recovered.\n\n%s", user, n.Err))
		case recovery.KeyNotRecorded:
			diags.AddWarning("Key Create Not Recorded",
				fmt.Sprintf("The provider could not record this key create on user %q (identity:TagUser; a user holds at most %d tags), so if it is interrupted, the key it makes cannot be recognised by a later apply. "+
					"The key is created regardless.\n\n%s", user, identityclient.MaxUserTags, n.Err))
		case recovery.KeyNotMarked:
			notMarkedWarning(user, n, diags)
		case recovery.KeyMaybeUnsaved:
			diags.AddWarning("Keys Possibly Held by No State",
				fmt.Sprintf("User %q holds keys that a create (or adoption) of another Terraform run marked as held lately: %s. "+
					"A run killed after marking its key but before Terraform saved its state leaves such a key live and in no state, and nothing on the service tells it from a key a state holds. "+
					"If a configuration's state holds each (terraform state list), there is nothing to do. If none does, delete it (identity:DeleteServiceSpecificCredential): "+
					"its value was lost with that run, so nothing can call with it. (To import it instead, remove its mark from the user first: an import stops on a key marked as held.)",
					user, keysOnUserText(n.Keys)))
		case recovery.KeyOrphanRemoved:
			diags.AddWarning("Orphaned Identity Service Specific Credential Deleted",
				fmt.Sprintf("Key %s of user %q was made by a create interrupted at %s: no configuration holds it and its value was lost. It does not fit the planned key, so the provider deleted it.",
					n.KeyID, user, n.Started.Format(time.RFC3339)))
		}
	}
	switch e := out.End.(type) {
	case recovery.KeyCreated:
	case recovery.KeyAdopted:
		diags.AddWarning("Identity Service Specific Credential Adopted",
			fmt.Sprintf("%s No configuration held it, so the provider adopted it instead of creating a second key, and reset it to obtain a value: service_api_key_value holds that value.",
				orphanKeyWhy(e.Key.ServiceSpecificCredentialID, user, e.Started)))
	case recovery.KeyRefused:
		keyCreateError(diags, in, e.Err, e.Keys)
	case recovery.KeyLookFailed:
		diags.AddError(KeyCreateSummary, fmt.Sprintf("Reading the keys of user %q and the records of its key creates failed, so nothing was created "+
			"(a create interrupted earlier may have left a key that a new one would put beside it). Apply again.\n\n%s", user, e.Err))
	case recovery.KeyWaitedOut:
		diags.AddError(KeyCreateSummary, waitedOutDetail(e.InFlight))
	case recovery.KeyAnswerLost:
		switch {
		case e.Record == "":
			diags.AddError(KeyCreateSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and the create was not recorded, so the provider cannot tell which key it made. "+
				"List the user's keys: one not in any Terraform state, created just now, is this create's; delete it (its value was lost) or import it, then apply again.\n\n%s", user, e.Err))
		case e.LookErr != nil:
			diags.AddError(KeyCreateSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and listing the user's keys to find the key failed. "+
				"The create stays recorded on the user (tag %s), so the next apply looks for the key again and adopts it instead of creating another, on this machine or any other.\n\n%s", user, e.Record, errors.Join(e.Err, e.LookErr)))
		default:
			diags.AddError(KeyCreateSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and no key from it appeared by %s, when the request could no longer take effect, so nothing was created. Apply again.\n\n%s",
				user, e.Until.Format(time.RFC3339), e.Err))
		}
	case recovery.KeyInterrupted:
		if e.Record == "" {
			diags.AddError(KeyCreateSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived, and it was not recorded: if the service created the key, it is held by no configuration and its value is lost. "+
				"List the user's keys and delete the one not in any Terraform state, then apply again.\n\n%s", user, e.Err))
			return
		}
		diags.AddError(KeyCreateSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived. It is recorded on the user (tag %s): "+
			"the next apply, on this machine or any other, waits until %s for the key to land, then adopts it if the service created it, or creates one.\n\n%s",
			user, e.Record, e.Until.Format(time.RFC3339), e.Err))
	case recovery.KeyAmbiguous:
		diags.AddError(KeyCreateSummary, fmt.Sprintf("A create of a key for user %q started at %s was interrupted, and the user's unclaimed keys created around then (%s) are more than the interrupted creates can account for: "+
			"another client made keys for this user at the same time, and the provider cannot tell which key the interrupted create made, so it changed nothing. "+
			"Delete the key no configuration should keep (its value was lost), or bring it under Terraform with terraform import <address> %s/<credential id>; "+
			"then remove the tag %s from the user and apply again.",
			user, e.Started.Format(time.RFC3339), strings.Join(e.Keys, ", "), user, e.Record))
	case recovery.KeyOrphanNotDeleted:
		diags.AddError(KeyCreateSummary, fmt.Sprintf("Key %s of user %q was left behind by a create interrupted at %s and does not fit the planned key, and deleting it failed, so nothing was created. Apply again.\n\n%s",
			e.KeyID, user, e.Started.Format(time.RFC3339), e.Err))
	case recovery.KeyResetFailed:
		diags.AddError(KeyCreateSummary, fmt.Sprintf("%s The provider adopts it rather than create a second key, but resetting it to obtain a value failed. "+
			"Nothing else was created; the next apply adopts the same key.\n\n%s", orphanKeyWhy(e.KeyID, user, e.Started), e.Err))
	default:
		diags.AddError(KeyCreateSummary, fmt.Sprintf("The create of a key for user %q ended in a way the provider does not handle (%T); this is a bug in the provider.", user, e))
	}
}

// waitedOutDetail says which creates of other runs a key create would
// have had to wait for longer than it waits, when they lapse, and what to
// do.
func waitedOutDetail(w recovery.RecordsInFlight) string {
	var recs []string
	last := time.Time{}
	for _, r := range w.Records {
		if r.Started.IsZero() {
			recs = append(recs, fmt.Sprintf("tag %s, a recovery taking a key over, lapses %s", r.Tag, r.Lapses.Format(time.RFC3339)))
		} else {
			recs = append(recs, fmt.Sprintf("tag %s, started %s, lapses %s", r.Tag, r.Started.Format(time.RFC3339), r.Lapses.Format(time.RFC3339)))
		}
		if r.Lapses.After(last) {
			last = r.Lapses
		}
	}
	return fmt.Sprintf("User %q carries the record of a key create by another run that may still land a key until %s (%s), "+
		"later than this create waits for one (%s, twice its own window, from the provider's http_timeout and max_retries): a key created now could not be told from the one that create may make, so nothing was created. "+
		"If that run is still going, let it finish and apply again. If it was interrupted (killed, its runner gone), apply again after %s: the next apply then recovers the key it left, if any. "+
		"If no run is creating a key for this user, remove the tag from the user (identity:UntagUser) and apply again.",
		w.User, last.Format(time.RFC3339), strings.Join(recs, "; "), w.Waited.Round(time.Second), last.Format(time.RFC3339))
}

// orphanKeyWhy says where orphan key id came from.
func orphanKeyWhy(id, user string, started time.Time) string {
	return fmt.Sprintf("Key %s of user %q was made by a create started at %s whose answer never arrived (its value was lost).",
		id, user, started.Format(time.RFC3339))
}

// notMarkedWarning says what is left to do when a create could not mark
// its key as held or remove its record.
func notMarkedWarning(user string, n recovery.KeyNotMarked, diags *diag.Diagnostics) {
	switch {
	case n.UnrecordErr == nil:
		diags.AddWarning("Key Not Claimed",
			fmt.Sprintf("Key %s of user %q was created and is in the state, and the record of its create was removed, but marking the key as held (tag %s) failed. "+
				"Until the tag is set, a later apply that recovers another create of a key for this user, interrupted around %s, could take this key for that create's key and reset or delete it: "+
				"set the tag %s = %s on the user (identity:TagUser).\n\n%s",
				n.KeyID, user, n.MarkTag, n.Started.Format(time.RFC3339), n.MarkTag, n.Nonce, n.MarkErr))
	case n.MarkErr == nil:
		diags.AddWarning("Key Create Record Not Cleared",
			fmt.Sprintf("Key %s of user %q is in the state and is marked as held (tag %s), so no recovery touches it. Removing the record of its create (tag %s) failed: "+
				"until it is removed, the next create of a key for this user may wait for it (until %s), then removes it.\n\n%s",
				n.KeyID, user, n.MarkTag, n.Record, n.Until.Format(time.RFC3339), n.UnrecordErr))
	default:
		diags.AddWarning("Key Not Claimed",
			fmt.Sprintf("Key %s of user %q is in the state, but neither marking it as held (tag %s) nor removing the record of its create (tag %s) succeeded. "+
				"Until one of the two is done, a later apply that creates a key for this user after %s takes this key for the orphan of an interrupted create and resets or deletes it: "+
				"set the tag %s = %s or remove the tag %s on the user (identity:TagUser, identity:UntagUser).\n\n%s",
				n.KeyID, user, n.MarkTag, n.Record, n.Until.Format(time.RFC3339), n.MarkTag, n.Nonce, n.Record, errors.Join(n.MarkErr, n.UnrecordErr)))
	}
}

// keyCreateError explains a CreateServiceSpecificCredential the service
// refused.
func keyCreateError(diags *diag.Diagnostics, in identityclient.CreateServiceSpecificCredentialInput, err error, keys []recovery.KeyOnUser) {
	age := "no credential_age_days (a key that never expires)"
	if in.CredentialAgeDays > 0 {
		age = fmt.Sprintf("credential_age_days = %d", in.CredentialAgeDays)
	}
	held := "(they could not be listed)"
	if len(keys) > 0 {
		held = keysOnUserText(keys)
	}
	AddIdentityError(diags, KeyCreateSummary, KeyCreate, err,
		"user", strconv.Quote(in.UserName), "service", in.ServiceName, "age", age, "keys", held)
}

// keysOnUserText describes a user's keys and their marks, one clause
// each: which none marks (held by no configuration, or by one whose mark
// was never set), and when each mark was set.
func keysOnUserText(keys []recovery.KeyOnUser) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		switch {
		case k.MarkTag == "":
			out[i] = fmt.Sprintf("%s (created %s, marked as held by no configuration: the orphan of a create not recorded, or a key made outside Terraform)", k.ID, k.Created.Format(time.RFC3339))
		case k.Settled.IsZero():
			out[i] = fmt.Sprintf("%s (created %s, marked as held by tag %s)", k.ID, k.Created.Format(time.RFC3339), k.MarkTag)
		default:
			out[i] = fmt.Sprintf("%s (created %s, marked as held by tag %s at %s)", k.ID, k.Created.Format(time.RFC3339), k.MarkTag, k.Settled.Format(time.RFC3339))
		}
	}
	return strings.Join(out, "; ")
}

// AddApplyPrincipalInOtherAccount says that apply_principal_arn (named) is
// a principal of account other, not of the provider's account.
func AddApplyPrincipalInOtherAccount(diags *diag.Diagnostics, named, other, account string) {
	diags.AddError("Apply Principal in Another Account",
		fmt.Sprintf("apply_principal_arn (%s) is a principal of account %s, but the provider runs in account %s, where the apply creates the keys. "+
			"A principal of another account cannot apply here, and the plan cannot ask the identity service about it. "+
			"Set apply_principal_arn to the user or role of account %s that applies.", named, other, account, account))
}

// AddApplyPrincipalNotFound says, once a plan (first), that
// apply_principal_arn names no principal of this account.
func AddApplyPrincipalNotFound(diags *diag.Diagnostics, first bool, principal string) {
	if first {
		diags.AddError("Apply Principal Not Found",
			fmt.Sprintf("apply_principal_arn (%s) names a principal that does not exist in this account, so the plan cannot ask whether it may create the keys, and it could not apply them. "+
				"This is not a policy refusing the key. Set apply_principal_arn to the ARN of the user or role that applies.", principal))
	}
}

// KeyCheck is the create a plan asked the policy simulation about: for
// user, service and days, whether Principal (apply_principal_arn when
// Named, else the caller) may create a key on Resource, the user's ARN.
type KeyCheck struct {
	User, Service       string
	Days                int64
	Principal, Resource string
	Named               bool
}

// AddKeyCheckSkipped warns that the check of c could not be made, and
// what it needs.
func AddKeyCheckSkipped(diags *diag.Diagnostics, c KeyCheck, err error) {
	needs := "sts:GetCallerIdentity and identity:SimulatePrincipalPolicy on itself"
	if c.Named {
		needs = fmt.Sprintf("identity:SimulatePrincipalPolicy on %s, the apply_principal_arn", c.Principal)
	}
	diags.AddWarning("Key Permission Check Skipped",
		fmt.Sprintf("The provider could not ask the identity service whether the principal that applies may create the planned keys (the principal that plans needs %s), "+
			"so a policy that refuses a key is found only at apply. The plan is otherwise complete.\n\n%s", needs, err))
}

// AddKeyRefusedAtPlan reports a result that does not allow the create of
// c, on the attribute its reason names. The service needs an Allow for
// this action: an implicit deny (such as an age cap's Allow whose
// condition is not met) refuses it at apply as an explicit deny does.
func AddKeyRefusedAtPlan(diags *diag.Diagnostics, c KeyCheck, res identityclient.EvaluationResult) {
	why := res.EvalDecisionReason
	if why == "" && len(res.MatchedStatements) > 0 {
		why = "decided by " + res.MatchedStatements[0].SourcePolicyID
	}
	if why == "" {
		why = fmt.Sprintf("%s: no statement allows identity:CreateServiceSpecificCredential on %s with the context values identity:ServiceSpecificCredentialAgeDays = %d and identity:ServiceSpecificCredentialServiceName = %q",
			res.EvalDecision, c.Resource, c.Days, c.Service)
	}
	attr := path.Root("credential_age_days")
	if strings.Contains(why, "ServiceSpecificCredentialServiceName") && !strings.Contains(why, "ServiceSpecificCredentialAgeDays") {
		attr = path.Root("service_name")
	}
	who := fmt.Sprintf("the principal Terraform runs as (%s)", c.Principal)
	hint := " If this plan runs under a plan role and another role applies, name that role with the provider setting apply_principal_arn (or CLOUD_APPLY_PRINCIPAL_ARN): the plan then asks about it instead."
	if c.Named {
		who, hint = fmt.Sprintf("the principal that applies (%s, apply_principal_arn)", c.Principal), ""
	}
	diags.AddAttributeError(attr, KeyCreateSummary,
		fmt.Sprintf("A policy of %s refuses a key for user %q with credential_age_days = %d for %s (identity:CreateServiceSpecificCredential): %s. "+
			"The identity service's policy simulation says so at plan, before anything is created. "+
			"%s%s",
			who, c.User, c.Days, c.Service, why, KeyPolicyAdvice, hint))
}

// KeyDelete are the remedies for a refused DeleteServiceSpecificCredential.
// Placeholders: {key}, {user} and {error}.
var KeyDelete = Remedies{
	Otherwise: Remedy{Text: "Deleting key {key} of user {user} failed: {error}"},
}

// AddKeyDeleteError adds the remedy for a refused delete of key id of
// user.
func AddKeyDeleteError(diags *diag.Diagnostics, user, id string, err error) {
	AddIdentityError(diags, "Unable to Delete Identity Service Specific Credential", KeyDelete, err, "key", id, "user", strconv.Quote(user))
}
