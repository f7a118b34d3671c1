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

// recover deals with the records whose creates are over: it adopts a key
// one of them made that fits the plan (own's first), deletes the others'
// keys, which no configuration holds and whose values are lost, and clears
// the records. When the user's keys in some record's window are more than
// the records account for, it changes nothing and says which keys to
// import or delete. ok is false when it failed (diagnostics say why).
func (c *keyCreate) recover(ctx context.Context, v *view, own *record) (adopted *identityclient.ServiceSpecificCredential, ok bool) {
	over := v.overRecords(own)
	if len(over) == 0 {
		return nil, true
	}
	matches := matchKeys(v.claims, over, v.keys)
	if !c.unambiguous(matches) {
		return nil, false
	}
	pick := pickFit(matches, c.want, v.now, own)
	var done []string // tags to remove when the recovery is over
	defer func() {
		untagLogged(ctx, c.idc, c.in.UserName, "Could not remove the record of a key create from its user", done...)
	}()
	var chosen *takeover
	for i, m := range matches {
		t, remove, ok := c.resolve(ctx, v, m, i == pick)
		done = append(done, remove...)
		if !ok {
			return nil, false
		}
		if t != nil {
			chosen = t
		}
	}
	if chosen == nil {
		return nil, true
	}
	cred, release := c.adopt(ctx, *chosen)
	done = append(done, release...)
	return cred, cred != nil
}

// overRecords are the records whose creates can no longer land a key (and
// own, whatever its deadline). A record that a recovery took a key over
// for and was interrupted names that key: the next recovery resumes it.
func (v *view) overRecords(own *record) []record {
	var over []record
	for _, e := range v.pending {
		if v.inFlight(e) && (own == nil || e.ID != own.ID) {
			continue
		}
		for _, cl := range v.claims {
			for _, tk := range cl.takers {
				if tk.record == e.ID {
					e.KeyID = tk.keyID
				}
			}
		}
		over = append(over, e)
	}
	return over
}

// unambiguous reports whether every record's key can be told; otherwise
// it says which keys to import or delete.
func (c *keyCreate) unambiguous(matches []match) bool {
	for _, m := range matches {
		if len(m.ambiguous) > 0 {
			c.diags.AddError(createSummary, fmt.Sprintf("A create of a key for user %q started at %s was interrupted, and the user's unclaimed keys created around then (%s) are more than the interrupted creates can account for: "+
				"another client made keys for this user at the same time, and the provider cannot tell which key the interrupted create made, so it changed nothing. "+
				"Delete the key no configuration should keep (its value was lost), or bring it under Terraform with terraform import <address> %s/<credential id>; "+
				"then remove the tag %s from the user and apply again.",
				c.in.UserName, m.entry.Started.Format(time.RFC3339), strings.Join(m.ambiguous, ", "), c.in.UserName, m.entry.ID))
			return false
		}
	}
	return true
}

// pickFit is the index of the match whose key to adopt: one that fits the
// plan, own's first; -1 for none.
func pickFit(matches []match, want wantKey, now time.Time, own *record) int {
	pick := -1
	for i, m := range matches {
		if m.key != nil && fits(m.key, want, now) && (pick < 0 || (own != nil && m.entry.ID == own.ID)) {
			pick = i
		}
	}
	return pick
}

// takeover is a key this run claimed to adopt: its match, this run's
// claim, and the claims of earlier runs that took it over and were
// interrupted.
type takeover struct {
	match
	claim string
	stale []string
}

// resolve settles one match: a record whose key never landed or is held
// by now is cleared; a key another run takes over is left to it; a key
// this run claims is the takeover to adopt when picked, and deleted
// otherwise. remove are the tags to remove once the recovery is over; ok
// is false when it failed.
func (c *keyCreate) resolve(ctx context.Context, v *view, m match, picked bool) (t *takeover, remove []string, ok bool) {
	if m.key == nil {
		// Nothing landed, and nothing can now; the key taken over is gone.
		return nil, append([]string{m.entry.ID}, takerTags(v.claims, m.entry, m.entry.KeyID)...), true
	}
	id := m.key.ServiceSpecificCredentialID
	if v.claims[claimTagKey(id)].nonce != "" {
		// A takeover that marked the key held, but did not remove its
		// record: the key is a configuration's now.
		return nil, append([]string{m.entry.ID}, takerTags(v.claims, m.entry, id)...), true
	}
	mine := c.claim(ctx, m.entry, id)
	if mine == "" {
		return nil, nil, true // another run takes it over: its business now
	}
	stale := takerTags(v.claims, m.entry, id)
	if picked {
		return &takeover{match: m, claim: mine, stale: stale}, nil, true
	}
	remove, ok = c.deleteOrphan(ctx, m, mine)
	if ok {
		remove = append(remove, stale...)
	}
	return nil, remove, ok
}

