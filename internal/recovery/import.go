package recovery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// The hold of an imported key. An import reads only (a plan never
// writes), so the apply after it marks the key as held; until then the key
// may be another configuration's: the orphan of its interrupted create,
// which that configuration's next create adopts, or the key of a create
// still in flight, whose answer will settle its record into the key's
// mark. Marking it regardless would leave one key in two states, and the
// other configuration's destroy would delete the key this one holds. So
// the mark is written only when no mark, no other live claim and no create
// in flight speaks for the key, and only after winning the same contest
// (contest.go) an adoption runs for it: the import's claim names the key,
// so an adoption and an import of one key let at most one of them take it.

// importRecord is what an import's claim names in place of a record: no
// record's tag has it, so the claim never resumes a takeover.
const importRecord = "import"

// HeldElsewhere says an imported key is another configuration's, or may
// be, and what says so: Tag = Value on the user, and for a create in
// flight, until when it can still land its key (Until, by the service's
// clock; zero otherwise).
type HeldElsewhere struct {
	User, KeyID, Tag, Value string
	Until                   time.Time
}

func (e *HeldElsewhere) Error() string {
	return fmt.Sprintf("key %s of user %q is spoken for by tag %s = %q", e.KeyID, e.User, e.Tag, e.Value)
}

// Hold is the mark of one imported key to write: key ID of user User, for
// service Service, marked with Nonce (the import's own, so that a mark this
// import wrote whose answer was lost is known as its own next time).
type Hold struct {
	Client                      *identityclient.Client
	User, Service, KeyID, Nonce string
	// Created is the key's CreateDate.
	Created time.Time
	// Window is a key create's window (CreateWindow): how long an
	// import's claim stays live.
	Window time.Duration
}

// MarkedElsewhere reports the mark, by tags, that says key id of user is
// held by a configuration; nil when it has none. A state that imported the
// key and never marked it (held false) holds it beside that configuration:
// its refresh and its delete stop on this.
func MarkedElsewhere(tags []identityclient.Tag, user, id string) *HeldElsewhere {
	for _, t := range tags {
		if k, _, ok := markOfAt(t); ok && k == MarkTag(id) {
			v := t.Value
			if k == t.Key {
				v = firstField(t.Value)
			}
			return &HeldElsewhere{User: user, KeyID: id, Tag: t.Key, Value: v}
		}
	}
	return nil
}

// HoldImported marks the imported key h names as held by this
// configuration, unless something on the user speaks for it: then it
// writes nothing and returns a *HeldElsewhere. Other errors are the
// service's.
func HoldImported(ctx context.Context, h Hold) error {
	var clock client.ServiceClock
	tags, err := h.Client.ListUserTags(ctx, h.User)
	if err != nil {
		return err
	}
	now := readClock(&clock, tags.ServerTime)
	if held := h.spokenFor(tags.Tags, now); held != nil {
		if held.Value == h.Nonce {
			return nil // this import's own mark, whose answer was lost
		}
		return held
	}
	id := h.KeyID
	won, err := contest{idc: h.Client, user: h.User, clock: &clock, nonce: h.Nonce,
		claim: func(now time.Time) identityclient.Tag {
			return claimTag(h.Nonce, record{ID: importRecord}, id, now.Add(contestPause+h.Window))
		},
		rivals: func(tags []identityclient.Tag, now time.Time) (others []string, open bool) {
			_, keys := readTags(tags, h.Service)
			kt := keys[MarkTag(id)]
			for _, cl := range kt.claims {
				if cl.nonce != h.Nonce && now.Before(cl.deadline.Add(clockMargin)) {
					others = append(others, cl.nonce)
				}
			}
			return others, kt.mark == ""
		},
	}.contend(ctx)
	if err != nil {
		return err
	}
	if won == "" {
		return h.lost(ctx)
	}
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	mark := []identityclient.Tag{{Key: MarkTag(id), Value: h.Nonce}}
	err = h.Client.TagUser(actx, h.User, mark)
	var apiErr *client.APIError
	if err != nil && !errors.As(err, &apiErr) {
		// It may have written the mark: sent once more, it writes the
		// same, and the mark is known as this import's.
		err = h.Client.TagUser(actx, h.User, mark)
	}
	if err != nil {
		// The claim stays: it keeps the key from being matched to any
		// record, as an adoption's does.
		return err
	}
	untagLogged(ctx, h.Client, h.User, "Could not remove an import's claim from its user", won)
	return nil
}

// lost reads what took the key when this import lost the contest for it.
func (h Hold) lost(ctx context.Context) error {
	tags, err := h.Client.ListUserTags(ctx, h.User)
	if err != nil {
		return err
	}
	var clock client.ServiceClock
	if held := h.spokenFor(tags.Tags, readClock(&clock, tags.ServerTime)); held != nil {
		return held
	}
	return &HeldElsewhere{User: h.User, KeyID: h.KeyID, Tag: MarkTag(h.KeyID), Value: "(another run was taking the key at the same time)"}
}

// spokenFor is what on the user's tags speaks for the key at now: its
// mark, a live claim of another run, or a create of this service in flight
// whose window covers the key's creation (its answer may name this key).
// A record that is over is not: its key is an orphan the contest settles.
// nil when none.
func (h Hold) spokenFor(tags []identityclient.Tag, now time.Time) *HeldElsewhere {
	if m := MarkedElsewhere(tags, h.User, h.KeyID); m != nil {
		return m
	}
	return h.live(tags, now)
}

// SpokenFor reports what on the user's tags (read at now, by the
// service's clock; zero for not known) says key is another
// configuration's, or may yet become another run's: its mark, a live claim
// of another run (an adoption or an import taking it), or a create of its
// service in flight whose window covers its creation, whose answer may name
// it. An import stops on it at plan, before its state holds the key: an
// import's apply cannot drop what the import wrote (Terraform keeps a
// failed update's prior object), and a key in two states is deleted for
// both by a destroy in either. nil when none (with now zero, only a mark
// is looked for).
func SpokenFor(tags []identityclient.Tag, key *identityclient.ServiceSpecificCredential, now time.Time) *HeldElsewhere {
	h := Hold{User: key.UserName, Service: key.ServiceName, KeyID: key.ServiceSpecificCredentialID, Created: key.CreateDate}
	if now.IsZero() {
		return MarkedElsewhere(tags, h.User, h.KeyID)
	}
	return h.spokenFor(tags, now)
}

// live is spokenFor but for marks: the claims and creates still running.
func (h Hold) live(tags []identityclient.Tag, now time.Time) *HeldElsewhere {
	pending, keys := readTags(tags, h.Service)
	for _, cl := range keys[MarkTag(h.KeyID)].claims {
		if cl.nonce != h.Nonce && now.Before(cl.deadline.Add(clockMargin)) {
			return &HeldElsewhere{User: h.User, KeyID: h.KeyID, Tag: cl.tag, Value: cl.record + " " + cl.keyID}
		}
	}
	v := &view{now: now}
	for _, p := range pending {
		if v.inFlight(p) && inCreateWindow(p, h.Created) {
			return &HeldElsewhere{User: h.User, KeyID: h.KeyID, Tag: p.ID, Value: "a create in flight", Until: p.Deadline.Add(clockMargin)}
		}
	}
	return nil
}

func firstField(s string) string {
	for i := range len(s) {
		if s[i] == ' ' {
			return s[:i]
		}
	}
	return s
}
