package identity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/privatestate"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// The held of a key: whether no recovery of another configuration's
// interrupted create can take it. A key a create made is marked by it; an
// imported key is read (held at once, marked by the first apply after the
// import, or refused at plan when another configuration's mark, a live
// claim or a create in flight speaks for it).

// readsAsHeld tells, for a state without held (just imported, or written
// by an earlier version), whether the key is marked on its user: a key
// with a value in state was made by a create, which marked it; an imported
// one was marked by an earlier version's refresh when the private state
// says so. A refresh only reads; an unmarked key is marked by the next
// apply (markHeld), which the plan shows.
func readsAsHeld(ctx context.Context, state *serviceSpecificCredentialModel, prior privatestate.Getter) bool {
	if !state.ServiceAPIKeyValue.IsNull() {
		return true
	}
	b, _ := prior.GetKey(ctx, privateHeld)
	return len(b) > 0
}

// beyondRecovery reports whether no recovery of an interrupted create can
// ever take key, an imported key without a value (one ListUserTags, a read,
// for all the keys of its user this import reads, called after the key
// listing that found key was answered, listed; recovery.BeyondRecovery
// says when). Then it needs no mark, and its import plans no update. When
// the tags cannot be read, the answer is no: the apply marks it. taken is
// what says the key is another configuration's or may yet become another
// run's (recovery.SpokenFor): then the import stops before its state holds
// the key.
func (r *serviceSpecificCredentialResource) beyondRecovery(ctx context.Context, key *identityclient.ServiceSpecificCredential, serverTime time.Time, listed conns.Answered) (held bool, taken *recovery.HeldElsewhere) {
	out, err := r.clients.Listings.TagsSince(ctx, key.UserName, listed)
	if err != nil {
		tflog.Debug(ctx, "Could not read the tags of an imported key's user: the apply marks the key as held", map[string]any{"user_name": key.UserName, "error": err.Error()})
		return false, nil
	}
	if taken := recovery.SpokenFor(out.Tags, key, serverTime); taken != nil {
		return false, taken
	}
	return recovery.BeyondRecovery(out.Tags, key, serverTime), nil
}

// markHeld marks an imported key as held on its user, as its create would
// have: without the mark, a recovery of an interrupted create whose window
// covers the key's creation could take it. It writes nothing and stops the
// apply (an error, false) when the key is spoken for on its user: another
// configuration's mark, an adoption taking it, or a create in flight that
// may have made it (recovery.HoldImported). Any other failure is a warning
// and leaves held false, so the next plan plans the mark again.
func (r *serviceSpecificCredentialResource) markHeld(ctx context.Context, state *serviceSpecificCredentialModel, diags *diag.Diagnostics) bool {
	user, id := state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString()
	created, _ := time.Parse(time.RFC3339, state.CreateDate.ValueString())
	err := recovery.HoldImported(ctx, recovery.Hold{Client: r.clients.Identity, User: user, Service: state.ServiceName.ValueString(),
		KeyID: id, Nonce: recovery.NewNonce(), Created: created, Window: recovery.CreateWindow(clientConfig(r.clients))})
	var held *recovery.HeldElsewhere
	switch {
	case err == nil:
		return true
	case errors.As(err, &held):
		heldElsewhereError(held, diags)
	default:
		diags.AddWarning("Imported Key Not Marked as Held",
			fmt.Sprintf("Marking key %s as held on user %q (tag %s, identity:TagUser) failed, so held stays false and the next plan plans it again. "+
				"Until it is marked, a recovery of another configuration's interrupted create of a key for this user, whose window covers this key's creation, could take it.\n\n%s",
				id, user, recovery.MarkTag(id), err))
	}
	return false
}

// markedElsewhere reports, with an error, whether key state, imported and
// never marked by this configuration (held false), is marked as held by
// another: then this state holds it beside that one, and a refresh or a
// delete stops before anything is written (one ListUserTags, only for such
// a key). Tags that cannot be read are logged: the apply's mark contests.
func (r *serviceSpecificCredentialResource) markedElsewhere(ctx context.Context, state *serviceSpecificCredentialModel, diags *diag.Diagnostics) bool {
	user, id := state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString()
	out, err := r.clients.Identity.ListUserTags(ctx, user)
	if err != nil {
		tflog.Debug(ctx, "Could not read the tags of an imported key's user", map[string]any{"user_name": user, "error": err.Error()})
		return false
	}
	held := recovery.MarkedElsewhere(out.Tags, user, id)
	if held == nil {
		return false
	}
	heldElsewhereError(held, diags)
	return true
}

// heldElsewhereError stops the apply of an import whose key is another
// configuration's, saying which tag says so and what to do.
func heldElsewhereError(h *recovery.HeldElsewhere, diags *diag.Diagnostics) {
	const summary = "Imported Key Held by Another Configuration"
	if !h.Until.IsZero() {
		diags.AddError(summary, fmt.Sprintf("Key %s of user %q may be the key of another run's create still in flight (its record, tag %s, is on the user until %s): "+
			"that run's state will hold it, so this import stops before anything is written. Plan again after %s; if the key is then held by that run's configuration, drop the import from this one.",
			h.KeyID, h.User, h.Tag, h.Until.Format(time.RFC3339), h.Until.Format(time.RFC3339)))
		return
	}
	diags.AddError(summary, fmt.Sprintf("Key %s of user %q is held by another configuration (tag %s = %s on the user): a key in two states is deleted for both by a destroy in either, "+
		"and a reset in one stops the value in the other, so this import stops before anything is written. "+
		"Remove the key from this configuration (drop the import block, or terraform state rm where a state has it); or, if no configuration's state holds the key any more "+
		"(another removed it with terraform state rm, or a run that made it was killed before Terraform saved it), remove the tag %s from the user (identity:UntagUser) and import again.",
		h.KeyID, h.User, h.Tag, h.Value, h.Tag))
}