// deleteOrphan deletes the key of an interrupted create that does not fit
// the plan, which this run claimed (mine). It returns the tags to remove:
// the record and the claim, or only the claim when the delete failed (the
// record stays: the next create tries again).
func (c *keyCreate) deleteOrphan(ctx context.Context, m match, mine string) (remove []string, ok bool) {
	id := m.key.ServiceSpecificCredentialID
	tflog.Warn(ctx, "Deleting a key an interrupted create left behind, which the plan cannot use", map[string]any{
		"user_name": c.in.UserName, "service_specific_credential_id": id,
	})
	err := c.idc.DeleteServiceSpecificCredential(ctx, c.in.UserName, id)
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		c.diags.AddError(createSummary, fmt.Sprintf("Key %s of user %q was left behind by a create interrupted at %s and does not fit the planned key, and deleting it failed, so nothing was created. Apply again.\n\n%s",
			id, c.in.UserName, m.entry.Started.Format(time.RFC3339), err))
		return []string{mine}, false
	}
	c.diags.AddWarning("Orphaned Identity Service Specific Credential Deleted",
		fmt.Sprintf("Key %s of user %q was made by a create interrupted at %s: no configuration holds it and its value was lost. It does not fit the planned key, so the provider deleted it.",
			id, c.in.UserName, m.entry.Started.Format(time.RFC3339)))
	return []string{m.entry.ID, mine}, true
}

// adopt resets the key of takeover t to obtain a value, and holds it.
// When the reset fails, release is the claim to remove: the record stays,
// so that the next apply adopts the key again.
func (c *keyCreate) adopt(ctx context.Context, t takeover) (cred *identityclient.ServiceSpecificCredential, release []string) {
	id := t.key.ServiceSpecificCredentialID
	tflog.Warn(ctx, "Adopting the key an interrupted create left behind, instead of creating another", map[string]any{
		"user_name": c.in.UserName, "service_specific_credential_id": id, "interrupted_at": t.entry.Started.Format(time.RFC3339),
	})
	why := fmt.Sprintf("Key %s of user %q was made by a create started at %s whose answer never arrived (its value was lost).",
		id, c.in.UserName, t.entry.Started.Format(time.RFC3339))
	cred, err := c.idc.ResetServiceSpecificCredential(ctx, c.in.UserName, id)
	if err != nil {
		c.diags.AddError(createSummary, fmt.Sprintf("%s The provider adopts it rather than create a second key, but resetting it to obtain a value failed. "+
			"Nothing else was created; the next apply adopts the same key.\n\n%s", why, err))
		return nil, []string{t.claim}
	}
	c.hold(ctx, id, t.entry, append([]string{t.claim}, t.stale...)...)
	c.diags.AddWarning("Identity Service Specific Credential Adopted",
		fmt.Sprintf("%s No configuration held it, so the provider adopted it instead of creating a second key, and reset it to obtain a value: service_api_key_value holds that value.", why))
	return cred, nil
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
// the same record or key at the same time (contend.go). It returns the
// tag of this run's claim, or "" when another run holds the key or takes
// it or the record over, the record is gone, or the claim cannot be
// written (then nothing may touch the key).
func (c *keyCreate) claim(ctx context.Context, e record, id string) string {
	mine := ""
	won, err := contest{idc: c.idc, user: c.in.UserName, nonce: c.nonce,
		mine: func(now time.Time) identityclient.Tag {
			t := takerTag(c.nonce, e, id, now.Add(contendSettle+c.window))
			mine = t.Key
			return t
		},
		rivals: func(tags *identityclient.UserTags) (others []string, open bool) {
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
		},
	}.contend(ctx)
	if err != nil {
		tflog.Warn(ctx, "Could not claim a key left by an interrupted create; leaving it alone", map[string]any{"user_name": c.in.UserName, "service_specific_credential_id": id, "error": err.Error()})
	}
	if !won {
		return ""
	}
	return mine
}
