package recovery

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
//   - tagRecord+<nonce> = "<service name> <start> <deadline>" (Unix
//     seconds by the service's clock) is set before
//     CreateServiceSpecificCredential is sent. A record past its deadline
//     belongs to an interrupted create: the key it may have made is held by
//     no configuration. Once the answer is in hand, one TagUser turns the
//     record into the key's mark, tagRecord+<nonce> = "held <credential
//     id> <settled>" (Unix seconds by the service's clock; marks written
//     before carry no time): writing the same tag key replaces the record
//     in the same call, so no moment has both or neither, and no UntagUser
//     is needed.
//   - tagMark+<credential id> = "<nonce> <set>" marks a key an adoption took
//     (set: Unix seconds by the service's clock), or "<nonce>" one an import
//     brought in (HoldImported; its claim names "import" for a record). Either mark says the key is held by a
//     configuration: no recovery ever resets, adopts or deletes it.
//     A mark stays when its key is deleted, inert, until the sweep
//     (sweepStaleMarks) or its user's delete removes it.
//   - tagClaim+<nonce>:<credential id> = "<record tag> <credential id>
//     <deadline>" is the claim of one recovery taking a key over for the
//     record; doc.go says how one run of several wins it (contest.go).
//     Until the record goes, the takeover is in progress (until its
//     deadline) or, past it, was interrupted and is resumed by the next
//     create. A claim also keeps the key from being matched to another
//     record.
//   - tagUserRecord = "<nonce> <window seconds>" goes on CreateUser and is
//     removed once its answer is in hand: a user that still carries it
//     after CreateDate + window was made by an interrupted create and is
//     held by no configuration. tagUserClaim+<nonce> = "<record nonce>
//     <deadline>" is the claim of one run adopting it.
const (
	tagPrefix     = "terraform-cloud:"
	tagRecord     = tagPrefix + "creating:"
	tagMark       = tagPrefix + "key:"
	tagClaim      = tagPrefix + "taking:"
	tagUserRecord = tagPrefix + "creating-user"
	tagUserClaim  = tagPrefix + "adopting-user:"
)

// record is a key create in flight or interrupted, as the user's tags
// hold it. KeyID is set when a claim takes a key over for it.
type record struct {
	// ID is the tag's key.
	ID string
	// Started and Deadline bound when the create's key can land, by the
	// service's clock.
	Started, Deadline time.Time
	KeyID             string
}

// NewNonce names one create, or one import's hold (HoldImported).
func NewNonce() string { return newNonce() }

// newNonce names one create.
func newNonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// recordTag is the record of a key create about to be sent.
func recordTag(nonce, service string, started, deadline time.Time) identityclient.Tag {
	return identityclient.Tag{
		Key:   tagRecord + nonce,
		Value: service + " " + strconv.FormatInt(started.Unix(), 10) + " " + strconv.FormatInt(deadline.Unix(), 10),
	}
}

// settledValue is the value that turns the record of an answered create
// into the mark of the key it made, id.
const settledValue = "held "

// settledTag is record's tag turned into the mark of key id, settled at
// (by the service's clock).
func settledTag(record, id string, at time.Time) identityclient.Tag {
	return identityclient.Tag{Key: record, Value: settledValue + id + " " + strconv.FormatInt(at.Unix(), 10)}
}

// markOf is the key a tag marks as held, as MarkTag names it: a record
// turned into a mark (settledTag) names the key's id; a tagMark mark is
// MarkTag's own. ok is false for any other tag.
func markOf(t identityclient.Tag) (markTag string, ok bool) {
	markTag, _, ok = markOfAt(t)
	return markTag, ok
}

// markOfAt is markOf with when a settledTag mark was settled: zero for a
// tagMark mark and for a settledTag mark written before marks carried it.
func markOfAt(t identityclient.Tag) (markTag string, settled time.Time, ok bool) {
	switch {
	case strings.HasPrefix(t.Key, tagMark):
		// An adoption's mark carries when it was set after its nonce; an
		// import's, and an earlier version's, carry none.
		if f := strings.Fields(t.Value); len(f) == 2 {
			if secs, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return t.Key, time.Unix(secs, 0).UTC(), true
			}
		}
		return t.Key, time.Time{}, true
	case strings.HasPrefix(t.Key, tagRecord) && strings.HasPrefix(t.Value, settledValue):
		f := strings.Fields(t.Value)
		if len(f) == 2 {
			return MarkTag(f[1]), time.Time{}, true
		}
		if len(f) == 3 {
			if secs, err := strconv.ParseInt(f[2], 10, 64); err == nil {
				return MarkTag(f[1]), time.Unix(secs, 0).UTC(), true
			}
		}
	}
	return "", time.Time{}, false
}

