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
//     CreateServiceSpecificCredential is sent and removed once its answer
//     is in hand. A record past its deadline belongs to an interrupted
//     create: the key it may have made is held by no configuration.
//   - tagKey+<credential id> = "<nonce>" is set once an answer names the
//     key: the key is held by a configuration, and no recovery ever
//     resets, adopts or deletes it. A recovery that takes a key over sets
//     "<nonce> <record tag> <credential id> <deadline>" first: until the
//     record goes, the adoption is in progress (until its deadline) or,
//     past it, was interrupted and is resumed by the next create.
//   - tagCreatingUser = "<nonce> <window seconds>" goes on CreateUser and is
//     removed once its answer is in hand: a user that still carries it
//     after CreateDate + window was made by an interrupted create and is
//     held by no configuration.
const (
	tagPrefix       = "terraform-cloud:"
	tagCreating     = tagPrefix + "creating:"
	tagKey          = tagPrefix + "key:"
	tagCreatingUser = tagPrefix + "creating-user"
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

// claimTagKey is the tag that says key id is held. Ids longer than a tag
// key allows are hashed.
func claimTagKey(id string) string {
	const room = 128 - len(tagKey)
	if len(id) > room {
		sum := sha256.Sum256([]byte(id))
		return tagKey + hex.EncodeToString(sum[:20])
	}
	return tagKey + id
}

// claim is what a key's claim tag says.
type claim struct {
	nonce string
	// record, keyID and deadline are set while a recovery takes the key
	// over for the create of record.
	record, keyID string
	deadline      time.Time
}

// adoptionTag is the claim of a recovery taking key id over for record e,
// which it finishes by deadline unless interrupted.
func adoptionTag(nonce string, e record, id string, deadline time.Time) identityclient.Tag {
	return identityclient.Tag{Key: claimTagKey(id), Value: nonce + " " + e.ID + " " + id + " " + strconv.FormatInt(deadline.Unix(), 10)}
}

// recordsOf reads the key-create records of one service and the claims of
// keys (by claimTagKey) from a user's tags. Tags it cannot read are left
// alone: they are someone else's.
func recordsOf(tags []identityclient.Tag, service string) (pending []record, claims map[string]claim) {
	claims = map[string]claim{}
	for _, t := range tags {
		switch {
		case strings.HasPrefix(t.Key, tagCreating):
			f := strings.Fields(t.Value)
			if len(f) != 3 || f[0] != service {
				continue
			}
			start, err1 := strconv.ParseInt(f[1], 10, 64)
			end, err2 := strconv.ParseInt(f[2], 10, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			pending = append(pending, record{ID: t.Key, Started: time.Unix(start, 0).UTC(), Deadline: time.Unix(end, 0).UTC()})
		case strings.HasPrefix(t.Key, tagKey):
			f := strings.Fields(t.Value)
			c := claim{}
			if len(f) > 0 {
				c.nonce = f[0]
			}
			if len(f) == 4 {
				if end, err := strconv.ParseInt(f[3], 10, 64); err == nil {
					c.record, c.keyID, c.deadline = f[1], f[2], time.Unix(end, 0).UTC()
				}
			}
			claims[t.Key] = c
		}
	}
	return pending, claims
}

// userCreateTag is the record CreateUser carries.
func userCreateTag(nonce string, window time.Duration) identityclient.Tag {
	return identityclient.Tag{Key: tagCreatingUser, Value: nonce + " " + strconv.FormatInt(int64(window.Seconds()+1), 10)}
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
