package identity

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

const capPolicy = `{"Version":"2012-10-17","Statement":[{"Sid":"LimitKeyAgeTo90Days","Effect":"Allow","Action":"identity:CreateServiceSpecificCredential","Resource":"*",
"Condition":{"NumericLessThanEquals":{"identity:ServiceSpecificCredentialAgeDays":"90"}}},
{"Sid":"NoSearchKeys","Effect":"Deny","Action":"identity:CreateServiceSpecificCredential","Resource":"*","Condition":{"StringEquals":{"identity:ServiceSpecificCredentialServiceName":"search.cloud.example"}}}]}`

// SimulatePrincipalPolicy answers what CreateServiceSpecificCredential
// itself would decide, with the context keys of the request, and names
// the statement behind a refusal.
func TestSimulatePrincipalPolicy(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	simulate := func(days, service string) answer {
		return must(t, call(t, s, adminCaller, "SimulatePrincipalPolicy", "PolicySourceArn", adminArn,
			"ActionNames.member.1", "identity:CreateServiceSpecificCredential",
			"ResourceArns.member.1", "arn:cloud:identity::123456789012:user/alice",
			"ContextEntries.member.1.ContextKeyName", "identity:ServiceSpecificCredentialAgeDays",
			"ContextEntries.member.1.ContextKeyValues.member.1", days,
			"ContextEntries.member.1.ContextKeyType", "numeric",
			"ContextEntries.member.2.ContextKeyName", "identity:ServiceSpecificCredentialServiceName",
			"ContextEntries.member.2.ContextKeyValues.member.1", service,
			"ContextEntries.member.2.ContextKeyType", "string"))
	}
	// No policy: the emulator allows everything.
	if a := simulate("120", "models.cloud.example"); !strings.Contains(a.body, "<EvalDecision>allowed</EvalDecision>") {
		t.Errorf("without a policy: %s", a.body)
	}
	if _, err := s.AttachPrincipalPolicy(adminArn, "cap", []byte(capPolicy)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		days, service, decision string
		names                   []string
	}{
		{"90", "models.cloud.example", "allowed", []string{`Allow statement &#34;LimitKeyAgeTo90Days&#34;`}},
		{"120", "models.cloud.example", "implicitDeny", []string{"LimitKeyAgeTo90Days", "NumericLessThanEquals 90"}},
		{"30", "search.cloud.example", "explicitDeny", []string{`Deny statement &#34;NoSearchKeys&#34;`}},
	} {
		a := simulate(tc.days, tc.service)
		if !strings.Contains(a.body, "<EvalDecision>"+tc.decision+"</EvalDecision>") {
			t.Errorf("%s days for %s: %s, want %s", tc.days, tc.service, a.body, tc.decision)
		}
		for _, n := range tc.names {
			if !strings.Contains(a.body, n) {
				t.Errorf("%s days for %s: the answer does not name %q: %s", tc.days, tc.service, n, a.body)
			}
		}
		if tc.service != ModelsServiceName {
			continue // the create refuses the service before asking the policies
		}
		// The real call decides the same.
		c := call(t, s, adminCaller, "CreateServiceSpecificCredential", "UserName", "alice", "ServiceName", tc.service, "CredentialAgeDays", tc.days)
		if allowed := c.code != "AccessDenied"; allowed != (tc.decision == "allowed") {
			t.Errorf("%s days for %s: simulated %s, the create answered %d %s", tc.days, tc.service, tc.decision, c.status, c.code)
		}
	}
	for _, kv := range [][]string{
		{"ActionNames.member.1", "identity:GetUser"},
		{"PolicySourceArn", adminArn},
		{"PolicySourceArn", adminArn, "ActionNames.member.1", "GetUser"},
	} {
		if a := call(t, s, adminCaller, "SimulatePrincipalPolicy", kv...); a.code != "InvalidInput" {
			t.Errorf("%v: %d %s, want InvalidInput", kv, a.status, a.code)
		}
	}
	// GetUser without a name describes the caller.
	if a := must(t, call(t, s, adminCaller, "GetUser")); !strings.Contains(a.body, "<Arn>"+adminArn+"</Arn>") {
		t.Errorf("GetUser of the caller: %s", a.body)
	}
}

