package identity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

const createSummary = "Unable to Create Identity Service Specific Credential"

// keyCreate is one create of a key, as createWithRecord runs it: it waits
// out other runs' creates for the user and service and recovers what
// interrupted ones left (orphan.go) before sending its own.
type keyCreate struct {
	idc *identityclient.Client
	// window is how long after it starts a create can land a key.
	window time.Duration
	in     identityclient.CreateServiceSpecificCredentialInput
	want   wantKey
	diags  *diag.Diagnostics
	// nonce names this create in the records it writes.
	nonce string
	// clock is the service's clock as the last look (or the user's create)
	// gave it; zero: ours.
	clock conns.ServiceClock
	// own is this create's record, once it stands on the user.
	own *record
	// created are the users this provider instance made.
	created *conns.CreatedUsers
	// swept is set once a look has looked for stale marks.
	swept bool
	// skipped is set while the create goes on without the look
	// (recoverFirst).
	skipped bool
}

var _ recordedCreate[identityclient.ServiceSpecificCredential] = (*keyCreate)(nil)

// recorded reports whether begin recorded this create on the user.
func (c *keyCreate) recorded() bool { return c.own != nil }

// newKeyCreate is one create of the key in, as the plan wants it.
func newKeyCreate(clients *conns.Clients, in identityclient.CreateServiceSpecificCredentialInput, want wantKey, diags *diag.Diagnostics) *keyCreate {
	return &keyCreate{idc: clients.Identity, window: createWindow(clients), in: in, want: want, diags: diags, nonce: newNonce(), created: clients.CreatedUsers}
}

// run returns the key for the resource, with its value: the key of an
// interrupted create adopted, or a new key. It adds diagnostics and returns
// nil when there is none.
func (c *keyCreate) run(ctx context.Context) *identityclient.ServiceSpecificCredential {
	return createWithRecord(ctx, c)
}

// recoverFirst waits while other runs' creates may still land a key, then
// recovers the creates that are over. Without permission to read the
// user's tags, the key is created unrecorded.
//
// For a user this provider instance created (userCreate.made) it makes no
// call: a user's tags go with it, so every record on it was written after
// it was created, during this run. This run's other creates settle or
// resolve their own records (settle, findLost); another run's interrupted
// create on a user this run just made is recovered by that user's next
// create that looks, or by this one when the key it left makes the
// service refuse this create with LimitExceeded (refused). Nor need this create wait for another run's create in flight:
// the wait exists only so that the records recovered are over. The other
// run's key and this one may land in each other's windows, and the
// records tell them apart as for any two creates in flight at once: this
// create's record keeps that run's recovery waiting until it settles into
// this key's mark, which no recovery takes; and should this create's
// answer be lost, findLost waits for that run's record as always. The
// service's clock comes from the user's CreateDate (userCreate.made).
func (c *keyCreate) recoverFirst(ctx context.Context) (*identityclient.ServiceSpecificCredential, afterRecovery) {
	if clock, ok := c.created.Created(c.in.UserName); ok {
		c.clock, c.skipped = clock, true
		return nil, createRecorded
	}
	v, err := c.waitOut(ctx, nil)
	switch {
	case errors.Is(err, client.ErrAccessDenied):
		c.diags.AddWarning("Interrupted Key Creates Not Recovered",
			fmt.Sprintf("The provider may not read the tags of user %q (identity:ListUserTags), where it records key creates in flight, so a key left by an interrupted create cannot be recognised and adopted. "+
				"The key is created regardless. Grant identity:ListUserTags, identity:TagUser and identity:UntagUser on the user to have interrupted creates recovered.\n\n%s", c.in.UserName, err))
		return nil, createUnrecorded
	case errors.Is(err, client.ErrNotFound):
		return nil, createUnrecorded // no user: the create says so
	case err != nil:
		c.diags.AddError(createSummary, fmt.Sprintf("Reading the keys of user %q and the records of its key creates failed, so nothing was created "+
			"(a create interrupted earlier may have left a key that a new one would put beside it). Apply again.\n\n%s", c.in.UserName, err))
		return nil, createNothing
	}
	cred, ok := c.recover(ctx, v, nil)
	if !ok || cred != nil {
		return cred, createNothing
	}
	return nil, createRecorded
}

