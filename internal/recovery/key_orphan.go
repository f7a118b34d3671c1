package recovery

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// The recovery of orphan keys. A key create whose answer never arrives
// (lost, timed out, or Terraform or the provider killed or interrupted
// while it was in flight) may still have made a key: its value was only in
// the answer, and keys have no tags. So each create is recorded on its
// user before it is sent (tags.go), and the next create for that user and
// service, on any machine, waits while a recorded create may still land,
// finds the key of an interrupted one by time among the user's keys that
// no tag speaks for, and adopts it: a reset gives it a value the state can
// hold. A marked key is never touched, and when the keys in a record's
// window are more than the records account for, nothing is.

// match is what the user's keys say about one record.
type match struct {
	entry record
	key   *identityclient.ServiceSpecificCredential // nil: none found (yet)
	// ambiguous lists the keys in the record's window when more keys are
	// there than the records can account for: some belong to someone
	// else, and which ones cannot be told.
	ambiguous []string
}

// matchKeys finds the key of each of the records among keys. tags says
// which keys are marked or claimed: such a key is spoken for. A record
// naming a key matches that key. A pending record matches a key spoken for
// by none created within its window (Started to Deadline, widened by clockMargin); records
// take the earliest key left in their window, in the order they started.
// When keys are left over in some record's window, those records match
// nothing and report the window's keys as ambiguous.
func matchKeys(tags map[string]keyTags, entries []record, keys []identityclient.ServiceSpecificCredential) []match {
	byID := map[string]*identityclient.ServiceSpecificCredential{}
	var free []*identityclient.ServiceSpecificCredential
	for i := range keys {
		k := &keys[i]
		byID[k.ServiceSpecificCredentialID] = k
		if _, held := tags[MarkTag(k.ServiceSpecificCredentialID)]; !held {
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
func fits(key *identityclient.ServiceSpecificCredential, want WantKey, now time.Time) bool {
	if key.ExpirationDate.IsZero() {
		return want.AgeDays == 0
	}
	days := int64(math.Round(key.ExpirationDate.Sub(key.CreateDate).Hours() / 24))
	if days != want.AgeDays {
		return false
	}
	left := time.Duration(want.RenewBeforeDays)*24*time.Hour + time.Minute
	return key.ExpirationDate.After(now.Add(left))
}

// recentKey is how recently a key must have been created for a record
// not yet written to cover it: a record's window starts when its create
// starts, give or take clockMargin and the error of our estimate of the
// service's clock.
const recentKey = time.Minute

// BeyondRecovery reports whether no recovery of an interrupted create can
// ever take key, an imported key without a value, by its user's tags and
// the service's time now (zero: unknown): it is marked already, or it is
// older than any record still to be written can cover (recentKey) and no
// record on its user covers its creation or is taking it over. Then it
// needs no mark.
func BeyondRecovery(tags []identityclient.Tag, key *identityclient.ServiceSpecificCredential, now time.Time) bool {
	pending, keys := readTags(tags, key.ServiceName)
	kt := keys[MarkTag(key.ServiceSpecificCredentialID)]
	if kt.mark != "" {
		return true // marked already, such as by the create that made it
	}
	if len(kt.claims) > 0 || now.IsZero() || now.Sub(key.CreateDate) < recentKey {
		return false
	}
	for _, p := range pending {
		if inCreateWindow(p, key.CreateDate) {
			return false
		}
	}
	return true
}

// recover deals with the records whose creates are over: it adopts a key
// one of them made that fits the plan (own's first), deletes the others'
// keys, which no configuration holds and whose values are lost, and clears
// the records. When the user's keys in some record's window are more than
// the records account for, it changes nothing. It returns how the create
// ended when the recovery ended it (an adoption or a failure); nil to go
// on.
func (c *keyCreate) recover(ctx context.Context, v *view, own *record) KeyEnd {
	over := v.overRecords(own)
	if len(over) == 0 {
		return nil
	}
	matches := matchKeys(v.tags, over, v.keys)
	for _, m := range matches {
		if len(m.ambiguous) > 0 {
			return KeyAmbiguous{Record: m.entry.ID, Started: m.entry.Started, Keys: m.ambiguous}
		}
	}
	pick := pickFit(matches, c.Want, v.now, own)
	p := &pass{keyCreate: c, v: v}
	defer func() {
		untagLogged(ctx, c.idc, c.user, "Could not remove the record of a key create from its user", p.done...)
	}()
	var chosen *takeover
	for i, m := range matches {
		t, end := p.resolve(ctx, m, i == pick)
		if end != nil {
			return end
		}
		if t != nil {
			chosen = t
		}
	}
	if chosen == nil {
		return nil
	}
	return p.adopt(ctx, *chosen)
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
		for _, kt := range v.tags {
			for _, cl := range kt.claims {
				if cl.record == e.ID {
					e.KeyID = cl.keyID
				}
			}
		}
		over = append(over, e)
	}
	return over
}

// pickFit is the index of the match whose key to adopt: one that fits the
// plan, own's first; -1 for none.
func pickFit(matches []match, want WantKey, now time.Time, own *record) int {
	pick := -1
	for i, m := range matches {
		if m.key != nil && fits(m.key, want, now) && (pick < 0 || (own != nil && m.entry.ID == own.ID)) {
			pick = i
		}
	}
	return pick
}

// pass is one recovery of the records that are over, as one view showed
// them.
type pass struct {
	*keyCreate
	v *view
	// done are the tags to remove once the recovery is over.
	done []string
}

// takeover is an orphan key this run won to adopt: its match, this run's
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
// otherwise. It returns the takeover, or how the create ended when
// deleting failed.
func (p *pass) resolve(ctx context.Context, m match, picked bool) (*takeover, KeyEnd) {
	if m.key == nil {
		// Nothing landed, and nothing can now; the key taken over is gone.
		p.done = append(p.done, m.entry.ID)
		p.done = append(p.done, claimTags(p.v.tags, m.entry, m.entry.KeyID)...)
		return nil, nil
	}
	id := m.key.ServiceSpecificCredentialID
	if p.v.tags[MarkTag(id)].mark != "" {
		// A takeover that marked the key held, but did not remove its
		// record: the key is a configuration's now.
		p.done = append(p.done, m.entry.ID)
		p.done = append(p.done, claimTags(p.v.tags, m.entry, id)...)
		return nil, nil
	}
	mine := p.takeOver(ctx, m.entry, id)
	if mine == "" {
		return nil, nil // another run takes it over: its business now
	}
	stale := claimTags(p.v.tags, m.entry, id)
	if picked {
		return &takeover{match: m, claim: mine, stale: stale}, nil
	}
	if end := p.deleteOrphan(ctx, m, mine); end != nil {
		return nil, end
	}
	p.done = append(p.done, stale...)
	return nil, nil
}

// deleteOrphan deletes the key of an interrupted create that does not fit
// the plan, which this run claimed (mine). The record and the claim go;
// only the claim when the delete failed (the record stays: the next create
// tries again), and then the create ends.
func (p *pass) deleteOrphan(ctx context.Context, m match, mine string) KeyEnd {
	id := m.key.ServiceSpecificCredentialID
	tflog.Warn(ctx, "Deleting a key an interrupted create left behind, which the plan cannot use", map[string]any{
		"user_name": p.user, "service_specific_credential_id": id,
	})
	err := p.idc.DeleteServiceSpecificCredential(ctx, p.user, id)
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		p.done = append(p.done, mine)
		return KeyOrphanNotDeleted{KeyID: id, Started: m.entry.Started, Err: err}
	}
	p.notes = append(p.notes, KeyOrphanRemoved{KeyID: id, Started: m.entry.Started})
	p.done = append(p.done, m.entry.ID, mine)
	return nil
}

// adopt resets the key of takeover t to obtain a value, and holds it.
// When the reset fails, only the claim goes: the record stays, so that the
// next apply adopts the key again.
func (p *pass) adopt(ctx context.Context, t takeover) KeyEnd {
	id := t.key.ServiceSpecificCredentialID
	tflog.Warn(ctx, "Adopting the key an interrupted create left behind, instead of creating another", map[string]any{
		"user_name": p.user, "service_specific_credential_id": id, "interrupted_at": t.entry.Started.Format(time.RFC3339),
	})
	cred, err := p.idc.ResetServiceSpecificCredential(ctx, p.user, id)
	if err != nil {
		p.done = append(p.done, t.claim)
		return KeyResetFailed{KeyID: id, Started: t.entry.Started, Err: err}
	}
	p.hold(ctx, id, t.entry, append([]string{t.claim}, t.stale...)...)
	return KeyAdopted{Key: cred, Started: t.entry.Started}
}

// claimTags are the tags of the claims that take key id over for record e.
func claimTags(tags map[string]keyTags, e record, id string) []string {
	if id == "" {
		return nil
	}
	var out []string
	for _, cl := range tags[MarkTag(id)].claims {
		if cl.record == e.ID {
			out = append(out, cl.tag)
		}
	}
	return out
}

// takeOver claims key id for record e, against other runs recovering the
// same record or key at the same time (contest.go). It returns the tag of
// this run's claim, or "" when another run holds the key or takes it or
// the record over, the record is gone, or the claim cannot be written
// (then nothing may touch the key).
func (c *keyCreate) takeOver(ctx context.Context, e record, id string) string {
	won, err := contest{idc: c.idc, user: c.user, clock: &c.clock, nonce: c.nonce,
		claim: func(now time.Time) identityclient.Tag {
			return claimTag(c.nonce, e, id, now.Add(contestPause+c.Window))
		},
		rivals: func(tags []identityclient.Tag, now time.Time) (others []string, open bool) {
			pending, keys := readTags(tags, c.Input.ServiceName)
			open = keys[MarkTag(id)].mark == "" && slices.ContainsFunc(pending, func(p record) bool { return p.ID == e.ID })
			for _, kt := range keys {
				for _, cl := range kt.claims {
					if cl.nonce != c.nonce && (cl.record == e.ID || cl.keyID == id) && now.Before(cl.deadline.Add(clockMargin)) {
						others = append(others, cl.nonce)
					}
				}
			}
			return others, open
		},
	}.contend(ctx)
	if err != nil {
		tflog.Warn(ctx, "Could not claim a key left by an interrupted create; leaving it alone", map[string]any{"user_name": c.user, "service_specific_credential_id": id, "error": err.Error()})
	}
	return won
}
