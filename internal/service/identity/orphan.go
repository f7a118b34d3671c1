package identity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// A key create whose answer never arrives (lost, timed out, or Terraform or
// the provider killed or interrupted while it was in flight) may still have
// made a key: its value was only in the answer, and the identity service
// has no idempotency token and keys have no tags. So each create is
// recorded on its user before it is sent (create_record.go), and the next
// create for that user and service, on any machine, waits while a recorded
// create may still land, finds the key of an interrupted one by time among
// the user's unclaimed keys, and adopts it: a reset gives it a value the
// state can hold. A claimed key is never touched, and when the keys in a
// record's window are more than the records account for, nothing is.

const (
	// clockMargin widens the windows that tell a create's key from others:
	// CreateDate, the Date header and the records have second resolution,
	// and a request takes a moment on the way.
	clockMargin = 2 * time.Second
	// recoveryPoll is how often a create looks again while another create
	// of the same user's keys may still land one.
	recoveryPoll = time.Second
	// bookkeepingTimeout bounds the tag changes that follow an answer in
	// hand (see bookkeeping).
	bookkeepingTimeout = 10 * time.Second
)

// bookkeeping is the context of the tag changes that follow an answer in
// hand or end a claim (marking a key held, removing a record or a claim):
// it is not cancelled with ctx, since Ctrl-C or a cancelled CI job right
// after the answer arrived would otherwise leave a record that has a later
// run take what the state holds for an orphan; bookkeepingTimeout bounds
// it instead.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
}

// wantKey is what the plan asks of a key, for deciding whether an orphan
// can be adopted instead of creating one.
type wantKey struct {
	ageDays     int64 // 0: a key that never expires
	renewBefore int64 // 0: unset
	status      string
}

// match is what the user's keys say about one record.
type match struct {
	entry record
	key   *identityclient.ServiceSpecificCredential // nil: none found (yet)
	// ambiguous lists the keys in the record's window when more keys are
	// there than the records can account for: some belong to someone
	// else, and which ones cannot be told.
	ambiguous []string
}

// matchKeys finds the key of each of the records among keys. claims holds
// the claim tags: a claimed key is spoken for. A record naming a key
// matches that key. A pending record matches an unclaimed key created
// within its window (Started to Deadline, widened by clockMargin); records
// take the earliest key left in their window, in the order they started.
// When keys are left over in some record's window, those records match
// nothing and report the window's keys as ambiguous.
func matchKeys(claims map[string]claim, entries []record, keys []identityclient.ServiceSpecificCredential) []match {
	byID := map[string]*identityclient.ServiceSpecificCredential{}
	var free []*identityclient.ServiceSpecificCredential
	for i := range keys {
		k := &keys[i]
		byID[k.ServiceSpecificCredentialID] = k
		if _, held := claims[claimTagKey(k.ServiceSpecificCredentialID)]; !held {
			free = append(free, k)
		}
	}
	sort.SliceStable(free, func(i, j int) bool { return free[i].CreateDate.Before(free[j].CreateDate) })

	out := make([]match, len(entries))
	order := make([]int, 0, len(entries))
	for i, e := range entries {
		out[i].entry = e
		if e.KeyID != "" {
			out[i].key = byID[e.KeyID]
		} else {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return entries[order[a]].Started.Before(entries[order[b]].Started) })
	taken := map[string]bool{}
	for _, i := range order {
		for _, k := range free {
			if !taken[k.ServiceSpecificCredentialID] && inCreateWindow(entries[i], k.CreateDate) {
				out[i].key = k
				taken[k.ServiceSpecificCredentialID] = true
				break
			}
		}
	}
	for _, i := range order {
		var window []string
		leftover := false
		for _, k := range free {
			if inCreateWindow(entries[i], k.CreateDate) {
				window = append(window, k.ServiceSpecificCredentialID)
				leftover = leftover || !taken[k.ServiceSpecificCredentialID]
			}
		}
		if leftover {
			out[i].key, out[i].ambiguous = nil, window
		}
	}
	return out
}

// inCreateWindow reports whether what the service created at created may
// be the work of record e's create: from e.Started to e.Deadline (both by
// the service's clock), widened by clockMargin.
func inCreateWindow(e record, created time.Time) bool {
	return !created.Before(e.Started.Add(-clockMargin)) && !created.After(e.Deadline.Add(clockMargin))
}