// begin records the create on the user, as the service's clock has it;
// a create that cannot be recorded is made all the same, with a warning.
func (c *keyCreate) begin(ctx context.Context) bool {
	started := c.serviceNow().Truncate(time.Second)
	e := record{ID: tagCreating + c.nonce, Started: started, Deadline: started.Add(c.window)}
	tag := pendingTag(c.nonce, c.in.ServiceName, e.Started, e.Deadline)
	if err := c.idc.TagUser(ctx, c.in.UserName, []identityclient.Tag{tag}); err != nil {
		c.diags.AddWarning("Key Create Not Recorded",
			fmt.Sprintf("The provider could not record this key create on user %q (identity:TagUser; a user holds at most %d tags), so if it is interrupted, the key it makes cannot be recognised by a later apply. "+
				"The key is created regardless.\n\n%s", c.in.UserName, identityclient.MaxUserTags, err))
		return false
	}
	c.own = &e
	return true
}

func (c *keyCreate) call(ctx context.Context) (*identityclient.ServiceSpecificCredential, error) {
	return c.idc.CreateServiceSpecificCredential(ctx, c.in)
}

// settle turns the record into the new key's mark (heldTag): one TagUser
// on the record's own tag key replaces the record with the mark, so the
// key is held and no record of it is left in one call (see bookkeeping:
// an interrupted run does it too). When that write fails, the record is
// removed all the same, as hold does: past its deadline it would have a
// later recovery take this key, which the state holds, for the orphan of
// an interrupted create. A write that got no answer is sent once more
// first: it may have written the mark, which has the record's tag key, so
// the removal would take the mark.
func (c *keyCreate) settle(ctx context.Context, made *identityclient.ServiceSpecificCredential) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	id, own := made.ServiceSpecificCredentialID, *c.own
	mark := []identityclient.Tag{heldTag(own.ID, id, c.serviceNow())}
	terr := c.idc.TagUser(actx, c.in.UserName, mark)
	var apiErr *client.APIError
	if terr != nil && !errors.As(terr, &apiErr) {
		terr = c.idc.TagUser(actx, c.in.UserName, mark)
	}
	if terr == nil {
		return
	}
	c.holdWarning(id, own, terr, c.idc.UntagUser(actx, c.in.UserName, []string{own.ID}))
}

// refused removes the record of a create the service refused: nothing was
// created. Refused with LimitExceeded after skipping the look, the create
// looks and recovers, then is sent once more: a key another run's
// interrupted create left on the user may be what fills it.
func (c *keyCreate) refused(ctx context.Context, err error) *identityclient.ServiceSpecificCredential {
	if c.recorded() {
		untagLogged(ctx, c.idc, c.in.UserName, "Could not remove the record of a key create from its user", c.own.ID)
		c.own = nil
	}
	if c.skipped && errors.Is(err, client.ErrLimitExceeded) {
		c.skipped, c.created = false, nil
		return createWithRecord(ctx, c)
	}
	keyCreateError(c.diags, c.in, err)
	return nil
}

// lost finds the key of a recorded create whose answer was lost; an
// unrecorded one cannot be told from others.
func (c *keyCreate) lost(ctx context.Context, err error) *identityclient.ServiceSpecificCredential {
	if c.recorded() {
		return c.findLost(ctx, err)
	}
	c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and the create was not recorded, so the provider cannot tell which key it made. "+
		"List the user's keys: one not in any Terraform state, created just now, is this create's; delete it (its value was lost) or import it, then apply again.\n\n%s", c.in.UserName, err))
	return nil
}

func (c *keyCreate) interrupted(err error) {
	if !c.recorded() {
		c.diags.AddError(createSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived, and it was not recorded: if the service created the key, it is held by no configuration and its value is lost. "+
			"List the user's keys and delete the one not in any Terraform state, then apply again.\n\n%s", c.in.UserName, err))
		return
	}
	c.diags.AddError(createSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived. It is recorded on the user (tag %s): "+
		"the next apply, on this machine or any other, waits until %s for the key to land, then adopts it if the service created it, or creates one.\n\n%s",
		c.in.UserName, c.own.ID, c.own.Deadline.Add(clockMargin).Format(time.RFC3339), err))
}

