package identity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// fake answers every request with status and body, and records the forms.
func fake(t *testing.T, status int, body string, header http.Header) (*Client, *[]url.Values) {
	t.Helper()
	var forms []url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f, _ := url.ParseQuery(string(b))
		forms = append(forms, f)
		for k, v := range header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := New(client.Config{
		Region:         "us-east-1",
		Credentials:    client.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"},
		MaxRetries:     1,
		RetryBaseDelay: time.Millisecond,
		RetryMaxDelay:  time.Millisecond,
	}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c, &forms
}

func errorBody(code, msg string) string {
	return fmt.Sprintf(`<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>req-1</RequestId></ErrorResponse>`, code, msg)
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		body     string
		wantKind error
		wantCode string
		wantMsg  string
	}{
		{"NoSuchEntity", 404, errorBody("NoSuchEntity", "The user with name bob cannot be found."), client.ErrNotFound, "NoSuchEntity", "The user with name bob cannot be found."},
		{"EntityAlreadyExists", 409, errorBody("EntityAlreadyExists", "exists"), client.ErrAlreadyExists, "EntityAlreadyExists", "exists"},
		{"LimitExceeded", 409, errorBody("LimitExceeded", "Cannot exceed quota"), client.ErrLimitExceeded, "LimitExceeded", "Cannot exceed quota"},
		{"DeleteConflict", 409, errorBody("DeleteConflict", "must detach"), client.ErrDeleteConflict, "DeleteConflict", "must detach"},
		{"InvalidInput", 400, errorBody("InvalidInput", "CredentialAgeDays bad"), client.ErrInvalidInput, "InvalidInput", "CredentialAgeDays bad"},
		{"NotSupportedService", 400, errorBody("NotSupportedService", "no"), client.ErrInvalidInput, "NotSupportedService", "no"},
		{"Throttling", 400, errorBody("Throttling", "Rate exceeded"), client.ErrThrottled, "Throttling", "Rate exceeded"},
		{"ServiceFailure", 500, errorBody("ServiceFailure", "boom"), client.ErrInternal, "ServiceFailure", "boom"},
		{"AccessDenied", 403, errorBody("AccessDenied", "not authorized"), client.ErrAccessDenied, "AccessDenied", "not authorized"},
		{"SignatureDoesNotMatch", 403, errorBody("SignatureDoesNotMatch", "sig"), client.ErrAuthentication, "SignatureDoesNotMatch", "sig"},
		{"unknown code 404", 404, errorBody("Mystery", "m"), client.ErrNotFound, "Mystery", "m"},
		{"unknown code 403", 403, errorBody("Mystery", "m"), client.ErrAccessDenied, "Mystery", "m"},
		{"unknown code 409", 409, errorBody("Mystery", "m"), client.ErrLimitExceeded, "Mystery", "m"},
		{"unknown code 400", 400, errorBody("Mystery", "m"), client.ErrBase, "Mystery", "m"},
		{"unknown code 503", 503, errorBody("Mystery", "m"), client.ErrInternal, "Mystery", "m"},
		{"unreadable body", 502, "<html>bad gateway</html>", client.ErrInternal, "Bad Gateway", "the service answered without a readable error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := fake(t, tt.status, tt.body, nil)
			_, err := c.GetUser(context.Background(), "bob")
			if !errors.Is(err, tt.wantKind) {
				t.Fatalf("error %v is not %v", err, tt.wantKind)
			}
			var apiErr *client.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %T is not an *client.APIError", err)
			}
			got := []any{apiErr.StatusCode, apiErr.Code, apiErr.Message, apiErr.Operation}
			want := []any{tt.status, tt.wantCode, tt.wantMsg, "GetUser"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("APIError (-want +got):\n%s", diff)
			}
		})
	}
}

