package identity

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// The record of a create in flight lives in the identity service, on the
// user it concerns, as user tags: every machine and working directory that
// runs Terraform reads the same record, a fresh CI runner included, and
// nothing on disk is needed to recover.
//
//   - tagCreating+<nonce> = "<service name> <start> <deadline>" (Unix
//     seconds by the service's clock) is set before
//     CreateServiceSpecificCredential is sent. A record past its deadline
//     belongs to an interrupted create: the key it may have made is held by
//     no configuration. Once the answer is in hand, one TagUser turns the
//     record into the key's mark, tagCreating+<nonce> = "held <credential
//     id> <settled>" (Unix seconds by the service's clock; marks written
//     before carry no time): writing the same tag key replaces the record
//     in the same call, so no moment has both or neither, and no UntagUser
//     is needed.
//   - tagKey+<credential id> = "<nonce>" marks a key an adoption took or an
//     import brought in. Either mark says the key is held by a
//     configuration: no recovery ever resets, adopts or deletes it.
//     A mark stays when its key is deleted: it names an id the service
//     never gives again, and matching looks only at keys that exist, so
//     it is inert; it goes with its user, or a key create that finds the
//     user's tags filling up removes the marks of keys that are gone and
//     were settled more than a create window ago (sweepStaleMarks).
//   - tagTaking+<nonce>:<credential id> = "<record tag> <credential id>
//     <deadline>" is the claim of one recovery taking a key over for the
//     record; see contend.go for how one run of several wins it. Until the
//     record goes, the takeover is in progress (until its deadline) or,
//     past it, was interrupted and is resumed by the next create. A claim
//     also keeps the key from being matched to another record.
//   - tagCreatingUser = "<nonce> <window seconds>" goes on CreateUser and is
//     removed once its answer is in hand: a user that still carries it
//     after CreateDate + window was made by an interrupted create and is
//     held by no configuration. tagAdoptingUser+<nonce> = "<record nonce>
//     <deadline>" is the claim of one run adopting it.
const (
	tagPrefix       = "terraform-cloud:"
	tagCreating     = tagPrefix + "creating:"
	tagKey          = tagPrefix + "key:"
	tagTaking       = tagPrefix + "taking:"
	tagCreatingUser = tagPrefix + "creating-user"
	tagAdoptingUser = tagPrefix + "adopting-user:"
)

// record is a create in flight or interrupted (KeyID empty), or the claim
// of a key (KeyID set), as the user's tags hold it.
type record struct {
	// ID is the tag's key.
	ID string
	// Started and Deadline bound when the create's key can land, by the
	// service's clock.
	Started, Deadline time.Time
	KeyID             string
}

// newNonce names one create.
func newNonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// pendingTag is the record of a key create about to be sent.
func pendingTag(nonce, service string, started, deadline time.Time) identityclient.Tag {
	return identityclient.Tag{
		Key:   tagCreating + nonce,
		Value: service + " " + strconv.FormatInt(started.Unix(), 10) + " " + strconv.FormatInt(deadline.Unix(), 10),
	}
}

// heldValue is the value that turns the record of an answered create into
// the mark of the key it made, id.
const heldValue = "held "

// heldTag is record's tag turned into the mark of key id, settled at (by
// the service's clock).
func heldTag(record, id string, at time.Time) identityclient.Tag {
	return identityclient.Tag{Key: record, Value: heldValue + id + " " + strconv.FormatInt(at.Unix(), 10)}
}

// markedKey is the key id a tag marks as held: a record turned into a
// mark (heldTag) names it; a tagKey mark names it as claimTagKey gives it
// (hashed when long). ok is false for any other tag.
func markedKey(t identityclient.Tag) (claimKey string, ok bool) {
	claimKey, _, ok = markedKeyAt(t)
	return claimKey, ok
}

// markedKeyAt is markedKey with when a heldTag mark was settled; zero for
// a tagKey mark and for a heldTag mark written before marks carried it.
func markedKeyAt(t identityclient.Tag) (claimKey string, settled time.Time, ok bool) {
	switch {
	case strings.HasPrefix(t.Key, tagKey):
		return t.Key, time.Time{}, true
	case strings.HasPrefix(t.Key, tagCreating) && strings.HasPrefix(t.Value, heldValue):
		f := strings.Fields(t.Value)
		if len(f) == 2 {
			return claimTagKey(f[1]), time.Time{}, true
		}
		if len(f) == 3 {
			if secs, err := strconv.ParseInt(f[2], 10, 64); err == nil {
				return claimTagKey(f[1]), time.Unix(secs, 0).UTC(), true
			}
		}
	}
	return "", time.Time{}, false
}

// claimTagKey is the tag that says key id is held. Ids longer than a tag
// key allows are hashed.
func claimTagKey(id string) string {
	return tagKey + shortID(id, 128-len(tagKey))
}

// shortID is id, or its hash when it is longer than room.
func shortID(id string, room int) string {
	if len(id) > room {
		sum := sha256.Sum256([]byte(id))
		return hex.EncodeToString(sum[:20])
	}
	return id
}