// findLost waits, for as long as the service may still apply the request,
// for the key of a create whose answer was lost, and adopts it.
func (c *keyCreate) findLost(ctx context.Context, createErr error) *identityclient.ServiceSpecificCredential {
	own := c.own
	tflog.Info(ctx, "CreateServiceSpecificCredential answer lost: looking among the user's keys for the key it made, until the create can no longer land one", map[string]any{
		"user_name": c.in.UserName, "wait_up_to": own.Deadline.Add(clockMargin).Sub(c.serviceNow()).Round(time.Second).String(),
	})
	v, err := c.waitOut(ctx, own)
	if err != nil {
		c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and listing the user's keys to find the key failed. "+
			"The create stays recorded on the user (tag %s), so the next apply looks for the key again and adopts it instead of creating another, on this machine or any other.\n\n%s", c.in.UserName, own.ID, errors.Join(createErr, err)))
		return nil
	}
	cred, ok := c.recover(ctx, v, own)
	switch {
	case !ok:
		return nil
	case cred == nil:
		c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and no key from it appeared by %s, when the request could no longer take effect, so nothing was created. Apply again.\n\n%s",
			c.in.UserName, own.Deadline.Add(clockMargin).Format(time.RFC3339), createErr))
		return nil
	}
	return cred
}

// view is what the user's tags and keys said at one moment.
type view struct {
	now     time.Time // by the service's clock
	pending []record  // this service's key creates, in flight or interrupted
	claims  map[string]claim
	keys    []identityclient.ServiceSpecificCredential
}

// look reads the user's records and, when there are any to resolve, its
// keys.
func (c *keyCreate) look(ctx context.Context) (*view, error) {
	tags, err := c.idc.ListUserTags(ctx, c.in.UserName)
	if err != nil {
		return nil, err
	}
	if !tags.ServerTime.IsZero() {
		c.clock = conns.ServiceClock{At: tags.ServerTime, Local: time.Now()}
	}
	v := &view{now: c.serviceNow()}
	c.sweepStaleMarks(ctx, tags.Tags, v.now)
	v.pending, v.claims = recordsOf(tags.Tags, c.in.ServiceName)
	if len(v.pending) == 0 {
		return v, nil // nothing to match keys to
	}
	out, err := c.idc.ListServiceSpecificCredentials(ctx, c.in.UserName, c.in.ServiceName)
	if err != nil {
		return nil, err
	}
	v.keys = out.Credentials
	return v, nil
}

// sweepAt is how many tags a user carries before a key create that reads
// them removes the marks of keys that are gone (sweepStaleMarks).
const sweepAt = identityclient.MaxUserTags / 2

// sweepStaleMarks removes, once per create, the marks of deleted keys from
// the user's tags when the user carries sweepAt tags or more: a key's
// delete leaves its mark (inert: it names an id the service never gives
// again), and without this, marks would fill the user's tags and keep
// later creates from being recorded. It costs one listing of all the
// user's keys (every service and region: the identity service is global),
// made only then. A mark read before that listing names a key that
// existed when the mark was written (a mark follows the answer that names
// its key, or the key's import), so a key a complete listing lacks was
// deleted, and its id never comes back; but a listing may lag a key just
// created, so a mark settled within a create window of now (by the
// service's clock) stays, and a truncated listing removes nothing: the
// mark of a key that exists, removed, would leave the key open to being
// taken for the orphan of an interrupted create.
func (c *keyCreate) sweepStaleMarks(ctx context.Context, tags []identityclient.Tag, now time.Time) {
	if c.swept || len(tags) < sweepAt {
		return
	}
	c.swept = true
	out, err := c.idc.ListServiceSpecificCredentials(ctx, c.in.UserName, "")
	if err != nil {
		tflog.Warn(ctx, "Could not list the user's keys to remove the marks of deleted keys", map[string]any{"user_name": c.in.UserName, "error": err.Error()})
		return
	}
	if out.IsTruncated {
		tflog.Warn(ctx, "The listing of the user's keys was truncated: no mark of a deleted key is removed", map[string]any{"user_name": c.in.UserName})
		return
	}
	live := map[string]bool{}
	for _, k := range out.Credentials {
		live[claimTagKey(k.ServiceSpecificCredentialID)] = true
	}
	var stale []string
	for _, t := range tags {
		if k, settled, ok := markedKeyAt(t); ok && !live[k] && now.After(settled.Add(c.window+clockMargin)) {
			stale = append(stale, t.Key)
		}
	}
	untagLogged(ctx, c.idc, c.in.UserName, "Could not remove the marks of deleted keys from their user", stale...)
}

