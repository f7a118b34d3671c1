package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// TestDoRequestURL: the request reaches the service at the endpoint's
// path joined with the request's, escapes kept as the request wrote them
// (a domain name with %2F stays one segment), with its query (a space as
// %20, as the SigV4 signer writes it) and the endpoint's host, and signed.
func TestDoRequestURL(t *testing.T) {
	t.Parallel()
	type seen struct{ uri, host, auth string }
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.RequestURI, r.Host, r.Header.Get("Authorization")}
	}))
	defer srv.Close()
	for name, tc := range map[string]struct {
		base, path string
		query      url.Values
		want       string
	}{
		"plain":             {base: "", path: "/", want: "/"},
		"base path":         {base: "/api/", path: "/2021-01-01/domain/a/config", want: "/api/2021-01-01/domain/a/config"},
		"escaped segment":   {base: "", path: "/2021-01-01/domain/a%2Fb/config", want: "/2021-01-01/domain/a%2Fb/config"},
		"escaped base path": {base: "/a%20b", path: "/x%2Fy", want: "/a%20b/x%2Fy"},
		"query":             {base: "", path: "/list", query: url.Values{"b": {"2"}, "a": {"1 2"}}, want: "/list?a=1%202&b=2"},
	} {
		c := newClient(t, srv.URL+tc.base)
		if _, err := c.Do(context.Background(), &client.Request{Operation: "Test", Method: http.MethodGet, Path: tc.path, Query: tc.query, Idempotent: true}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := <-got
		if s.uri != tc.want || s.host != strings.TrimPrefix(srv.URL, "http://") {
			t.Errorf("%s: request for %q at %q, want %q at %q", name, s.uri, s.host, tc.want, strings.TrimPrefix(srv.URL, "http://"))
		}
		if !strings.HasPrefix(s.auth, "AWS4-HMAC-SHA256 Credential=AKIDTESTTESTTEST01/") {
			t.Errorf("%s: not signed: %q", name, s.auth)
		}
	}
}
