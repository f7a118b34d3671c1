package recovery

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// The records written as tags read back as written; tags of other
// services, other tools and malformed values are left alone.
func TestReadTags(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e := record{ID: tagRecord + "n1", Started: start, Deadline: start.Add(10 * time.Second)}
	tags := []identityclient.Tag{
		recordTag("n1", service, e.Started, e.Deadline),
		recordTag("n2", "other.cloud.example", start, start),
		{Key: tagRecord + "bad", Value: "models.cloud.example soon"},
		{Key: MarkTag("ACCAHELD"), Value: "n0"},
		claimTag("n3", e, "ACCAADOPTED", start.Add(time.Minute)),
		claimTag("n4", e, "ACCAADOPTED", start.Add(time.Hour)),
		{Key: "team", Value: "ml"},
	}
	pending, keys := readTags(tags, service)
	if d := cmp.Diff([]record{e}, pending); d != "" {
		t.Errorf("pending (-want +got):\n%s", d)
	}
	want := map[string]keyTags{
		MarkTag("ACCAHELD"): {mark: "n0"},
		MarkTag("ACCAADOPTED"): {claims: []claim{
			{tag: tagClaim + "n3:ACCAADOPTED", nonce: "n3", record: e.ID, keyID: "ACCAADOPTED", deadline: start.Add(time.Minute)},
			{tag: tagClaim + "n4:ACCAADOPTED", nonce: "n4", record: e.ID, keyID: "ACCAADOPTED", deadline: start.Add(time.Hour)},
		}},
	}
	if d := cmp.Diff(want, keys, cmp.AllowUnexported(keyTags{}, claim{})); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	// Every tag fits IAM's limits, however long the id.
	long := strings.Repeat("A", 128)
	for _, tag := range append(tags, identityclient.Tag{Key: MarkTag(long)}, claimTag("0123456789abcdef", e, long, start), userRecordTag("0123456789abcdef", time.Hour)) {
		if len(tag.Key) > 128 || len(tag.Value) > 256 {
			t.Errorf("tag %q=%q is longer than IAM allows", tag.Key, tag.Value)
		}
	}
}

func TestUserRecord(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	u := &identityclient.User{CreateDate: created, Tags: []identityclient.Tag{{Key: "team", Value: "ml"}, userRecordTag("n1", 10500*time.Millisecond)}}
	nonce, until, ok := userRecord(u)
	if !ok || nonce != "n1" || !until.Equal(created.Add(11*time.Second)) {
		t.Errorf("record %q until %s (%v), want n1 until %s", nonce, until, ok, created.Add(11*time.Second))
	}
	if _, _, ok := userRecord(&identityclient.User{Tags: []identityclient.Tag{{Key: tagUserRecord, Value: "garbage"}}}); ok {
		t.Error("a malformed record was read")
	}
}