// MarkTag is the key of the tag that marks key id as held. Ids longer
// than a tag key allows are hashed.
func MarkTag(id string) string {
	return tagMark + shortID(id, 128-len(tagMark))
}

// NewMark is a mark of key id, as an import writes it.
func NewMark(id string) identityclient.Tag {
	return identityclient.Tag{Key: MarkTag(id), Value: newNonce()}
}

// shortID is id, or its hash when it is longer than room.
func shortID(id string, room int) string {
	if len(id) > room {
		sum := sha256.Sum256([]byte(id))
		return hex.EncodeToString(sum[:20])
	}
	return id
}

// keyTags is what a user's tags say about one key.
type keyTags struct {
	// mark is the mark's value (a nonce, or "-"); empty when the key is not
	// held.
	mark string
	// claims are those of the recoveries taking the key over.
	claims []claim
}

// claim is the claim of one recovery taking a key over for the create of
// record, which it finishes by deadline unless interrupted.
type claim struct {
	tag, nonce, record, keyID string
	deadline                  time.Time
}

// claimTag is the claim of the recovery named nonce taking key id over for
// record e, which it finishes by deadline unless interrupted.
func claimTag(nonce string, e record, id string, deadline time.Time) identityclient.Tag {
	prefix := tagClaim + nonce + ":"
	return identityclient.Tag{Key: prefix + shortID(id, 128-len(prefix)), Value: e.ID + " " + id + " " + strconv.FormatInt(deadline.Unix(), 10)}
}

// readTags reads the key-create records of one service and what the tags
// say about each key (by MarkTag) from a user's tags. Tags it cannot read
// are left alone: they are someone else's.
func readTags(tags []identityclient.Tag, service string) (pending []record, keys map[string]keyTags) {
	keys = map[string]keyTags{}
	for _, t := range tags {
		f := strings.Fields(t.Value)
		if k, ok := markOf(t); ok {
			c := keys[k]
			c.mark = "-"
			if strings.HasPrefix(t.Key, tagRecord) {
				c.mark = strings.TrimPrefix(t.Key, tagRecord)
			} else if len(f) > 0 {
				c.mark = f[0]
			}
			keys[k] = c
			continue
		}
		switch {
		case strings.HasPrefix(t.Key, tagRecord):
			if len(f) != 3 || f[0] != service {
				continue
			}
			start, err1 := strconv.ParseInt(f[1], 10, 64)
			end, err2 := strconv.ParseInt(f[2], 10, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			pending = append(pending, record{ID: t.Key, Started: time.Unix(start, 0).UTC(), Deadline: time.Unix(end, 0).UTC()})
		case strings.HasPrefix(t.Key, tagClaim):
			nonce, _, ok := strings.Cut(strings.TrimPrefix(t.Key, tagClaim), ":")
			if !ok || len(f) != 3 {
				continue
			}
			end, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				continue
			}
			k := MarkTag(f[1])
			c := keys[k]
			c.claims = append(c.claims, claim{tag: t.Key, nonce: nonce, record: f[0], keyID: f[1], deadline: time.Unix(end, 0).UTC()})
			keys[k] = c
		}
	}
	return pending, keys
}

// userRecordTag is the record CreateUser carries.
func userRecordTag(nonce string, window time.Duration) identityclient.Tag {
	return identityclient.Tag{Key: tagUserRecord, Value: nonce + " " + strconv.FormatInt(int64(window.Seconds()+1), 10)}
}

// userClaimTag is the claim of the run named nonce adopting the user that
// the create named record made; it finishes by deadline unless interrupted.
func userClaimTag(nonce, record string, deadline time.Time) identityclient.Tag {
	return identityclient.Tag{Key: tagUserClaim + nonce, Value: record + " " + strconv.FormatInt(deadline.Unix(), 10)}
}

// userRivals reads a user's tags for a contest (contest.go): whether the
// user still carries the record of the create named record, and the nonces
// of the live claims of other runs adopting it, at now (the service's
// clock).
func userRivals(tags []identityclient.Tag, now time.Time, record, nonce string) (others []string, open bool) {
	for _, t := range tags {
		f := strings.Fields(t.Value)
		switch {
		case t.Key == tagUserRecord:
			open = len(f) == 2 && f[0] == record
		case strings.HasPrefix(t.Key, tagUserClaim):
			n := strings.TrimPrefix(t.Key, tagUserClaim)
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

// userRecord reads the record of an unanswered user create from the
// user's tags: its nonce and until when (by the service's clock) its
// answer may still arrive.
func userRecord(u *identityclient.User) (nonce string, until time.Time, ok bool) {
	for _, t := range u.Tags {
		if t.Key != tagUserRecord {
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