// serviceNow is the service's clock, as of the last look.
func (c *keyCreate) serviceNow() time.Time {
	if c.clock.Local.IsZero() {
		return time.Now()
	}
	return c.clock.Now()
}

// inFlight reports whether the key of record e may still land.
func (v *view) inFlight(e record) bool { return v.now.Before(e.Deadline.Add(clockMargin)) }

// waitOut looks at the user's records and keys until no create of another
// run may still land a key and, when own is set, until own's key is found
// or can no longer land. The wait is bounded by twice the create window.
func (c *keyCreate) waitOut(ctx context.Context, own *record) (*view, error) {
	bound := 2*c.window + recoveryPoll
	var v *view
	err := awaitRecords(ctx, bound, "A create of a key for this user may still land one: waiting for it before going on",
		map[string]any{"user_name": c.in.UserName, "service_name": c.in.ServiceName},
		func() (until, now time.Time, err error) {
			if v, err = c.look(ctx); err != nil {
				return until, now, err
			}
			return v.landingUntil(own), v.now, nil
		})
	switch {
	case errors.Is(err, errStillInFlight):
		return nil, fmt.Errorf("creates of keys for user %q by other runs were still in flight after %s", c.in.UserName, bound.Round(time.Second))
	case err != nil:
		return nil, err
	}
	return v, nil
}

// landingUntil is until when a create this one must wait for may still
// land a key: another run's create in flight, another run's recovery
// taking a key over for a live record, or own's key not seen yet. Zero
// when there is none.
func (v *view) landingUntil(own *record) time.Time {
	var until time.Time
	later := func(t time.Time) {
		if t.After(until) {
			until = t
		}
	}
	live := map[string]bool{}
	for _, e := range v.pending {
		live[e.ID] = true
		if v.inFlight(e) && (own == nil || e.ID != own.ID) {
			later(e.Deadline)
		}
	}
	for _, cl := range v.claims {
		for _, tk := range cl.takers {
			if live[tk.record] && v.now.Before(tk.deadline.Add(clockMargin)) {
				later(tk.deadline)
			}
		}
	}
	if own != nil && until.IsZero() && v.inFlight(*own) {
		if m := matchKeys(v.claims, []record{*own}, v.keys)[0]; m.key == nil && len(m.ambiguous) == 0 {
			until = own.Deadline
		}
	}
	return until
}

// hold marks the key of an adoption as held, and removes the create's
// record and claims, this run's and stale ones (see bookkeeping: an
// interrupted run does it too). Two calls, where an answered create's
// settle needs one: the claims go too. The record goes
// even when the mark cannot be set: past its deadline, a record would have
// a later recovery take this key, which the state holds, for the orphan of
// an interrupted create. An adoption's claim then stays: it keeps the key
// from being matched to any record.
func (c *keyCreate) hold(ctx context.Context, id string, own record, claims ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	mark := claimTagKey(id)
	terr := c.idc.TagUser(actx, c.in.UserName, []identityclient.Tag{{Key: mark, Value: c.nonce}})
	remove := []string{own.ID}
	if terr == nil {
		remove = append(remove, claims...)
	}
	uerr := c.idc.UntagUser(actx, c.in.UserName, remove)
	switch {
	case terr == nil && uerr == nil:
	case uerr == nil && len(claims) > 0:
		tflog.Warn(ctx, "Could not mark an adopted key as held; its claim stays on the user instead", map[string]any{"user_name": c.in.UserName, "service_specific_credential_id": id, "error": terr.Error()})
	default:
		c.holdWarning(id, own, terr, uerr)
	}
}

