package emulator

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An echo fault answers an error that quotes the part of the request's
// secret it was told to, where it was told to.
func TestEchoFault(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	token := "models-api-key-" + strings.Repeat("QmVkcm9ja0FQSUtleQ", 4) // 87 characters
	converse := func() (int, http.Header, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/model/m/converse", strings.NewReader(`{"messages":[]}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	for _, tc := range []struct {
		fault    string
		inBody   string
		inHeader string
	}{
		{`{"operation":"Converse","kind":"echo","field":"bearer_token"}`, "value '" + token[:40] + "' of the request's bearer_token", ""},
		{`{"operation":"Converse","kind":"echo","field":"bearer_token","chars":20,"offset":5,"where":"request_id"}`, "its request id quotes", "req-" + token[5:25]},
		{`{"operation":"Converse","kind":"echo","field":"bearer_token","chars":500,"where":"message_end"}`, ": " + token + `"`, ""},
		{`{"operation":"Converse","kind":"echo","field":"bearer_token","chars":12,"where":"message_start"}`, `"message":"` + token[:12] + " was refused", ""},
		{`{"operation":"Converse","kind":"echo","field":"session_token"}`, "the request carried no session_token", ""},
	} {
		if code, body := injectEcho(t, srv.URL, tc.fault); code != http.StatusCreated {
			t.Fatalf("%s: %d %s", tc.fault, code, body)
		}
		code, header, body := converse()
		if code != http.StatusBadRequest || !strings.Contains(body, `"__type":"ValidationException"`) || !strings.Contains(body, tc.inBody) {
			t.Errorf("%s: %d %s, want 400 ValidationException with %q", tc.fault, code, body, tc.inBody)
		}
		if tc.inHeader != "" && header.Get("X-Amzn-RequestId") != tc.inHeader {
			t.Errorf("%s: request id %q, want %q", tc.fault, header.Get("X-Amzn-RequestId"), tc.inHeader)
		}
		if calls := e.Calls(); calls[len(calls)-1].Fault != FaultEcho {
			t.Errorf("%s: the log says fault %q", tc.fault, calls[len(calls)-1].Fault)
		}
	}
	for _, bad := range []string{
		`{"kind":"echo"}`,
		`{"kind":"echo","field":"x","where":"footer"}`,
		`{"kind":"echo","field":"x","where":"validation_failure","status":400}`,
		`{"kind":"echo","field":"x","chars":-1}`,
		`{"kind":"echo","field":"x","status":302}`,
		`{"kind":"error","field":"x"}`,
	} {
		if code, body := injectEcho(t, srv.URL, bad); code != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", bad, code, body)
		}
	}
}

// The body member an echo fault quotes is found at any depth of a JSON
// body, and in a form body by its name or as the last part of one.
func TestEchoFaultBodyField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, field, want string }{
		{`{"AdvancedSecurityOptions":{"MasterUserOptions":{"MasterUserName":"a","MasterUserPassword":"pw-1"}}}`, "MasterUserPassword", "pw-1"},
		{`{"list":[{"x":1},{"Secret":"s"}]}`, "Secret", "s"},
		{`Action=X&Password=p%21w&Version=1`, "Password", "p!w"},
		{`Action=X&Tags.member.1.Value=v`, "Value", "v"},
		{`{"a":"b"}`, "Missing", ""},
	} {
		if got := bodyField([]byte(tc.body), tc.field); got != tc.want {
			t.Errorf("bodyField(%s, %s) = %q, want %q", tc.body, tc.field, got, tc.want)
		}
	}
}

func injectEcho(t *testing.T, base, fault string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/_admin/faults", strings.NewReader(fault))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