// fits reports whether key can stand for the planned one: same lifetime,
// and not so close to its expiry that the next plan would renew it.
func fits(key *identityclient.ServiceSpecificCredential, want wantKey, serverNow time.Time) bool {
	if key.ExpirationDate.IsZero() {
		return want.ageDays == 0
	}
	days := int64(math.Round(key.ExpirationDate.Sub(key.CreateDate).Hours() / 24))
	if days != want.ageDays {
		return false
	}
	left := time.Duration(want.renewBefore)*24*time.Hour + time.Minute
	return key.ExpirationDate.After(serverNow.Add(left))
}

// keyCreate is one create of a key resource.
type keyCreate struct {
	r     *serviceSpecificCredentialResource
	in    identityclient.CreateServiceSpecificCredentialInput
	want  wantKey
	diags *diag.Diagnostics
	// nonce names this create in the records it writes.
	nonce string
	// offset is how far the service's clock was ahead of ours at the last
	// look.
	offset time.Duration
}

const createSummary = "Unable to Create Identity Service Specific Credential"

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
	tags, err := c.r.clients.Identity.ListUserTags(ctx, c.in.UserName)
	if err != nil {
		return nil, err
	}
	at := time.Now()
	if !tags.ServerTime.IsZero() {
		c.offset = tags.ServerTime.Sub(at)
	}
	v := &view{now: at.Add(c.offset)}
	v.pending, v.claims = recordsOf(tags.Tags, c.in.ServiceName)
	if len(v.pending) == 0 {
		return v, nil // nothing to match keys to
	}
	out, err := c.r.clients.Identity.ListServiceSpecificCredentials(ctx, c.in.UserName, c.in.ServiceName)
	if err != nil {
		return nil, err
	}
	v.keys = out.Credentials
	return v, nil
}

// serviceNow is the service's clock as of the last look.
func (c *keyCreate) serviceNow() time.Time { return time.Now().Add(c.offset) }

// inFlight reports whether the key of record e may still land.
func (v *view) inFlight(e record) bool { return v.now.Before(e.Deadline.Add(clockMargin)) }

// run returns the key for the resource, with its value: the key of an
// interrupted create adopted, or a new key. It adds diagnostics and returns
// nil when there is none.
func (c *keyCreate) run(ctx context.Context) *identityclient.ServiceSpecificCredential {
	c.nonce = newNonce()
	v, err := c.settle(ctx, nil)
	switch {
	case errors.Is(err, client.ErrAccessDenied):
		c.diags.AddWarning("Interrupted Key Creates Not Recovered",
			fmt.Sprintf("The provider may not read the tags of user %q (identity:ListUserTags), where it records key creates in flight, so a key left by an interrupted create cannot be recognised and adopted. "+
				"The key is created regardless. Grant identity:ListUserTags, identity:TagUser and identity:UntagUser on the user to have interrupted creates recovered.\n\n%s", c.in.UserName, err))
		return c.create(ctx, false)
	case errors.Is(err, client.ErrNotFound):
		return c.create(ctx, false) // no user: the create says so
	case err != nil:
		c.diags.AddError(createSummary, fmt.Sprintf("Reading the keys of user %q and the records of its key creates failed, so nothing was created "+
			"(a create interrupted earlier may have left a key that a new one would put beside it). Apply again.\n\n%s", c.in.UserName, err))
		return nil
	}
	cred, ok := c.recover(ctx, v, nil)
	if !ok || cred != nil {
		return cred
	}
	return c.create(ctx, true)
}

// settle looks at the user's records and keys until no create of another
// run may still land a key and, when own is set, until own's key is found
// or can no longer land. The wait is bounded by twice the create window
// and logged at INFO.
func (c *keyCreate) settle(ctx context.Context, own *record) (*view, error) {
	bound := 2*createWindow(c.r.clients) + recoveryPoll
	limit := time.Now().Add(bound)
	logged := false
	for {
		v, err := c.look(ctx)
		if err != nil {
			return nil, err
		}
		var until time.Time
		live := map[string]bool{}
		for _, e := range v.pending {
			live[e.ID] = true
			if own != nil && e.ID == own.ID {
				continue
			}
			if v.inFlight(e) && e.Deadline.After(until) {
				until = e.Deadline
			}
		}
		// A recovery of another run taking a key over.
		for _, cl := range v.claims {
			for _, tk := range cl.takers {
				if live[tk.record] && v.now.Before(tk.deadline.Add(clockMargin)) && tk.deadline.After(until) {
					until = tk.deadline
				}
			}
		}
		if own != nil && until.IsZero() && v.inFlight(*own) {
			if m := matchKeys(v.claims, []record{*own}, v.keys)[0]; m.key == nil && len(m.ambiguous) == 0 {
				until = own.Deadline
			}
		}
		if until.IsZero() {
			return v, nil
		}
		if time.Now().After(limit) {
			return nil, fmt.Errorf("creates of keys for user %q by other runs were still in flight after %s", c.in.UserName, bound.Round(time.Second))
		}
		if !logged {
			logged = true
			tflog.Info(ctx, "A create of a key for this user may still land one: waiting for it before going on", map[string]any{
				"user_name": c.in.UserName, "service_name": c.in.ServiceName, "wait_up_to": until.Add(clockMargin).Sub(v.now).Round(time.Second).String(),
			})
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(recoveryPoll):
		}
	}
}

