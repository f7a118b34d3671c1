package identity

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var markerRe = regexp.MustCompile(`<Marker>([^<]+)<`)

// Tags on CreateUser, TagUser, UntagUser and ListUserTags follow IAM: keys
// are case-insensitive (a second write replaces the first), at most 50 tags
// per user, keys 1 to 128 and values 0 to 256 characters.
func TestUserTags(t *testing.T) {
	t.Parallel()
	s, _ := newService(t) // alice
	a := must(t, call(t, s, adminCaller, "CreateUser", "UserName", "bob", "Tags.member.1.Key", "team", "Tags.member.1.Value", "ml"))
	if !strings.Contains(a.body, "<Key>team</Key><Value>ml</Value>") {
		t.Errorf("CreateUser answer lacks its tags: %s", a.body)
	}
	must(t, call(t, s, adminCaller, "TagUser", "UserName", "bob", "Tags.member.1.Key", "TEAM", "Tags.member.1.Value", "search", "Tags.member.2.Key", "empty", "Tags.member.2.Value", ""))
	if d := cmp.Diff(map[string]string{"TEAM": "search", "empty": ""}, s.UserTags("bob")); d != "" {
		t.Errorf("tags after TagUser (-want +got):\n%s", d)
	}
	a = must(t, call(t, s, adminCaller, "ListUserTags", "UserName", "bob"))
	if !strings.Contains(a.body, "<Tags><member><Key>TEAM</Key><Value>search</Value></member><member><Key>empty</Key><Value></Value></member></Tags><IsTruncated>false</IsTruncated>") {
		t.Errorf("ListUserTags answer: %s", a.body)
	}
	must(t, call(t, s, adminCaller, "UntagUser", "UserName", "bob", "TagKeys.member.1", "team", "TagKeys.member.2", "absent"))
	if d := cmp.Diff(map[string]string{"empty": ""}, s.UserTags("bob")); d != "" {
		t.Errorf("tags after UntagUser (-want +got):\n%s", d)
	}

	// Up to 50, then LimitExceeded; paging by MaxItems and Marker.
	for i := 1; i < maxUserTags; i++ {
		must(t, call(t, s, adminCaller, "TagUser", "UserName", "bob", "Tags.member.1.Key", "k"+strconv.Itoa(i), "Tags.member.1.Value", "v"))
	}
	a = call(t, s, adminCaller, "TagUser", "UserName", "bob", "Tags.member.1.Key", "one-too-many", "Tags.member.1.Value", "v")
	if a.status != 409 || a.code != "LimitExceeded" {
		t.Errorf("51st tag: %d %s %q, want 409 LimitExceeded", a.status, a.code, a.msg)
	}
	// Rewriting a key there already is no new tag.
	must(t, call(t, s, adminCaller, "TagUser", "UserName", "bob", "Tags.member.1.Key", "k1", "Tags.member.1.Value", "w"))
	page := must(t, call(t, s, adminCaller, "ListUserTags", "UserName", "bob", "MaxItems", "30"))
	marker := markerRe.FindStringSubmatch(page.body)
	if !strings.Contains(page.body, "<IsTruncated>true</IsTruncated>") || marker == nil {
		t.Fatalf("first page of 50 tags by 30: %s", page.body)
	}
	rest := must(t, call(t, s, adminCaller, "ListUserTags", "UserName", "bob", "MaxItems", "30", "Marker", marker[1]))
	if n := strings.Count(page.body, "<member>") + strings.Count(rest.body, "<member>"); n != maxUserTags || !strings.Contains(rest.body, "<IsTruncated>false</IsTruncated>") {
		t.Errorf("pages hold %d tags, want %d: %s", n, maxUserTags, rest.body)
	}

	for _, tc := range []struct {
		name, action, code string
		kv                 []string
	}{
		{"empty key", "TagUser", "InvalidInput", []string{"UserName", "alice", "Tags.member.1.Key", "", "Tags.member.1.Value", "v"}},
		{"key of 129", "TagUser", "InvalidInput", []string{"UserName", "alice", "Tags.member.1.Key", strings.Repeat("k", 129), "Tags.member.1.Value", "v"}},
		{"value of 257", "TagUser", "InvalidInput", []string{"UserName", "alice", "Tags.member.1.Key", "k", "Tags.member.1.Value", strings.Repeat("v", 257)}},
		{"key with a forbidden character", "TagUser", "InvalidInput", []string{"UserName", "alice", "Tags.member.1.Key", "a*b", "Tags.member.1.Value", "v"}},
		{"the same key twice", "TagUser", "InvalidInput", []string{"UserName", "alice", "Tags.member.1.Key", "k", "Tags.member.1.Value", "v", "Tags.member.2.Key", "K", "Tags.member.2.Value", "w"}},
		{"no tags", "TagUser", "InvalidInput", []string{"UserName", "alice"}},
		{"no keys", "UntagUser", "InvalidInput", []string{"UserName", "alice"}},
		{"no such user (tag)", "TagUser", "NoSuchEntity", []string{"UserName", "nobody", "Tags.member.1.Key", "k", "Tags.member.1.Value", "v"}},
		{"no such user (untag)", "UntagUser", "NoSuchEntity", []string{"UserName", "nobody", "TagKeys.member.1", "k"}},
		{"no such user (list)", "ListUserTags", "NoSuchEntity", []string{"UserName", "nobody"}},
		{"bad tag on CreateUser", "CreateUser", "InvalidInput", []string{"UserName", "carol", "Tags.member.1.Key", strings.Repeat("k", 129), "Tags.member.1.Value", "v"}},
	} {
		if a := call(t, s, adminCaller, tc.action, tc.kv...); a.code != tc.code {
			t.Errorf("%s: answer %d %s %q, want %s", tc.name, a.status, a.code, a.msg, tc.code)
		}
	}
	if s.UserTags("carol") != nil {
		t.Error("a CreateUser refused for its tags made the user")
	}
}
