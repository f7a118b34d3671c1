package identity

import (
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

type listUsersPage struct {
	Result struct {
		Users       []struct{ UserName string } `xml:"Users>member"`
		IsTruncated bool                        `xml:"IsTruncated"`
		Marker      string                      `xml:"Marker"`
	} `xml:"ListUsersResult"`
}

func listUsers(t *testing.T, s *Service, kv ...string) (names []string, truncated bool, marker string) {
	t.Helper()
	a := must(t, call(t, s, adminCaller, "ListUsers", kv...))
	var p listUsersPage
	if err := xml.Unmarshal([]byte(a.body), &p); err != nil {
		t.Fatalf("ListUsers answer %q: %v", a.body, err)
	}
	for _, u := range p.Result.Users {
		names = append(names, u.UserName)
	}
	return names, p.Result.IsTruncated, p.Result.Marker
}

// ListUsers honours MaxItems and Marker as IAM does: pages in name order,
// IsTruncated and a Marker until the last page, and a user created between
// pages neither repeats nor shifts one.
func TestListUsersPages(t *testing.T) {
	t.Parallel()
	s, _ := newService(t) // alice
	for i := range 6 {
		must(t, call(t, s, adminCaller, "CreateUser", "UserName", "user-"+strconv.Itoa(i)))
	}
	all, truncated, _ := listUsers(t, s)
	if truncated || len(all) != 7 {
		t.Fatalf("default page: %v (truncated %v), want all 7 users", all, truncated)
	}

	var got []string
	names, truncated, marker := listUsers(t, s, "MaxItems", "3")
	got = append(got, names...)
	if !truncated || marker == "" || len(names) != 3 {
		t.Fatalf("first page %v truncated %v marker %q", names, truncated, marker)
	}
	// A user that sorts into the part already listed: not on a later page.
	must(t, call(t, s, adminCaller, "CreateUser", "UserName", "aaron"))
	for truncated {
		names, truncated, marker = listUsers(t, s, "MaxItems", "3", "Marker", marker)
		got = append(got, names...)
	}
	if d := cmp.Diff(all, got); d != "" {
		t.Errorf("pages (-want +got):\n%s", d)
	}

	for _, tc := range []struct{ name, key, value string }{
		{"MaxItems 0", "MaxItems", "0"},
		{"MaxItems 1001", "MaxItems", "1001"},
		{"MaxItems not a number", "MaxItems", "ten"},
		{"a marker this service did not return", "Marker", "bm90LWEtbWFya2Vy"},
		{"a marker that is not base64", "Marker", "%%%"},
	} {
		a := call(t, s, adminCaller, "ListUsers", tc.key, tc.value)
		if a.status != 400 || a.code != "InvalidInput" {
			t.Errorf("%s: answer %d %s %q, want 400 InvalidInput", tc.name, a.status, a.code, a.msg)
		}
	}
}

// ListUsers checks PathPrefix with rules.UserPathPrefix, the rule the
// provider's path_prefix validators use: a prefix that does not begin
// with /, holds a character that is not printable ASCII, is empty or
// longer than 512 characters is refused with InvalidInput naming
// PathPrefix, before any user is listed; one of the form lists the users
// under it.
func TestListUsersPathPrefix(t *testing.T) {
	t.Parallel()
	s, _ := newService(t) // alice, at /
	must(t, call(t, s, adminCaller, "CreateUser", "UserName", "app", "Path", "/apps/"))
	for _, c := range []struct {
		prefix string
		want   []string // nil: refused
	}{
		{"/", []string{"alice", "app"}},
		{"/apps/", []string{"app"}},
		{"/" + strings.Repeat("p", 511), []string{}},
		{"/ops/", []string{}},
		{"apps/", nil},
		{"/a b/", nil},
		{"/é/", nil},
		{"", nil},
		{"/" + strings.Repeat("p", 512), nil},
	} {
		a := call(t, s, adminCaller, "ListUsers", "PathPrefix", c.prefix)
		if c.want == nil {
			if a.status != http.StatusBadRequest || a.code != "InvalidInput" || !strings.Contains(a.msg, "PathPrefix") {
				t.Errorf("PathPrefix %.20q: got %d %s %q, want 400 InvalidInput naming PathPrefix", c.prefix, a.status, a.code, a.msg)
			}
			continue
		}
		names, _, _ := listUsers(t, s, "PathPrefix", c.prefix)
		if d := cmp.Diff(c.want, names, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("PathPrefix %.20q (-want +got):\n%s", c.prefix, d)
		}
	}
}