// holdWarning says what is left to do when hold could not mark the key of
// a create as held (terr) or remove its record (uerr).
func (c *keyCreate) holdWarning(id string, own record, terr, uerr error) {
	mark := claimTagKey(id)
	switch {
	case uerr == nil:
		c.diags.AddWarning("Key Not Claimed",
			fmt.Sprintf("Key %s of user %q was created and is in the state, and the record of its create was removed, but marking the key as held (tag %s) failed. "+
				"Until the tag is set, a later apply that recovers another create of a key for this user, interrupted around %s, could take this key for that create's key and reset or delete it: "+
				"set the tag %s = %s on the user (identity:TagUser).\n\n%s",
				id, c.in.UserName, mark, own.Started.Format(time.RFC3339), mark, c.nonce, terr))
	case terr == nil:
		c.diags.AddWarning("Key Create Record Not Cleared",
			fmt.Sprintf("Key %s of user %q is in the state and is marked as held (tag %s), so no recovery touches it. Removing the record of its create (tag %s) failed: "+
				"until it is removed, the next create of a key for this user may wait for it (until %s), then removes it.\n\n%s",
				id, c.in.UserName, mark, own.ID, own.Deadline.Add(clockMargin).Format(time.RFC3339), uerr))
	default:
		c.diags.AddWarning("Key Not Claimed",
			fmt.Sprintf("Key %s of user %q is in the state, but neither marking it as held (tag %s) nor removing the record of its create (tag %s) succeeded. "+
				"Until one of the two is done, a later apply that creates a key for this user after %s takes this key for the orphan of an interrupted create and resets or deletes it: "+
				"set the tag %s = %s or remove the tag %s on the user (identity:TagUser, identity:UntagUser).\n\n%s",
				id, c.in.UserName, mark, own.ID, own.Deadline.Add(clockMargin).Format(time.RFC3339), mark, c.nonce, own.ID, errors.Join(terr, uerr)))
	}
}

// keyCreateError explains a CreateServiceSpecificCredential the service
// refused.
func keyCreateError(diags *diag.Diagnostics, in identityclient.CreateServiceSpecificCredentialInput, err error) {
	const summary = createSummary
	switch {
	case errors.Is(err, client.ErrAccessDenied):
		age := "no credential_age_days (a key that never expires)"
		if in.CredentialAgeDays > 0 {
			age = fmt.Sprintf("credential_age_days = %d", in.CredentialAgeDays)
		}
		diags.AddAttributeError(path.Root("credential_age_days"), summary,
			fmt.Sprintf("A policy of the principal Terraform runs as refuses a key for user %q with %s for %s. "+
				"Ask for a key the policy allows (for example a shorter credential_age_days), or have an administrator change the policy.\n\n%s", in.UserName, age, in.ServiceName, err))
	case errors.Is(err, client.ErrLimitExceeded):
		diags.AddAttributeError(path.Root("user_name"), summary,
			fmt.Sprintf("User %q already holds the most keys the service allows for %s (2 per user per service). "+
				"Delete a key the user no longer needs, or bring it under Terraform with terraform import, before creating another. "+
				"A key left by a create that was interrupted without being recorded on the user (see the resource's documentation on permissions) counts too.\n\n%s", in.UserName, in.ServiceName, err))
	case errors.Is(err, client.ErrNotFound):
		diags.AddAttributeError(path.Root("user_name"), summary,
			fmt.Sprintf("User %q does not exist. Create it first (for example reference cloud_identity_user.<name>.user_name so Terraform orders the two).\n\n%s", in.UserName, err))
	case errors.Is(err, client.ErrInvalidInput):
		diags.AddAttributeError(path.Root("service_name"), summary,
			fmt.Sprintf("The service refused the request; its message names the field at fault.\n\n%s", err))
	default:
		diags.AddError(summary, fmt.Sprintf("Creating a key for user %q failed: %s", in.UserName, err))
	}
}
