package identity

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
)

const adminArn = "arn:cloud:identity::123456789012:user/emulator-admin"

var adminCaller = &core.Caller{Principal: adminArn, Account: "123456789012", Region: "us-east-1"}

type answer struct {
	status int
	code   string
	msg    string
	body   string
}

// call sends one Query action to s as caller.
func call(t *testing.T, s *Service, caller *core.Caller, action string, kv ...string) answer {
	t.Helper()
	form := url.Values{"Action": {action}, "Version": {apiVersion}}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Set(kv[i], kv[i+1])
	}
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// A caller is per request (the server makes one for each): the
	// authorized actions recorded on it are this call's only.
	c := *caller
	r = r.WithContext(core.WithCaller(r.Context(), &c))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	a := answer{status: w.Code, body: w.Body.String()}
	if w.Code >= 300 {
		var e struct {
			Error struct{ Code, Message string } `xml:"Error"`
		}
		if err := xml.Unmarshal(w.Body.Bytes(), &e); err != nil {
			t.Fatalf("%s: undecodable error %q", action, a.body)
		}
		a.code, a.msg = e.Error.Code, e.Error.Message
	}
	return a
}

func must(t *testing.T, a answer) answer {
	t.Helper()
	if a.status != http.StatusOK {
		t.Fatalf("answer %d %s: %s", a.status, a.code, a.msg)
	}
	return a
}

var (
	idRe    = regexp.MustCompile(`<ServiceSpecificCredentialId>([^<]+)<`)
	valueRe = regexp.MustCompile(`<ServiceApiKeyValue>([^<]+)<`)
)

func newService(t *testing.T) (*Service, *core.Clock) {
	t.Helper()
	clock := core.NewClock()
	s := New(clock, "123456789012")
	must(t, call(t, s, adminCaller, "CreateUser", "UserName", "alice"))
	return s, clock
}

func createKey(t *testing.T, s *Service, kv ...string) (id, value string) {
	t.Helper()
	a := must(t, call(t, s, adminCaller, "CreateServiceSpecificCredential", append([]string{"UserName", "alice", "ServiceName", "models.cloud.example"}, kv...)...))
	return idRe.FindStringSubmatch(a.body)[1], valueRe.FindStringSubmatch(a.body)[1]
}

func TestCredentialRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params []string
		status int
		code   string
		inMsg  string
	}{
		{"ok", []string{"UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "30"}, 200, "", ""},
		{"no age", []string{"UserName", "alice", "ServiceName", "models.cloud.example"}, 400, "InvalidInput", "CredentialAgeDays is required"},
		{"min age", []string{"UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "1"}, 200, "", ""},
		{"max age", []string{"UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "36600"}, 200, "", ""},
		{"age zero", []string{"UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "0"}, 400, "InvalidInput", "CredentialAgeDays"},
		{"age too big", []string{"UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "36601"}, 400, "InvalidInput", "CredentialAgeDays"},
		{"age not a number", []string{"UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "x"}, 400, "InvalidInput", "CredentialAgeDays"},
		{"unknown service", []string{"UserName", "alice", "ServiceName", "nope.cloud.example"}, 400, "NotSupportedService", "ServiceName"},
		{"no service", []string{"UserName", "alice"}, 400, "InvalidInput", "ServiceName"},
		{"unknown user", []string{"UserName", "bob", "ServiceName", "models.cloud.example"}, 404, "NoSuchEntity", "bob"},
		{"bad user name", []string{"UserName", "a b", "ServiceName", "models.cloud.example"}, 400, "InvalidInput", "UserName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newService(t)
			a := call(t, s, adminCaller, "CreateServiceSpecificCredential", tt.params...)
			if a.status != tt.status || a.code != tt.code || !strings.Contains(a.msg, tt.inMsg) {
				t.Errorf("got %d %s %q, want %d %s containing %q", a.status, a.code, a.msg, tt.status, tt.code, tt.inMsg)
			}
		})
	}
}

func TestCredentialLifecycle(t *testing.T) {
	t.Parallel()
	s, clock := newService(t)
	id, value := createKey(t, s, "CredentialAgeDays", "30")
	if !regexp.MustCompile(`^CLOUDK[A-Za-z0-9_-]{64}$`).MatchString(value) {
		t.Errorf("key value %q is not in the documented format", value)
	}
	info, ok := s.LookupServiceAPIKey(value)
	want := KeyInfo{UserName: "alice", UserArn: "arn:cloud:identity::123456789012:user/alice", ServiceName: "models.cloud.example",
		CredentialID: id, Status: "Active", Region: "us-east-1", Expiration: info.Expiration}
	if diff := cmp.Diff(want, info); !ok || diff != "" {
		t.Fatalf("Lookup (-want +got) ok=%v:\n%s", ok, diff)
	}
	if d := info.Expiration.Sub(clock.Now()); d < 30*24*time.Hour-time.Minute || d > 30*24*time.Hour {
		t.Errorf("expiration in %v, want 30 days", d)
	}

	// The list never shows the value.
	a := must(t, call(t, s, adminCaller, "ListServiceSpecificCredentials", "UserName", "alice", "ServiceName", "models.cloud.example"))
	if strings.Contains(a.body, value) || strings.Contains(a.body, "ServiceApiKeyValue") {
		t.Errorf("list shows the key value: %s", a.body)
	}
	if !strings.Contains(a.body, id) || !strings.Contains(a.body, "<ExpirationDate>") {
		t.Errorf("list lacks the key: %s", a.body)
	}

	// Inactive and back.
	for _, st := range []string{"Inactive", "Active", "Inactive"} {
		must(t, call(t, s, adminCaller, "UpdateServiceSpecificCredential", "UserName", "alice", "ServiceSpecificCredentialId", id, "Status", st))
		if info, _ := s.LookupServiceAPIKey(value); info.Status != st {
			t.Errorf("status %s, want %s", info.Status, st)
		}
	}
	if a := call(t, s, adminCaller, "UpdateServiceSpecificCredential", "UserName", "alice", "ServiceSpecificCredentialId", id, "Status", "Expired"); a.code != "InvalidInput" || !strings.Contains(a.msg, "Status") {
		t.Errorf("bad status: %d %s %s", a.status, a.code, a.msg)
	}

	// Reset: new value, same id and status; the old value stops working.
	a = must(t, call(t, s, adminCaller, "ResetServiceSpecificCredential", "UserName", "alice", "ServiceSpecificCredentialId", id))
	newValue := valueRe.FindStringSubmatch(a.body)[1]
	if newValue == value || idRe.FindStringSubmatch(a.body)[1] != id || !strings.Contains(a.body, "<Status>Inactive</Status>") {
		t.Errorf("reset answer: %s", a.body)
	}
	if _, ok := s.LookupServiceAPIKey(value); ok {
		t.Error("the old value still works after a reset")
	}
	if _, ok := s.LookupServiceAPIKey(newValue); !ok {
		t.Error("the new value does not work")
	}

	// The user cannot be deleted while it holds the key.
	if a := call(t, s, adminCaller, "DeleteUser", "UserName", "alice"); a.code != "DeleteConflict" {
		t.Errorf("DeleteUser with a key: %d %s", a.status, a.code)
	}
	must(t, call(t, s, adminCaller, "DeleteServiceSpecificCredential", "UserName", "alice", "ServiceSpecificCredentialId", id))
	if _, ok := s.LookupServiceAPIKey(newValue); ok {
		t.Error("a deleted key still works")
	}
	for _, op := range []string{"DeleteServiceSpecificCredential", "ResetServiceSpecificCredential"} {
		if a := call(t, s, adminCaller, op, "UserName", "alice", "ServiceSpecificCredentialId", id); a.status != 404 || a.code != "NoSuchEntity" {
			t.Errorf("%s of a deleted key: %d %s", op, a.status, a.code)
		}
	}
	if a := call(t, s, adminCaller, "UpdateServiceSpecificCredential", "UserName", "alice", "ServiceSpecificCredentialId", "short", "Status", "Active"); a.code != "InvalidInput" || !strings.Contains(a.msg, "ServiceSpecificCredentialId") {
		t.Errorf("bad id: %d %s %s", a.status, a.code, a.msg)
	}
	must(t, call(t, s, adminCaller, "DeleteUser", "UserName", "alice"))
}

func TestCredentialLimitAndRegion(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	createKey(t, s, "CredentialAgeDays", "30")
	createKey(t, s, "CredentialAgeDays", "30")
	a := call(t, s, adminCaller, "CreateServiceSpecificCredential", "UserName", "alice", "ServiceName", "models.cloud.example", "CredentialAgeDays", "30")
	if a.status != http.StatusConflict || a.code != "LimitExceeded" || !strings.Contains(a.msg, "ServiceSpecificCredentialsPerUserPerService: 2") {
		t.Errorf("third key: %d %s %q", a.status, a.code, a.msg)
	}
	must(t, call(t, s, adminCaller, "CreateUser", "UserName", "bob"))
	west := &core.Caller{Principal: adminArn, Region: "eu-west-1"}
	a = must(t, call(t, s, west, "CreateServiceSpecificCredential", "UserName", "bob", "ServiceName", "models.cloud.example", "CredentialAgeDays", "30"))
	info, _ := s.LookupServiceAPIKey(valueRe.FindStringSubmatch(a.body)[1])
	if info.Region != "eu-west-1" || info.Expiration.IsZero() {
		t.Errorf("key info %+v: want region eu-west-1 and an expiry", info)
	}
	if _, ok := s.LookupServiceAPIKey("CLOUDKnotakey"); ok {
		t.Error("an unknown value was found")
	}
}

func TestPolicyAttachments(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	tests := []struct {
		name   string
		action string
		params []string
		status int
		code   string
		inMsg  string
	}{
		{"attach", "AttachUserPolicy", []string{"UserName", "alice", "PolicyArn", policy.ModelsLimitedAccess}, 200, "", ""},
		{"attach again", "AttachUserPolicy", []string{"UserName", "alice", "PolicyArn", policy.ModelsLimitedAccess}, 200, "", ""},
		{"bad arn", "AttachUserPolicy", []string{"UserName", "alice", "PolicyArn", "arn:aws:iam::aws:policy/X"}, 400, "InvalidInput", "PolicyArn"},
		{"unknown policy", "AttachUserPolicy", []string{"UserName", "alice", "PolicyArn", "arn:cloud:identity::cloud:policy/Nope"}, 404, "NoSuchEntity", "Nope"},
		{"unknown user", "AttachUserPolicy", []string{"UserName", "bob", "PolicyArn", policy.ModelsLimitedAccess}, 404, "NoSuchEntity", "bob"},
		{"delete with policy", "DeleteUser", []string{"UserName", "alice"}, 409, "DeleteConflict", "policies"},
		{"detach", "DetachUserPolicy", []string{"UserName", "alice", "PolicyArn", policy.ModelsLimitedAccess}, 200, "", ""},
		{"detach again", "DetachUserPolicy", []string{"UserName", "alice", "PolicyArn", policy.ModelsLimitedAccess}, 404, "NoSuchEntity", "not found"},
		{"list bad max", "ListAttachedUserPolicies", []string{"UserName", "alice", "MaxItems", "0"}, 400, "InvalidInput", "MaxItems"},
		{"list bad marker", "ListAttachedUserPolicies", []string{"UserName", "alice", "Marker", "zzz"}, 400, "InvalidInput", "Marker"},
	}
	for _, tt := range tests { // in order: each step builds on the last
		a := call(t, s, adminCaller, tt.action, tt.params...)
		if a.status != tt.status || a.code != tt.code || !strings.Contains(a.msg, tt.inMsg) {
			t.Errorf("%s: got %d %s %q, want %d %s containing %q", tt.name, a.status, a.code, a.msg, tt.status, tt.code, tt.inMsg)
		}
	}
}

func TestListAttachedUserPoliciesPages(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	for _, m := range policy.Catalogue() {
		must(t, call(t, s, adminCaller, "AttachUserPolicy", "UserName", "alice", "PolicyArn", m.Arn))
	}
	var got []string
	marker := ""
	pages := 0
	for {
		params := []string{"UserName", "alice", "MaxItems", "3"}
		if marker != "" {
			params = append(params, "Marker", marker)
		}
		a := must(t, call(t, s, adminCaller, "ListAttachedUserPolicies", params...))
		pages++
		var out struct {
			Result struct {
				Arns        []string `xml:"AttachedPolicies>member>PolicyArn"`
				IsTruncated bool     `xml:"IsTruncated"`
				Marker      string   `xml:"Marker"`
			} `xml:"ListAttachedUserPoliciesResult"`
		}
		if err := xml.Unmarshal([]byte(a.body), &out); err != nil {
			t.Fatal(err)
		}
		got = append(got, out.Result.Arns...)
		if !out.Result.IsTruncated {
			break
		}
		marker = out.Result.Marker
	}
	var want []string
	for _, m := range policy.Catalogue() {
		want = append(want, m.Arn)
	}
	if diff := cmp.Diff(want, got); diff != "" || pages != (len(want)+2)/3 {
		t.Errorf("pages=%d, policies (-want +got):\n%s", pages, diff)
	}
}

func TestAuthorizeCreateCredential(t *testing.T) {
	t.Parallel()
	capDoc := `{"Version":"2012-10-17","Statement":[{"Sid":"CapKeyAge","Effect":"Allow","Action":"identity:CreateServiceSpecificCredential","Resource":"*",
	  "Condition":{"NumericLessThanEquals":{"identity:ServiceSpecificCredentialAgeDays":"90"},"StringEquals":{"identity:ServiceSpecificCredentialServiceName":"models.cloud.example"}}}]}`
	denyUsers := `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"identity:DeleteUser","Resource":"*"}]}`
	tests := []struct {
		name   string
		docs   []string
		action string
		params []string
		status int
		inMsg  string
	}{
		{"admin without policies", nil, "CreateServiceSpecificCredential", []string{"CredentialAgeDays", "120"}, 200, ""},
		{"cap allows 90", []string{capDoc}, "CreateServiceSpecificCredential", []string{"CredentialAgeDays", "90"}, 200, ""},
		{"cap refuses 120", []string{capDoc}, "CreateServiceSpecificCredential", []string{"CredentialAgeDays", "120"}, 403, `CredentialAgeDays 120) because no policy allows it (implicit deny); the condition of Allow statement "CapKeyAge" (requires identity:ServiceSpecificCredentialAgeDays NumericLessThanEquals 90) is not met`},
		{"no expiry refused before any policy", []string{capDoc}, "CreateServiceSpecificCredential", nil, 400, "CredentialAgeDays is required"},
		{"cap leaves other actions", []string{capDoc}, "ListServiceSpecificCredentials", nil, 200, ""},
		{"explicit deny of another action", []string{capDoc, denyUsers}, "DeleteUser", nil, 403, "explicit deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newService(t)
			for _, d := range tt.docs {
				if _, err := s.AttachPrincipalPolicy(adminArn, "", []byte(d)); err != nil {
					t.Fatal(err)
				}
			}
			params := []string{"UserName", "alice"}
			if tt.action == "CreateServiceSpecificCredential" {
				params = append(params, "ServiceName", "models.cloud.example")
			}
			a := call(t, s, adminCaller, tt.action, append(params, tt.params...)...)
			if a.status != tt.status || !strings.Contains(a.msg, tt.inMsg) {
				t.Errorf("got %d %s %q, want %d containing %q", a.status, a.code, a.msg, tt.status, tt.inMsg)
			}
			if tt.status == 403 && a.code != "AccessDenied" {
				t.Errorf("code %s, want AccessDenied", a.code)
			}
		})
	}
}

func TestAuthorizeRuntime(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	userArn := "arn:cloud:identity::123456789012:user/alice"
	act := "models:CallWithBearerToken"
	long := map[string]string{"models:bearerTokenType": "LONG_TERM"}
	if d := s.Authorize(userArn, act, "*", long); d != policy.ImplicitDeny {
		t.Errorf("no policies: %v", d)
	}
	must(t, call(t, s, adminCaller, "AttachUserPolicy", "UserName", "alice", "PolicyArn", policy.ModelsLimitedAccess))
	if d := s.Authorize(userArn, act, "*", long); d != policy.Allow {
		t.Errorf("limited access: %v", d)
	}
	must(t, call(t, s, adminCaller, "AttachUserPolicy", "UserName", "alice", "PolicyArn", policy.DenyShortTermBearerTokens))
	if d := s.Authorize(userArn, act, "*", long); d != policy.Allow {
		t.Errorf("deny short, long key: %v", d)
	}
	if _, err := s.AttachPrincipalPolicy(userArn, "block", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"models:*","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	if d := s.Authorize(userArn, act, "*", long); d != policy.ExplicitDeny {
		t.Errorf("admin-attached deny: %v", d)
	}
	if !s.DetachPrincipalPolicy(userArn, "") || s.Authorize(userArn, act, "*", long) != policy.Allow {
		t.Error("detaching the principal policy did not restore access")
	}
}

func TestAdminRoutes(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	createKey(t, s, "CredentialAgeDays", "7")
	h := s.Admin()
	do := func(method, target, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, target, strings.NewReader(body)))
		return w
	}
	w := do("POST", "/principal-policies", `{"principal":"`+adminArn+`","document":{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"identity:DeleteUser","Resource":"*"}]}}`)
	if w.Code != http.StatusCreated {
		t.Fatalf("attach: %d %s", w.Code, w.Body)
	}
	if w := do("POST", "/principal-policies", `{"principal":"x","document":{"Version":"1"}}`); w.Code != http.StatusBadRequest {
		t.Errorf("bad document: %d", w.Code)
	}
	if w := do("GET", "/principal-policies?principal="+url.QueryEscape(adminArn), ""); !strings.Contains(w.Body.String(), "identity:DeleteUser") {
		t.Errorf("list: %s", w.Body)
	}
	w = do("GET", "/state", "")
	if !strings.Contains(w.Body.String(), `"user_name":"alice"`) || strings.Contains(w.Body.String(), KeyPrefix) {
		t.Errorf("state: %s", w.Body)
	}
	if w := do("DELETE", "/principal-policies?principal="+url.QueryEscape(adminArn), ""); w.Code != http.StatusNoContent {
		t.Errorf("detach: %d", w.Code)
	}
	if w := do("GET", "/policies", ""); !strings.Contains(w.Body.String(), policy.ModelsLimitedAccess) {
		t.Errorf("policies: %s", w.Body)
	}
	if n := len(s.CredentialIDs("alice")); n != 1 {
		t.Errorf("CredentialIDs: %d", n)
	}
}
