package identity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/keyjournal"
)

// A key create whose answer never arrives (lost, timed out, or the provider
// killed while it was in flight) may still have made a key: its value was
// only in the answer, and the identity service has no idempotency token
// and keys have no tags. The provider therefore writes a journal entry
// before each create (package keyjournal) and, when the answer is missing,
// finds the key by time among the user's keys, then adopts it: a reset
// gives it a value the state can hold. Nothing else is ever adopted: a key
// some journal entry claims, or one created outside the entry's window.

const (
	// clockMargin widens the windows that tell a create's key from others:
	// CreateDate and the service's Date header have second resolution, and
	// a request takes a moment on the way.
	clockMargin = 2 * time.Second
	// recoveryPoll is how often recovery looks again for a key that an
	// interrupted create of an earlier run may still land.
	recoveryPoll = time.Second
)

// wantKey is what the plan asks of a key, for deciding whether an orphan
// can be adopted instead of creating one.
type wantKey struct {
	ageDays     int64 // 0: a key that never expires
	renewBefore int64 // 0: unset
	status      string
}

// match is what the user's keys say about one unresolved journal entry.
type match struct {
	entry keyjournal.Entry
	key   *identityclient.ServiceSpecificCredential // nil: none found (yet)
	// ambiguous lists the keys in the entry's window when more keys are
	// there than the entries can account for: some belong to someone
	// else, and which ones cannot be told.
	ambiguous []string
}

