package identity

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// The records written as tags read back as written; tags of other
// services, other tools and malformed values are left alone.
func TestRecordsOf(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e := record{ID: tagCreating + "n1", Started: start, Deadline: start.Add(10 * time.Second)}
	tags := []identityclient.Tag{
		pendingTag("n1", DefaultServiceName, e.Started, e.Deadline),
		pendingTag("n2", "other.cloud.example", start, start),
		{Key: tagCreating + "bad", Value: "models.cloud.example soon"},
		{Key: claimTagKey("ACCAHELD"), Value: "n0"},
		takerTag("n3", e, "ACCAADOPTED", start.Add(time.Minute)),
		takerTag("n4", e, "ACCAADOPTED", start.Add(time.Hour)),
		{Key: "team", Value: "ml"},
	}
	pending, claims := recordsOf(tags, DefaultServiceName)
	if d := cmp.Diff([]record{e}, pending); d != "" {
		t.Errorf("pending (-want +got):\n%s", d)
	}
	want := map[string]claim{
		claimTagKey("ACCAHELD"): {nonce: "n0"},
		claimTagKey("ACCAADOPTED"): {takers: []taker{
			{tag: tagTaking + "n3:ACCAADOPTED", nonce: "n3", record: e.ID, keyID: "ACCAADOPTED", deadline: start.Add(time.Minute)},
			{tag: tagTaking + "n4:ACCAADOPTED", nonce: "n4", record: e.ID, keyID: "ACCAADOPTED", deadline: start.Add(time.Hour)},
		}},
	}
	if d := cmp.Diff(want, claims, cmp.AllowUnexported(claim{}, taker{})); d != "" {
		t.Errorf("claims (-want +got):\n%s", d)
	}
	// Every tag fits IAM's limits, however long the id.
	long := strings.Repeat("A", 128)
	for _, tag := range append(tags, identityclient.Tag{Key: claimTagKey(long)}, takerTag("0123456789abcdef", e, long, start), userCreateTag("0123456789abcdef", time.Hour)) {
		if len(tag.Key) > 128 || len(tag.Value) > 256 {
			t.Errorf("tag %q=%q is longer than IAM allows", tag.Key, tag.Value)
		}
	}
}

func TestUserCreateRecord(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	u := &identityclient.User{CreateDate: created, Tags: []identityclient.Tag{{Key: "team", Value: "ml"}, userCreateTag("n1", 10500*time.Millisecond)}}
	nonce, until, ok := userCreateRecord(u)
	if !ok || nonce != "n1" || !until.Equal(created.Add(11*time.Second)) {
		t.Errorf("record %q until %s (%v), want n1 until %s", nonce, until, ok, created.Add(11*time.Second))
	}
	if _, _, ok := userCreateRecord(&identityclient.User{Tags: []identityclient.Tag{{Key: tagCreatingUser, Value: "garbage"}}}); ok {
		t.Error("a malformed record was read")
	}
}