// claim is what a user's tags say about one key.
type claim struct {
	// nonce is the held mark's value; empty when the key is not held.
	nonce string
	// takers are the recoveries taking the key over.
	takers []taker
}

// taker is the claim of one recovery taking a key over for the create of
// record, which it finishes by deadline unless interrupted.
type taker struct {
	tag, nonce, record, keyID string
	deadline                  time.Time
}

// takerTag is the claim of the recovery named nonce taking key id over for
// record e, which it finishes by deadline unless interrupted.
func takerTag(nonce string, e record, id string, deadline time.Time) identityclient.Tag {
	prefix := tagTaking + nonce + ":"
	return identityclient.Tag{Key: prefix + shortID(id, 128-len(prefix)), Value: e.ID + " " + id + " " + strconv.FormatInt(deadline.Unix(), 10)}
}

// recordsOf reads the key-create records of one service and the claims of
// keys (by claimTagKey) from a user's tags. Tags it cannot read are left
// alone: they are someone else's.
func recordsOf(tags []identityclient.Tag, service string) (pending []record, claims map[string]claim) {
	claims = map[string]claim{}
	for _, t := range tags {
		f := strings.Fields(t.Value)
		if k, ok := markedKey(t); ok {
			c := claims[k]
			c.nonce = "-"
			if strings.HasPrefix(t.Key, tagCreating) {
				c.nonce = strings.TrimPrefix(t.Key, tagCreating)
			} else if len(f) > 0 {
				c.nonce = f[0]
			}
			claims[k] = c
			continue
		}
		switch {
		case strings.HasPrefix(t.Key, tagCreating):
			if len(f) != 3 || f[0] != service {
				continue
			}
			start, err1 := strconv.ParseInt(f[1], 10, 64)
			end, err2 := strconv.ParseInt(f[2], 10, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			pending = append(pending, record{ID: t.Key, Started: time.Unix(start, 0).UTC(), Deadline: time.Unix(end, 0).UTC()})
		case strings.HasPrefix(t.Key, tagTaking):
			nonce, _, ok := strings.Cut(strings.TrimPrefix(t.Key, tagTaking), ":")
			if !ok || len(f) != 3 {
				continue
			}
			end, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				continue
			}
			k := claimTagKey(f[1])
			c := claims[k]
			c.takers = append(c.takers, taker{tag: t.Key, nonce: nonce, record: f[0], keyID: f[1], deadline: time.Unix(end, 0).UTC()})
			claims[k] = c
		}
	}
	return pending, claims
}

// userCreateTag is the record CreateUser carries.
func userCreateTag(nonce string, window time.Duration) identityclient.Tag {
	return identityclient.Tag{Key: tagCreatingUser, Value: nonce + " " + strconv.FormatInt(int64(window.Seconds()+1), 10)}
}

// adoptingTag is the claim of the run named nonce adopting the user that
// the create named record made; it finishes by deadline unless interrupted.
func adoptingTag(nonce, record string, deadline time.Time) identityclient.Tag {
	return identityclient.Tag{Key: tagAdoptingUser + nonce, Value: record + " " + strconv.FormatInt(deadline.Unix(), 10)}
}

// userAdopters reads a user's tags for a contest (contend.go): whether the
// user still carries the record of the create named record, and the nonces
// of the live claims of other runs adopting it.
func userAdopters(tags *identityclient.UserTags, record, nonce string) (others []string, open bool) {
	now := serverNow(tags)
	for _, t := range tags.Tags {
		f := strings.Fields(t.Value)
		switch {
		case t.Key == tagCreatingUser:
			open = len(f) == 2 && f[0] == record
		case strings.HasPrefix(t.Key, tagAdoptingUser):
			n := strings.TrimPrefix(t.Key, tagAdoptingUser)
			if n == nonce || len(f) != 2 || f[0] != record {
				continue
			}
			if end, err := strconv.ParseInt(f[1], 10, 64); err == nil && now.Before(time.Unix(end, 0).Add(clockMargin)) {
				others = append(others, n)
			}
		}
	}
	return others, open
}

// userCreateRecord reads the record of an unanswered user create from the
// user's tags: its nonce and until when (by the service's clock) its
// answer may still arrive.
func userCreateRecord(u *identityclient.User) (nonce string, until time.Time, ok bool) {
	for _, t := range u.Tags {
		if t.Key != tagCreatingUser {
			continue
		}
		f := strings.Fields(t.Value)
		if len(f) != 2 {
			return "", time.Time{}, false
		}
		secs, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return "", time.Time{}, false
		}
		return f[0], u.CreateDate.Add(time.Duration(secs) * time.Second), true
	}
	return "", time.Time{}, false
}

// serverNow is the service's clock as a tag listing reports it.
func serverNow(tags *identityclient.UserTags) time.Time {
	if tags.ServerTime.IsZero() {
		return time.Now()
	}
	return tags.ServerTime
}