// matchKeys finds the key of each of the entries among keys, listed when
// the service's clock was offset ahead of ours. all is every entry of the
// scope: a key an entry names is spoken for. An entry naming a key matches
// that key. A pending entry matches an unclaimed key created within its
// window (Started to Deadline, in the service's clock, widened by
// clockMargin); entries take the earliest key left in their window, in the
// order they started. When keys are left over in some entry's window,
// those entries match nothing and report the window's keys as ambiguous.
func matchKeys(all, entries []keyjournal.Entry, keys []identityclient.ServiceSpecificCredential, offset time.Duration) []match {
	claimed := map[string]bool{}
	for _, e := range all {
		if e.KeyID != "" {
			claimed[e.KeyID] = true
		}
	}
	byID := map[string]*identityclient.ServiceSpecificCredential{}
	var free []*identityclient.ServiceSpecificCredential
	for i := range keys {
		k := &keys[i]
		byID[k.ServiceSpecificCredentialID] = k
		if !claimed[k.ServiceSpecificCredentialID] {
			free = append(free, k)
		}
	}
	sort.SliceStable(free, func(i, j int) bool { return free[i].CreateDate.Before(free[j].CreateDate) })

	out := make([]match, len(entries))
	order := make([]int, 0, len(entries))
	for i, e := range entries {
		out[i].entry = e
		switch {
		case e.KeyID != "":
			out[i].key = byID[e.KeyID]
		case e.State == keyjournal.Pending:
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return entries[order[a]].Started.Before(entries[order[b]].Started) })
	taken := map[string]bool{}
	for _, i := range order {
		for _, k := range free {
			if !taken[k.ServiceSpecificCredentialID] && inCreateWindow(entries[i], k.CreateDate, offset) {
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
			if inCreateWindow(entries[i], k.CreateDate, offset) {
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

// clockOffsetOf is how far the service's clock was ahead of ours when it
// answered a list (0 when the answer had no Date).
func clockOffsetOf(out *identityclient.ListServiceSpecificCredentialsOutput, at time.Time) time.Duration {
	if out == nil || out.ServerTime.IsZero() {
		return 0
	}
	return out.ServerTime.Sub(at)
}

// keyCreate is one create of a key resource, under its scope's lock.
type keyCreate struct {
	r     *serviceSpecificCredentialResource
	j     *keyjournal.Journal
	scope keyjournal.Scope
	in    identityclient.CreateServiceSpecificCredentialInput
	want  wantKey
	diags *diag.Diagnostics
}

const createSummary = "Unable to Create Identity Service Specific Credential"

// run returns the key for the resource, with its value: an orphan of an
// earlier run adopted, or a new key. It adds diagnostics and returns nil
// when there is none.
func (c *keyCreate) run(ctx context.Context) *identityclient.ServiceSpecificCredential {
	cred, ok := c.recoverOrphans(ctx)
	if !ok || cred != nil {
		return cred
	}
	return c.create(ctx)
}

func (c *keyCreate) warnJournal(ctx context.Context, err error) {
	warnJournal(ctx, c.j, "a key", err)
}

func (c *keyCreate) list(ctx context.Context) (*identityclient.ListServiceSpecificCredentialsOutput, time.Duration, error) {
	out, err := c.r.clients.Identity.ListServiceSpecificCredentials(ctx, c.in.UserName, c.in.ServiceName)
	return out, clockOffsetOf(out, time.Now()), err
}

// recoverOrphans deals with the unresolved entries of earlier provider
// instances before anything is created: it finds their keys, waiting while
// one may still land, adopts one that fits the plan and deletes the rest.
// ok is false when it failed (diagnostics say why).
func (c *keyCreate) recoverOrphans(ctx context.Context) (adopted *identityclient.ServiceSpecificCredential, ok bool) {
	all, err := c.j.Entries(c.scope)
	c.warnJournal(ctx, err)
	var stale []keyjournal.Entry
	for _, e := range all {
		if c.j.Stale(e) {
			stale = append(stale, e)
		}
	}
	if len(stale) == 0 {
		return nil, true
	}
	tflog.Info(ctx, "Earlier key creates of this user were interrupted: looking for the keys they may have made before creating one", map[string]any{
		"user_name": c.in.UserName, "service_name": c.in.ServiceName, "entries": len(stale),
	})
	var (
		matches   []match
		serverNow time.Time
		userGone  bool
	)
	var last time.Time
	for _, e := range stale {
		if e.State == keyjournal.Pending && e.Deadline.After(last) {
			last = e.Deadline
		}
	}
	// Wait while a create may still land, and look once after that.
	wait := time.Until(last)
	if wait > 0 {
		wait += recoveryPoll
		tflog.Info(ctx, "An interrupted create may still land a key: waiting for it before creating one", map[string]any{
			"user_name": c.in.UserName, "wait_up_to": wait.Round(time.Second).String(),
		})
	}
	_, err = untilSeen(ctx, max(wait, 0), recoveryPoll, func() (bool, error) {
		out, offset, err := c.list(ctx)
		if errors.Is(err, client.ErrNotFound) {
			userGone = true // and its keys with it
			return true, nil
		}
		if err != nil {
			return false, err
		}
		serverNow = time.Now().Add(offset)
		matches = matchKeys(all, stale, out.Credentials, offset)
		for _, m := range matches {
			if m.key == nil && len(m.ambiguous) == 0 && m.entry.State == keyjournal.Pending && time.Now().Before(m.entry.Deadline) {
				return false, nil // that create may still land
			}
		}
		return true, nil
	})
	if err != nil {
		c.diags.AddError(createSummary, fmt.Sprintf("An earlier create of a key for user %q was interrupted, and listing the user's keys to find what it left failed, so nothing was created "+
			"(a second key could exceed the limit or leave one behind). Apply again.\n\n%s", c.in.UserName, err))
		return nil, false
	}
	if userGone {
		c.warnJournal(ctx, c.j.Drop(c.scope, entryIDs(stale)...))
		return nil, true
	}
	for _, m := range matches {
		if len(m.ambiguous) > 0 {
			c.diags.AddError(createSummary, fmt.Sprintf("An earlier create of a key for user %q was interrupted at %s, and the user's keys created around then (%s) are more than the interrupted creates can account for: "+
				"another client made keys for this user at the same time, and the provider cannot tell which key is its own, so it changed nothing. "+
				"Delete the key Terraform should not keep (it cannot be used: its value was lost), or bring it under Terraform with terraform import <address> %s/<credential id>, then apply again.",
				c.in.UserName, m.entry.Started.Format(time.RFC3339), strings.Join(m.ambiguous, ", "), c.in.UserName))
			return nil, false
		}
	}

	pick := -1
	for i, m := range matches {
		if m.key != nil && fits(m.key, c.want, serverNow) {
			pick = i
			break
		}
	}
	var done []string
	for i, m := range matches {
		switch {
		case i == pick:
			continue
		case m.key == nil:
			done = append(done, m.entry.ID) // nothing landed, and nothing can now
			continue
		}
		tflog.Warn(ctx, "Deleting a key an interrupted create left behind, which the plan cannot use", map[string]any{
			"user_name": c.in.UserName, "service_specific_credential_id": m.key.ServiceSpecificCredentialID,
		})
		err := c.r.clients.Identity.DeleteServiceSpecificCredential(ctx, c.in.UserName, m.key.ServiceSpecificCredentialID)
		if err != nil && !errors.Is(err, client.ErrNotFound) {
			c.warnJournal(ctx, c.j.Drop(c.scope, done...))
			c.diags.AddError(createSummary, fmt.Sprintf("Key %s of user %q was left behind by an interrupted create and does not fit the planned key, and deleting it failed, so nothing was created. Apply again.\n\n%s",
				m.key.ServiceSpecificCredentialID, c.in.UserName, err))
			return nil, false
		}
		done = append(done, m.entry.ID)
		c.diags.AddWarning("Orphaned Identity Service Specific Credential Deleted",
			fmt.Sprintf("Key %s of user %q was left behind by a create interrupted at %s (its value was lost), and it does not fit the planned key, so the provider deleted it.",
				m.key.ServiceSpecificCredentialID, c.in.UserName, m.entry.Started.Format(time.RFC3339)))
	}
	c.warnJournal(ctx, c.j.Drop(c.scope, done...))
	if pick < 0 {
		return nil, true
	}
	m := matches[pick]
	tflog.Warn(ctx, "Adopting the key an interrupted create left behind, instead of creating another", map[string]any{
		"user_name": c.in.UserName, "service_specific_credential_id": m.key.ServiceSpecificCredentialID, "interrupted_at": m.entry.Started.Format(time.RFC3339),
	})
	cred := c.adopt(ctx, m.entry, m.key, fmt.Sprintf("Key %s of user %q was left behind by a create interrupted at %s (its value was lost).",
		m.key.ServiceSpecificCredentialID, c.in.UserName, m.entry.Started.Format(time.RFC3339)))
	return cred, cred != nil
}

func entryIDs(es []keyjournal.Entry) []string {
	ids := make([]string, 0, len(es))
	for _, e := range es {
		ids = append(ids, e.ID)
	}
	return ids
}

// adopt takes key over for this create and resets it, which gives it a
// value. The entry names the key first, so that if this run dies too, the
// next one adopts the same key by its id.
func (c *keyCreate) adopt(ctx context.Context, e keyjournal.Entry, key *identityclient.ServiceSpecificCredential, why string) *identityclient.ServiceSpecificCredential {
	c.warnJournal(ctx, c.j.Set(c.scope, e.ID, keyjournal.Created, key.ServiceSpecificCredentialID, time.Now()))
	cred, err := c.r.clients.Identity.ResetServiceSpecificCredential(ctx, c.in.UserName, key.ServiceSpecificCredentialID)
	if err != nil {
		c.diags.AddError(createSummary, fmt.Sprintf("%s The provider adopts it rather than create a second key, but resetting it to obtain a value failed. "+
			"Nothing else was created; the next apply adopts the same key.\n\n%s", why, err))
		return nil
	}
	c.diags.AddWarning("Identity Service Specific Credential Adopted",
		fmt.Sprintf("%s The provider adopted it instead of creating a second key, and reset it to obtain a value: service_api_key_value holds that value.", why))
	return cred
}

// create sends CreateServiceSpecificCredential with a pending journal entry
// and, when the answer is lost, finds the key it made.
func (c *keyCreate) create(ctx context.Context) *identityclient.ServiceSpecificCredential {
	entry, err := c.j.Begin(c.scope, time.Now().Add(createWindow(c.r.clients)))
	c.warnJournal(ctx, err)
	cred, err := c.r.clients.Identity.CreateServiceSpecificCredential(ctx, c.in)
	var apiErr *client.APIError
	switch {
	case err == nil:
		c.warnJournal(ctx, c.j.Set(c.scope, entry.ID, keyjournal.Created, cred.ServiceSpecificCredentialID, entry.Deadline))
		return cred
	case errors.As(err, &apiErr):
		// The service answered: nothing was created.
		c.warnJournal(ctx, c.j.Drop(c.scope, entry.ID))
		c.r.createError(c.diags, c.in, err)
		return nil
	case errors.Is(err, client.ErrOutcomeUnknown):
		return c.findLost(ctx, entry, err)
	}
	// Cut short (the run was interrupted) with the request perhaps on its
	// way: the entry stays, and the next run's recovery finds the key.
	c.diags.AddError(createSummary, fmt.Sprintf("The create of a key for user %q was interrupted before its answer arrived. If the service created the key, the next apply adopts it instead of creating another.\n\n%s", c.in.UserName, err))
	return nil
}

// findLost looks for the key of a create whose answer was lost, for as
// long as the service may still apply the request, and adopts it.
func (c *keyCreate) findLost(ctx context.Context, entry keyjournal.Entry, createErr error) *identityclient.ServiceSpecificCredential {
	tflog.Warn(ctx, "CreateServiceSpecificCredential answer lost, listing the user's keys to find the key it made", map[string]any{"user_name": c.in.UserName})
	var m match
	window := lateWindow(c.r.clients)
	found, err := untilSeen(ctx, window, lostAnswerPoll, func() (bool, error) {
		all, jerr := c.j.Entries(c.scope)
		c.warnJournal(ctx, jerr)
		out, offset, err := c.list(ctx)
		if err != nil {
			return false, err
		}
		self := entry
		self.Deadline = time.Now()
		m = matchKeys(all, []keyjournal.Entry{self}, out.Credentials, offset)[0]
		return m.key != nil || len(m.ambiguous) > 0, nil
	})
	switch {
	case err != nil:
		c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and listing the user's keys to find the key failed. "+
			"Nothing more was created; the next apply looks for the key again and adopts it instead of creating another.\n\n%s", c.in.UserName, errors.Join(createErr, err)))
	case len(m.ambiguous) > 0:
		c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and more than one key appeared since (%s): another client made keys for this user at the same time, "+
			"so the provider cannot tell which is its own and changed nothing. Delete the key Terraform should not keep, or import it with terraform import <address> %s/<credential id>, then apply again.\n\n%s",
			c.in.UserName, strings.Join(m.ambiguous, ", "), c.in.UserName, createErr))
	case !found:
		// Nothing can land any more; the entry stays, for a key that
		// shows up against all odds, with its deadline now.
		c.warnJournal(ctx, c.j.Set(c.scope, entry.ID, keyjournal.Pending, "", time.Now()))
		c.diags.AddError(createSummary, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost, and no new key appeared within %s, so most likely nothing was created. "+
			"Apply again: the next apply looks once more and adopts the key if it appeared, else creates one.\n\n%s", c.in.UserName, window, createErr))
	default:
		tflog.Warn(ctx, "Found the key of the create whose answer was lost; resetting it to obtain its value", map[string]any{
			"user_name": c.in.UserName, "service_specific_credential_id": m.key.ServiceSpecificCredentialID,
		})
		return c.adopt(ctx, entry, m.key, fmt.Sprintf("The request to create a key for user %q was sent but its answer was lost; the service created key %s.", c.in.UserName, m.key.ServiceSpecificCredentialID))
	}
	return nil
}

// inCreateWindow reports whether what the service created at created (by
// its clock, offset ahead of ours) may be the work of entry e's create:
// from e.Started to e.Deadline, widened by clockMargin.
func inCreateWindow(e keyjournal.Entry, created time.Time, offset time.Duration) bool {
	return !created.Before(e.Started.Add(offset-clockMargin)) && !created.After(e.Deadline.Add(offset+clockMargin))
}

// warnJournal logs that the key journal could not be read or written during
// a create: that costs only its protection, so what (a key, a user) is
// created regardless.
func warnJournal(ctx context.Context, j *keyjournal.Journal, what string, err error) {
	if err != nil {
		tflog.Warn(ctx, "The key journal could not be read or written; "+what+" whose create is interrupted may not be recovered by a later run", map[string]any{
			"dir": j.Dir(), "error": err.Error(),
		})
	}
}

// warnJournalUpdate logs that a key or user could not be confirmed in, or
// forgotten by, the key journal: that costs only its protection.
func warnJournalUpdate(ctx context.Context, err error) {
	if err != nil {
		tflog.Warn(ctx, "The key journal could not be updated", map[string]any{"error": err.Error()})
	}
}