// recover deals with the records whose creates are over: it adopts a key
// one of them made that fits the plan (own's first), deletes the others'
// keys, which no configuration holds and whose values are lost, and clears
// the records. When the user's keys in some record's window are more than
// the records account for, it changes nothing and says which keys to
// import or delete. ok is false when it failed (diagnostics say why).
func (c *keyCreate) recover(ctx context.Context, v *view, own *record) (adopted *identityclient.ServiceSpecificCredential, ok bool) {
	var over []record
	for _, e := range v.pending {
		if !v.inFlight(e) || (own != nil && e.ID == own.ID) {
			// A recovery that took a key over for e and was interrupted:
			// resume it with that key.
			for _, cl := range v.claims {
				for _, tk := range cl.takers {
					if tk.record == e.ID {
						e.KeyID = tk.keyID
					}
				}
			}
			over = append(over, e)
		}
	}
	if len(over) == 0 {
		return nil, true
	}
	matches := matchKeys(v.claims, over, v.keys)
	for _, m := range matches {
		if len(m.ambiguous) > 0 {
			c.diags.AddError(createSummary, fmt.Sprintf("A create of a key for user %q started at %s was interrupted, and the user's unclaimed keys created around then (%s) are more than the interrupted creates can account for: "+
				"another client made keys for this user at the same time, and the provider cannot tell which key the interrupted create made, so it changed nothing. "+
				"Delete the key no configuration should keep (its value was lost), or bring it under Terraform with terraform import <address> %s/<credential id>; "+
				"then remove the tag %s from the user and apply again.",
				c.in.UserName, m.entry.Started.Format(time.RFC3339), strings.Join(m.ambiguous, ", "), c.in.UserName, m.entry.ID))
			return nil, false
		}
	}
	pick := -1
	for i, m := range matches {
		if m.key != nil && fits(m.key, c.want, v.now) && (pick < 0 || (own != nil && m.entry.ID == own.ID)) {
			pick = i
		}
	}
	var done []string // tags to remove when the recovery is over
	defer func() { c.untag(ctx, done...) }()
	pickClaim := ""
	var pickStale []string
	for i, m := range matches {
		if m.key == nil {
			done = append(done, m.entry.ID)                                     // nothing landed, and nothing can now
			done = append(done, takerTags(v.claims, m.entry, m.entry.KeyID)...) // the key taken over is gone
			continue
		}
		id := m.key.ServiceSpecificCredentialID
		if v.claims[claimTagKey(id)].nonce != "" {
			// A takeover that marked the key held, but did not remove its
			// record: the key is a configuration's now.
			done = append(done, m.entry.ID)
			done = append(done, takerTags(v.claims, m.entry, id)...)
			continue
		}
		mine := c.claim(ctx, m.entry, id)
		if mine == "" {
			continue // another run takes it over: its business now
		}
		// The claims of earlier runs that took it over and were interrupted.
		stale := takerTags(v.claims, m.entry, id)
		if i == pick {
			pickClaim, pickStale = mine, stale
			continue
		}
		tflog.Warn(ctx, "Deleting a key an interrupted create left behind, which the plan cannot use", map[string]any{
			"user_name": c.in.UserName, "service_specific_credential_id": id,
		})
		err := c.r.clients.Identity.DeleteServiceSpecificCredential(ctx, c.in.UserName, id)
		if err != nil && !errors.Is(err, client.ErrNotFound) {
			done = append(done, mine) // the record stays: the next create tries again
			c.diags.AddError(createSummary, fmt.Sprintf("Key %s of user %q was left behind by a create interrupted at %s and does not fit the planned key, and deleting it failed, so nothing was created. Apply again.\n\n%s",
				id, c.in.UserName, m.entry.Started.Format(time.RFC3339), err))
			return nil, false
		}
		done = append(done, m.entry.ID, mine)
		done = append(done, stale...)
		c.diags.AddWarning("Orphaned Identity Service Specific Credential Deleted",
			fmt.Sprintf("Key %s of user %q was made by a create interrupted at %s: no configuration holds it and its value was lost. It does not fit the planned key, so the provider deleted it.",
				id, c.in.UserName, m.entry.Started.Format(time.RFC3339)))
	}
	if pickClaim == "" {
		return nil, true
	}
	m := matches[pick]
	id := m.key.ServiceSpecificCredentialID
	tflog.Warn(ctx, "Adopting the key an interrupted create left behind, instead of creating another", map[string]any{
		"user_name": c.in.UserName, "service_specific_credential_id": id, "interrupted_at": m.entry.Started.Format(time.RFC3339),
	})
	why := fmt.Sprintf("Key %s of user %q was made by a create started at %s whose answer never arrived (its value was lost).",
		id, c.in.UserName, m.entry.Started.Format(time.RFC3339))
	cred, err := c.r.clients.Identity.ResetServiceSpecificCredential(ctx, c.in.UserName, id)
	if err != nil {
		// Release the claim and keep the record, so that the next apply
		// adopts the key again.
		done = append(done, pickClaim)
		c.diags.AddError(createSummary, fmt.Sprintf("%s The provider adopts it rather than create a second key, but resetting it to obtain a value failed. "+
			"Nothing else was created; the next apply adopts the same key.\n\n%s", why, err))
		return nil, false
	}
	c.hold(ctx, id, m.entry, append([]string{pickClaim}, pickStale...)...)
	c.diags.AddWarning("Identity Service Specific Credential Adopted",
		fmt.Sprintf("%s No configuration held it, so the provider adopted it instead of creating a second key, and reset it to obtain a value: service_api_key_value holds that value.", why))
	return cred, true
}