// A role's session has only what the role's policies grant: with none it
// can do nothing, and GetUser without a name is refused as IAM refuses it
// for credentials that are not a user's.
func TestRoleSession(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	trust := []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"123456789012"},"Action":"sts:AssumeRole"}]}`)
	role, err := s.PutRole("deploy", trust, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	session := &core.Caller{Principal: role.Arn, Account: "123456789012", Region: "us-east-1", Session: true}
	for _, tc := range [][]string{
		{"GetUser", "UserName", "alice"},
		{"ListUsers"},
		{"CreateUser", "UserName", "bob"},
		{"DeleteUser", "UserName", "alice"},
		{"ListServiceSpecificCredentials", "UserName", "alice"},
		{"CreateServiceSpecificCredential", "UserName", "alice", "ServiceName", ModelsServiceName, "CredentialAgeDays", "30"},
	} {
		if a := call(t, s, session, tc[0], tc[1:]...); a.code != "AccessDenied" {
			t.Errorf("%v by a role with no policy: %d %s, want AccessDenied", tc, a.status, a.code)
		}
	}
	if a := must(t, call(t, s, adminCaller, "SimulatePrincipalPolicy", "PolicySourceArn", role.Arn, "ActionNames.member.1", "identity:CreateUser")); !strings.Contains(a.body, "<EvalDecision>implicitDeny</EvalDecision>") {
		t.Errorf("simulated CreateUser of a role with no policy: %s", a.body)
	}
	if _, err := s.AttachPrincipalPolicy(role.Arn, "all", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"identity:*","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	must(t, call(t, s, session, "GetUser", "UserName", "alice"))
	a := call(t, s, session, "GetUser")
	if a.status != http.StatusBadRequest || a.code != "ValidationError" || !strings.Contains(a.msg, "non-User credentials") {
		t.Errorf("GetUser without a name by a role session: %d %s %s", a.status, a.code, a.msg)
	}
}

// Several resources in one simulation: each is decided on its own, with
// the same context entries, one result per action and resource, and the
// results page (MaxItems, Marker) as the service's lists do.
func TestSimulatePrincipalPolicySeveralResources(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	team := `{"Version":"2012-10-17","Statement":[{"Sid":"TeamKeysUpTo90Days","Effect":"Allow","Action":"identity:CreateServiceSpecificCredential",
"Resource":"arn:cloud:identity::123456789012:user/team/*","Condition":{"NumericLessThanEquals":{"identity:ServiceSpecificCredentialAgeDays":"90"}}}]}`
	if _, err := s.AttachPrincipalPolicy(adminArn, "team", []byte(team)); err != nil {
		t.Fatal(err)
	}
	resources := []string{"arn:cloud:identity::123456789012:user/team/a", "arn:cloud:identity::123456789012:user/b", "arn:cloud:identity::123456789012:user/team/c"}
	simulate := func(days string, page ...string) answer {
		kv := []string{"PolicySourceArn", adminArn, "ActionNames.member.1", "identity:CreateServiceSpecificCredential",
			"ContextEntries.member.1.ContextKeyName", "identity:ServiceSpecificCredentialAgeDays",
			"ContextEntries.member.1.ContextKeyValues.member.1", days, "ContextEntries.member.1.ContextKeyType", "numeric"}
		for i, r := range resources {
			kv = append(kv, fmt.Sprintf("ResourceArns.member.%d", i+1), r)
		}
		return must(t, call(t, s, adminCaller, "SimulatePrincipalPolicy", append(kv, page...)...))
	}
	decisions := func(body string) []string {
		var out []string
		for _, m := range resultRe.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1]+"="+m[2])
		}
		return out
	}
	want := []string{resources[0] + "=allowed", resources[1] + "=implicitDeny", resources[2] + "=allowed"}
	if got := decisions(simulate("90").body); !slices.Equal(got, want) {
		t.Errorf("90 days: %v, want %v", got, want)
	}
	// The context applies to every resource.
	if got := decisions(simulate("120").body); !slices.Equal(got, []string{resources[0] + "=implicitDeny", resources[1] + "=implicitDeny", resources[2] + "=implicitDeny"}) {
		t.Errorf("120 days: %v, want every resource refused", got)
	}
	// Two to a page: the second page, by the first's marker, holds the rest.
	first := simulate("90", "MaxItems", "2")
	m := markerRe.FindStringSubmatch(first.body)
	if !strings.Contains(first.body, "<IsTruncated>true</IsTruncated>") || m == nil {
		t.Fatalf("a first page of two: %s", first.body)
	}
	second := simulate("90", "MaxItems", "2", "Marker", m[1])
	if got := append(decisions(first.body), decisions(second.body)...); !slices.Equal(got, want) || !strings.Contains(second.body, "<IsTruncated>false</IsTruncated>") {
		t.Errorf("two pages: %v (%s), want %v", got, second.body, want)
	}
	for _, bad := range [][]string{{"MaxItems", "0"}, {"MaxItems", "1001"}, {"Marker", "nonsense"}} {
		if a := call(t, s, adminCaller, "SimulatePrincipalPolicy", append([]string{"PolicySourceArn", adminArn, "ActionNames.member.1", "identity:GetUser"}, bad...)...); a.code != "InvalidInput" {
			t.Errorf("%v: %d %s, want InvalidInput", bad, a.status, a.code)
		}
	}
}

var resultRe = regexp.MustCompile(`<EvalResourceName>([^<]+)</EvalResourceName><EvalDecision>([^<]+)<`)