func result(action, inner string) string {
	return fmt.Sprintf(`<?xml version="1.0"?><%[1]sResponse xmlns="https://identity.cloud.example/doc/2010-05-08/"><%[1]sResult>%[2]s</%[1]sResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></%[1]sResponse>`, action, inner)
}

var (
	t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	t1 = t0.Add(30 * 24 * time.Hour)
)

const credXML = `<ServiceSpecificCredential><UserName>alice</UserName><ServiceName>models.cloud.example</ServiceName><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPQ</ServiceSpecificCredentialId><ServiceApiKeyValue>CLOUDKsecret</ServiceApiKeyValue><Status>Active</Status><CreateDate>2026-01-02T03:04:05Z</CreateDate><ExpirationDate>2026-02-01T03:04:05Z</ExpirationDate></ServiceSpecificCredential>`

func TestResultShapes(t *testing.T) {
	t.Parallel()
	cred := &ServiceSpecificCredential{UserName: "alice", ServiceName: "models.cloud.example", ServiceSpecificCredentialID: "ACCAABCDEFGHIJKLMNOPQ",
		ServiceAPIKeyValue: "CLOUDKsecret", Status: "Active", CreateDate: t0, ExpirationDate: t1}
	listed := *cred
	listed.ServiceAPIKeyValue = ""
	noExpiry := listed
	noExpiry.ExpirationDate = time.Time{}
	tests := []struct {
		name     string
		action   string
		inner    string
		call     func(*Client) (any, error)
		want     any
		wantForm url.Values
	}{
		{
			"CreateUser", "CreateUser",
			`<User><UserName>alice</UserName><UserId>AIDAX</UserId><Arn>arn:cloud:identity::123456789012:user/alice</Arn><Path>/</Path><CreateDate>2026-01-02T03:04:05Z</CreateDate></User>`,
			func(c *Client) (any, error) {
				return c.CreateUser(context.Background(), CreateUserInput{UserName: "alice"})
			},
			&User{UserName: "alice", UserID: "AIDAX", Arn: "arn:cloud:identity::123456789012:user/alice", Path: "/", CreateDate: t0},
			url.Values{"Action": {"CreateUser"}, "Version": {"2010-05-08"}, "UserName": {"alice"}},
		},
		{
			"CreateUser with tags", "CreateUser",
			`<User><UserName>alice</UserName><UserId>AIDAX</UserId><Arn>arn:cloud:identity::123456789012:user/alice</Arn><Path>/</Path><CreateDate>2026-01-02T03:04:05Z</CreateDate><Tags><member><Key>team</Key><Value>ml</Value></member></Tags></User>`,
			func(c *Client) (any, error) {
				return c.CreateUser(context.Background(), CreateUserInput{UserName: "alice", Tags: []Tag{{Key: "team", Value: "ml"}, {Key: "empty"}}})
			},
			&User{UserName: "alice", UserID: "AIDAX", Arn: "arn:cloud:identity::123456789012:user/alice", Path: "/", CreateDate: t0, Tags: []Tag{{Key: "team", Value: "ml"}}},
			url.Values{"Action": {"CreateUser"}, "Version": {"2010-05-08"}, "UserName": {"alice"},
				"Tags.member.1.Key": {"team"}, "Tags.member.1.Value": {"ml"}, "Tags.member.2.Key": {"empty"}, "Tags.member.2.Value": {""}},
		},
		{
			"TagUser", "TagUser", ``,
			func(c *Client) (any, error) {
				return nil, c.TagUser(context.Background(), "alice", []Tag{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}})
			},
			nil,
			url.Values{"Action": {"TagUser"}, "Version": {"2010-05-08"}, "UserName": {"alice"},
				"Tags.member.1.Key": {"a"}, "Tags.member.1.Value": {"1"}, "Tags.member.2.Key": {"b"}, "Tags.member.2.Value": {"2"}},
		},
		{
			"UntagUser", "UntagUser", ``,
			func(c *Client) (any, error) {
				return nil, c.UntagUser(context.Background(), "alice", []string{"a", "b"})
			},
			nil,
			url.Values{"Action": {"UntagUser"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "TagKeys.member.1": {"a"}, "TagKeys.member.2": {"b"}},
		},
		{
			"ListUserTags", "ListUserTags",
			`<Tags><member><Key>a</Key><Value>1</Value></member><member><Key>b</Key><Value></Value></member></Tags><IsTruncated>false</IsTruncated>`,
			func(c *Client) (any, error) { return c.ListUserTags(context.Background(), "alice") },
			&UserTags{Tags: []Tag{{Key: "a", Value: "1"}, {Key: "b"}}, ServerTime: t1},
			url.Values{"Action": {"ListUserTags"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "MaxItems": {"100"}},
		},
		{
			"SimulatePrincipalPolicy", "SimulatePrincipalPolicy",
			`<EvaluationResults><member><EvalActionName>identity:CreateServiceSpecificCredential</EvalActionName><EvalResourceName>*</EvalResourceName><EvalDecision>explicitDeny</EvalDecision><MatchedStatements><member><SourcePolicyId>Deny statement "X"</SourcePolicyId><SourcePolicyType>user</SourcePolicyType></member></MatchedStatements><EvalDecisionReason>an explicit deny in Deny statement "X"</EvalDecisionReason></member></EvaluationResults><IsTruncated>false</IsTruncated>`,
			func(c *Client) (any, error) {
				return c.SimulatePrincipalPolicy(context.Background(), SimulatePrincipalPolicyInput{
					PolicySourceArn: "arn:p", ActionNames: []string{"identity:CreateServiceSpecificCredential"},
					ContextEntries: []ContextEntry{{Key: "identity:ServiceSpecificCredentialAgeDays", Values: []string{"30"}, Type: "numeric"}},
				})
			},
			[]EvaluationResult{{EvalActionName: "identity:CreateServiceSpecificCredential", EvalResourceName: "*", EvalDecision: DecisionExplicitDeny,
				MatchedStatements: []MatchedStatement{{SourcePolicyID: `Deny statement "X"`, SourcePolicyType: "user"}}, EvalDecisionReason: `an explicit deny in Deny statement "X"`}},
			url.Values{"Action": {"SimulatePrincipalPolicy"}, "Version": {"2010-05-08"}, "PolicySourceArn": {"arn:p"}, "ActionNames.member.1": {"identity:CreateServiceSpecificCredential"},
				"ContextEntries.member.1.ContextKeyName": {"identity:ServiceSpecificCredentialAgeDays"}, "ContextEntries.member.1.ContextKeyType": {"numeric"}, "ContextEntries.member.1.ContextKeyValues.member.1": {"30"}},
		},
		{
			"AttachUserPolicy", "AttachUserPolicy", ``,
			func(c *Client) (any, error) {
				return nil, c.AttachUserPolicy(context.Background(), "alice", "arn:cloud:identity::cloud:policy/ModelsLimitedAccess")
			},
			nil,
			url.Values{"Action": {"AttachUserPolicy"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "PolicyArn": {"arn:cloud:identity::cloud:policy/ModelsLimitedAccess"}},
		},
		{
			"ListAttachedUserPolicies", "ListAttachedUserPolicies",
			`<AttachedPolicies><member><PolicyName>ModelsLimitedAccess</PolicyName><PolicyArn>arn:cloud:identity::cloud:policy/ModelsLimitedAccess</PolicyArn></member></AttachedPolicies><IsTruncated>false</IsTruncated>`,
			func(c *Client) (any, error) { return c.ListAttachedUserPolicies(context.Background(), "alice") },
			[]AttachedPolicy{{PolicyName: "ModelsLimitedAccess", PolicyArn: "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"}},
			url.Values{"Action": {"ListAttachedUserPolicies"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "MaxItems": {"100"}},
		},
		{
			"CreateServiceSpecificCredential", "CreateServiceSpecificCredential", credXML,
			func(c *Client) (any, error) {
				return c.CreateServiceSpecificCredential(context.Background(), CreateServiceSpecificCredentialInput{UserName: "alice", ServiceName: "models.cloud.example", CredentialAgeDays: 30})
			},
			cred,
			url.Values{"Action": {"CreateServiceSpecificCredential"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "ServiceName": {"models.cloud.example"}, "CredentialAgeDays": {"30"}},
		},
		{
			"ResetServiceSpecificCredential", "ResetServiceSpecificCredential", credXML,
			func(c *Client) (any, error) {
				return c.ResetServiceSpecificCredential(context.Background(), "alice", "ACCAABCDEFGHIJKLMNOPQ")
			},
			cred,
			url.Values{"Action": {"ResetServiceSpecificCredential"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "ServiceSpecificCredentialId": {"ACCAABCDEFGHIJKLMNOPQ"}},
		},
		{
			"ListServiceSpecificCredentials", "ListServiceSpecificCredentials",
			`<ServiceSpecificCredentials><member><UserName>alice</UserName><ServiceName>models.cloud.example</ServiceName><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPQ</ServiceSpecificCredentialId><Status>Active</Status><CreateDate>2026-01-02T03:04:05Z</CreateDate><ExpirationDate>2026-02-01T03:04:05Z</ExpirationDate></member><member><UserName>alice</UserName><ServiceName>models.cloud.example</ServiceName><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPQ</ServiceSpecificCredentialId><Status>Active</Status><CreateDate>2026-01-02T03:04:05Z</CreateDate></member></ServiceSpecificCredentials>`,
			func(c *Client) (any, error) {
				return c.ListServiceSpecificCredentials(context.Background(), "alice", "models.cloud.example")
			},
			&ListServiceSpecificCredentialsOutput{Credentials: []ServiceSpecificCredential{listed, noExpiry}, ServerTime: t1},
			url.Values{"Action": {"ListServiceSpecificCredentials"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "ServiceName": {"models.cloud.example"}},
		},
		{
			"ListServiceSpecificCredentials truncated", "ListServiceSpecificCredentials",
			`<ServiceSpecificCredentials><member><UserName>alice</UserName><ServiceName>models.cloud.example</ServiceName><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPQ</ServiceSpecificCredentialId><Status>Active</Status><CreateDate>2026-01-02T03:04:05Z</CreateDate><ExpirationDate>2026-02-01T03:04:05Z</ExpirationDate></member></ServiceSpecificCredentials><IsTruncated>true</IsTruncated><Marker>m1</Marker>`,
			func(c *Client) (any, error) {
				return c.ListServiceSpecificCredentials(context.Background(), "alice", "")
			},
			&ListServiceSpecificCredentialsOutput{Credentials: []ServiceSpecificCredential{listed}, ServerTime: t1, IsTruncated: true},
			url.Values{"Action": {"ListServiceSpecificCredentials"}, "Version": {"2010-05-08"}, "UserName": {"alice"}},
		},
		{
			"UpdateServiceSpecificCredential", "UpdateServiceSpecificCredential", ``,
			func(c *Client) (any, error) {
				return nil, c.UpdateServiceSpecificCredential(context.Background(), "alice", "ACCAABCDEFGHIJKLMNOPQ", StatusInactive)
			},
			nil,
			url.Values{"Action": {"UpdateServiceSpecificCredential"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "ServiceSpecificCredentialId": {"ACCAABCDEFGHIJKLMNOPQ"}, "Status": {"Inactive"}},
		},
		{
			"DeleteServiceSpecificCredential", "DeleteServiceSpecificCredential", ``,
			func(c *Client) (any, error) {
				return nil, c.DeleteServiceSpecificCredential(context.Background(), "alice", "ACCAABCDEFGHIJKLMNOPQ")
			},
			nil,
			url.Values{"Action": {"DeleteServiceSpecificCredential"}, "Version": {"2010-05-08"}, "UserName": {"alice"}, "ServiceSpecificCredentialId": {"ACCAABCDEFGHIJKLMNOPQ"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, forms := fake(t, 200, result(tt.action, tt.inner), http.Header{"Date": {t1.Format(http.TimeFormat)}})
			got, err := tt.call(c)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff([]url.Values{tt.wantForm}, *forms); diff != "" {
				t.Errorf("request form (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListAttachedUserPoliciesFollowsMarkers(t *testing.T) {
	t.Parallel()
	page := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		page++
		switch r.PostForm.Get("Marker") {
		case "":
			_, _ = io.WriteString(w, result("ListAttachedUserPolicies", `<AttachedPolicies><member><PolicyName>A</PolicyName><PolicyArn>arn:a</PolicyArn></member></AttachedPolicies><IsTruncated>true</IsTruncated><Marker>m1</Marker>`))
		case "m1":
			_, _ = io.WriteString(w, result("ListAttachedUserPolicies", `<AttachedPolicies><member><PolicyName>B</PolicyName><PolicyArn>arn:b</PolicyArn></member></AttachedPolicies><IsTruncated>false</IsTruncated>`))
		default:
			w.WriteHeader(400)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := New(client.Config{Region: "us-east-1", Credentials: client.Credentials{AccessKeyID: "a", SecretAccessKey: "b"}}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.ListAttachedUserPolicies(context.Background(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	want := []AttachedPolicy{{PolicyName: "A", PolicyArn: "arn:a"}, {PolicyName: "B", PolicyArn: "arn:b"}}
	if diff := cmp.Diff(want, got); diff != "" || page != 2 {
		t.Errorf("pages %d, policies (-want +got):\n%s", page, diff)
	}
}

func TestCreateWithLostAnswerIsOutcomeUnknown(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		_ = conn.Close()
	}))
	t.Cleanup(srv.Close)
	c, err := New(client.Config{Region: "us-east-1", Credentials: client.Credentials{AccessKeyID: "a", SecretAccessKey: "b"}, MaxRetries: 2, RetryBaseDelay: time.Millisecond}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateServiceSpecificCredential(context.Background(), CreateServiceSpecificCredentialInput{UserName: "alice", ServiceName: "models.cloud.example", CredentialAgeDays: 30})
	if !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("error %v, want ErrOutcomeUnknown", err)
	}
}

// TestResetWithLostAnswerIsRetried: a reset is safe to repeat, so an
// attempt whose answer is lost is sent again, and the value returned is the
// last attempt's.
func TestResetWithLostAnswerIsRetried(t *testing.T) {
	t.Parallel()
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if attempts.Add(1) == 1 {
			hj, _ := w.(http.Hijacker)
			conn, _, _ := hj.Hijack()
			_ = conn.Close()
			return
		}
		_, _ = io.WriteString(w, `<ResetServiceSpecificCredentialResponse><ResetServiceSpecificCredentialResult><ServiceSpecificCredential>`+
			`<UserName>alice</UserName><ServiceName>models.cloud.example</ServiceName><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPQ</ServiceSpecificCredentialId>`+
			`<ServiceApiKeyValue>CLOUDKsecond</ServiceApiKeyValue><Status>Active</Status><CreateDate>2026-01-02T03:04:05Z</CreateDate>`+
			`</ServiceSpecificCredential></ResetServiceSpecificCredentialResult></ResetServiceSpecificCredentialResponse>`)
	}))
	t.Cleanup(srv.Close)
	c, err := New(client.Config{Region: "us-east-1", Credentials: client.Credentials{AccessKeyID: "a", SecretAccessKey: "b"}, MaxRetries: 2, RetryBaseDelay: time.Millisecond}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cred, err := c.ResetServiceSpecificCredential(context.Background(), "alice", "ACCAABCDEFGHIJKLMNOPQ")
	if err != nil {
		t.Fatalf("reset after a lost answer: %v", err)
	}
	if attempts.Load() != 2 || cred.ServiceAPIKeyValue != "CLOUDKsecond" {
		t.Fatalf("%d attempts, value %q; want 2 attempts and the second answer's value", attempts.Load(), cred.ServiceAPIKeyValue)
	}
}

func TestListUsersPage(t *testing.T) {
	t.Parallel()
	body := result("ListUsers", `<Users><member><UserName>alice</UserName><UserId>AIDA1</UserId><Arn>arn:cloud:identity::123456789012:user/apps/alice</Arn><Path>/apps/</Path><CreateDate>2026-01-02T03:04:05Z</CreateDate></member></Users><IsTruncated>true</IsTruncated><Marker>m1</Marker>`)
	c, forms := fake(t, 200, body, nil)
	got, err := c.ListUsers(context.Background(), ListUsersInput{PathPrefix: "/apps/", Marker: "m0", MaxItems: 50})
	if err != nil {
		t.Fatal(err)
	}
	want := &ListUsersOutput{NextMarker: "m1", Users: []User{{UserName: "alice", UserID: "AIDA1", Arn: "arn:cloud:identity::123456789012:user/apps/alice", Path: "/apps/", CreateDate: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
	wantForm := url.Values{"Action": {"ListUsers"}, "Version": {"2010-05-08"}, "PathPrefix": {"/apps/"}, "Marker": {"m0"}, "MaxItems": {"50"}}
	if diff := cmp.Diff([]url.Values{wantForm}, *forms); diff != "" {
		t.Errorf("request form (-want +got):\n%s", diff)
	}
	// The last page names no marker, even when the service repeats one.
	c, _ = fake(t, 200, result("ListUsers", `<Users/><IsTruncated>false</IsTruncated><Marker>stale</Marker>`), nil)
	if got, err := c.ListUsers(context.Background(), ListUsersInput{}); err != nil || got.NextMarker != "" {
		t.Errorf("last page: %+v, %v", got, err)
	}
}

// TestCreateKeySendsCredentialAgeDays: the service requires the key's
// lifetime, so it is always in the request, and a value outside its range
// (0 being an input that forgot it) is refused before any call.
func TestCreateKeySendsCredentialAgeDays(t *testing.T) {
	t.Parallel()
	ok := result("CreateServiceSpecificCredential", `<ServiceSpecificCredential><UserName>alice</UserName><ServiceSpecificCredentialId>ACCA1</ServiceSpecificCredentialId></ServiceSpecificCredential>`)
	for _, days := range []int{1, 30, 36600} {
		c, forms := fake(t, http.StatusOK, ok, nil)
		if _, err := c.CreateServiceSpecificCredential(context.Background(), CreateServiceSpecificCredentialInput{UserName: "alice", ServiceName: "models.cloud.example", CredentialAgeDays: days}); err != nil {
			t.Fatalf("%d days: %v", days, err)
		}
		if got := (*forms)[0].Get("CredentialAgeDays"); got != fmt.Sprint(days) {
			t.Errorf("%d days: CredentialAgeDays sent as %q", days, got)
		}
	}
	for _, days := range []int{0, -1, 36601} {
		c, forms := fake(t, http.StatusOK, ok, nil)
		_, err := c.CreateServiceSpecificCredential(context.Background(), CreateServiceSpecificCredentialInput{UserName: "alice", ServiceName: "models.cloud.example", CredentialAgeDays: days})
		if !errors.Is(err, client.ErrInvalidInput) || !strings.Contains(err.Error(), "CredentialAgeDays must be between 1 and 36600") {
			t.Errorf("%d days: error %v, want the range refused", days, err)
		}
		if len(*forms) != 0 {
			t.Errorf("%d days: %d requests sent, want none", days, len(*forms))
		}
	}
}