// takerTags are the tags of the claims that take key id over for record e.
func takerTags(claims map[string]claim, e record, id string) []string {
	if id == "" {
		return nil
	}
	var out []string
	for _, tk := range claims[claimTagKey(id)].takers {
		if tk.record == e.ID {
			out = append(out, tk.tag)
		}
	}
	return out
}

// claim takes key id over for record e, against other runs recovering
// the same record or key at the same time (see contend). It returns the
// tag of this run's claim, or "" when another run holds the key or takes
// it or the record over, the record is gone, or the claim cannot be
// written (then nothing may touch the key).
func (c *keyCreate) claim(ctx context.Context, e record, id string) string {
	mine := ""
	won, err := contend(ctx, c.r.clients.Identity, c.in.UserName, c.nonce,
		func(now time.Time) identityclient.Tag {
			t := takerTag(c.nonce, e, id, now.Add(contendSettle+createWindow(c.r.clients)))
			mine = t.Key
			return t
		},
		func(tags *identityclient.UserTags) (others []string, open bool) {
			pending, claims := recordsOf(tags.Tags, c.in.ServiceName)
			open = claims[claimTagKey(id)].nonce == "" && slices.ContainsFunc(pending, func(p record) bool { return p.ID == e.ID })
			now := serverNow(tags)
			for _, cl := range claims {
				for _, tk := range cl.takers {
					if tk.nonce != c.nonce && (tk.record == e.ID || tk.keyID == id) && now.Before(tk.deadline.Add(clockMargin)) {
						others = append(others, tk.nonce)
					}
				}
			}
			return others, open
		})
	if err != nil {
		tflog.Warn(ctx, "Could not claim a key left by an interrupted create; leaving it alone", map[string]any{"user_name": c.in.UserName, "service_specific_credential_id": id, "error": err.Error()})
	}
	if !won {
		return ""
	}
	return mine
}

// untag removes tags of this create's records, logging a failure: a record
// left behind only makes a later create wait for it and look at the keys
// of its window. It runs even when the run is being interrupted (see
// bookkeeping).
func (c *keyCreate) untag(ctx context.Context, keys ...string) {
	if len(keys) == 0 {
		return
	}
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := c.r.clients.Identity.UntagUser(actx, c.in.UserName, keys); err != nil {
		tflog.Warn(ctx, "Could not remove the record of a key create from its user", map[string]any{"user_name": c.in.UserName, "tags": strings.Join(keys, ","), "error": err.Error()})
	}
}

// hold marks the key of an answered create, or of an adoption (then
// claims are its claims), as held, and removes the create's record and the
// claims (see bookkeeping: an interrupted run does it too). The record goes
// even when the mark cannot be set: past its deadline, a record would have
// a later recovery take this key, which the state holds, for the orphan of
// an interrupted create. An adoption's claim then stays: it keeps the key
// from being matched to any record.
func (c *keyCreate) hold(ctx context.Context, id string, own record, claims ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	mark := claimTagKey(id)
	terr := c.r.clients.Identity.TagUser(actx, c.in.UserName, []identityclient.Tag{{Key: mark, Value: c.nonce}})
	remove := []string{own.ID}
	if terr == nil {
		remove = append(remove, claims...)
	}
	uerr := c.r.clients.Identity.UntagUser(actx, c.in.UserName, remove)
	switch {
	case terr == nil && uerr == nil:
	case uerr == nil && len(claims) > 0:
		tflog.Warn(ctx, "Could not mark an adopted key as held; its claim stays on the user instead", map[string]any{"user_name": c.in.UserName, "service_specific_credential_id": id, "error": terr.Error()})
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

// create sends CreateServiceSpecificCredential, recorded on the user first
// when record is set, and when the answer is lost, finds the key it made.
func (c *keyCreate) create(ctx context.Context, recorded bool) *identityclient.ServiceSpecificCredential {
	var own *record
	if recorded {
		started := c.serviceNow().Truncate(time.Second)
		e := record{ID: tagCreating + c.nonce, Started: started, Deadline: started.Add(createWindow(c.r.clients))}
		tag := pendingTag(c.nonce, c.in.ServiceName, e.Started, e.Deadline)
		if err := c.r.clients.Identity.TagUser(ctx, c.in.UserName, []identityclient.Tag{tag}); err != nil {
			c.diags.AddWarning("Key Create Not Recorded",
				fmt.Sprintf("The provider could not record this key create on user %q (identity:TagUser; a user holds at most %d tags), so if it is interrupted, the key it makes cannot be recognised by a later apply. "+
					"The key is created regardless.\n\n%s", c.in.UserName, identityclient.MaxUserTags, err))
		} else {
			own = &e
		}
	}
	cred, err := c.r.clients.Identity.CreateServiceSpecificCredential(ctx, c.in)
	var apiErr *client.APIError
	switch {
	case err == nil:
		if own != nil {
			c.hold(ctx, cred.ServiceSpecificCredentialID, *own)
		}
		return cred
	case errors.As(err, &apiErr):
		// The service answered: nothing was created.
		if own != nil {
			c.untag(ctx, own.ID)
		}
		c.r.createError(c.diags, c.in, err)
		return nil
	case errors.Is(err, client.ErrOutcomeUnknown) && own != nil:
		return c.findLost(ctx, own, err)
	case errors.Is(err, client.ErrOutcomeUnknown):
		c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and the create was not recorded, so the provider cannot tell which key it made. "+
			"List the user's keys: one not in any Terraform state, created just now, is this create's; delete it (its value was lost) or import it, then apply again.\n\n%s", c.in.UserName, err))
		return nil
	}
	// Cut short (the run was interrupted) with the request perhaps on its
	// way: the record stays on the user.
	if own == nil {
		c.diags.AddError(createSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived, and it was not recorded: if the service created the key, it is held by no configuration and its value is lost. "+
			"List the user's keys and delete the one not in any Terraform state, then apply again.\n\n%s", c.in.UserName, err))
		return nil
	}
	c.diags.AddError(createSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived. It is recorded on the user (tag %s): "+
		"the next apply, on this machine or any other, waits until %s for the key to land, then adopts it if the service created it, or creates one.\n\n%s",
		c.in.UserName, own.ID, own.Deadline.Add(clockMargin).Format(time.RFC3339), err))
	return nil
}

// findLost waits, for as long as the service may still apply the request,
// for the key of a create whose answer was lost, and adopts it.
func (c *keyCreate) findLost(ctx context.Context, own *record, createErr error) *identityclient.ServiceSpecificCredential {
	tflog.Info(ctx, "CreateServiceSpecificCredential answer lost: looking among the user's keys for the key it made, until the create can no longer land one", map[string]any{
		"user_name": c.in.UserName, "wait_up_to": own.Deadline.Add(clockMargin).Sub(c.serviceNow()).Round(time.Second).String(),
	})
	v, err := c.settle(ctx, own)
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
