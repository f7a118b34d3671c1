package identity

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
)

// A real identity service names no statement behind an implicit deny (no
// EvalDecisionReason, no MatchedStatements): an age cap's Allow whose
// condition is not met. The plan is refused all the same, as the service
// would refuse the create, and the check asks for the role of a role
// session, never GetUser.
func TestCheckCreateAllowedWithoutReasons(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var actions, sources []string
	decision := "implicitDeny"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		actions = append(actions, r.PostForm.Get("Action"))
		sources = append(sources, r.PostForm.Get("PolicySourceArn"))
		d := decision
		mu.Unlock()
		if r.PostForm.Get("Action") == "GetUser" {
			if d != "pathed" {
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`<ErrorResponse><Error><Type>Sender</Type><Code>NoSuchEntity</Code><Message>The user with name bot cannot be found.</Message></Error></ErrorResponse>`))
				return
			}
			_, _ = w.Write([]byte(`<GetUserResponse><GetUserResult><User><UserName>bot</UserName><UserId>AIDAEXAMPLE</UserId><Path>/bots/</Path>` +
				`<Arn>arn:cloud:identity::123456789012:user/bots/bot</Arn><CreateDate>2026-01-01T00:00:00Z</CreateDate></User></GetUserResult></GetUserResponse>`))
			return
		}
		if d == "pathed" { // a policy on the path /bots/ only
			d = "implicitDeny"
			if r.PostForm.Get("ResourceArns.member.1") == "arn:cloud:identity::123456789012:user/bots/bot" {
				d = "allowed"
			}
		}
		if d == "denied" {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to perform: identity:SimulatePrincipalPolicy</Message></Error></ErrorResponse>`))
			return
		}
		_, _ = w.Write([]byte(`<SimulatePrincipalPolicyResponse><SimulatePrincipalPolicyResult><EvaluationResults><member>` +
			`<EvalActionName>identity:CreateServiceSpecificCredential</EvalActionName><EvalResourceName>` + r.PostForm.Get("ResourceArns.member.1") + `</EvalResourceName>` +
			`<EvalDecision>` + d + `</EvalDecision><MatchedStatements/></member></EvaluationResults><IsTruncated>false</IsTruncated>` +
			`</SimulatePrincipalPolicyResult></SimulatePrincipalPolicyResponse>`))
	}))
	t.Cleanup(srv.Close)
	cfg := client.Config{Region: "us-east-1", Credentials: client.Credentials{AccessKeyID: "ASIAEXAMPLE", SecretAccessKey: "secret"}, AttemptTimeout: time.Second, MaxRetries: 0}
	idc, err := identityclient.New(cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	caller := conns.NewCaller("arn:cloud:sts::123456789012:assumed-role/deploy/ci", nil, "")
	r := &serviceSpecificCredentialResource{clients: &conns.Clients{Region: "us-east-1", Config: cfg, Identity: idc, Caller: caller, PlanChecks: &conns.PlanChecks{}, Simulations: conns.NewSimulations(idc.SimulatePrincipalPolicy)}}
	plan := &serviceSpecificCredentialModel{UserName: types.StringValue("bot"), ServiceName: types.StringValue("models.cloud.example"), CredentialAgeDays: customtypes.NewInt64Value(365)}
	setDecision := func(d string) {
		mu.Lock()
		decision = d
		mu.Unlock()
	}
	check := func() diag.Diagnostics {
		var diags diag.Diagnostics
		r.checkCreateAllowed(context.Background(), plan, &diags)
		return diags
	}

	diags := check()
	if !diags.HasError() {
		t.Fatalf("an implicit deny did not refuse the plan: %v", diags)
	}
	d := diags.Errors()[0]
	if p, ok := d.(diag.DiagnosticWithPath); !ok || p.Path().String() != "credential_age_days" {
		t.Errorf("the error is not on credential_age_days: %v", d)
	}
	for _, want := range []string{"arn:cloud:identity::123456789012:role/deploy", "no statement allows", "identity:ServiceSpecificCredentialAgeDays = 365", `"models.cloud.example"`,
		"name that role with the provider setting apply_principal_arn"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("the error does not say %q: %s", want, d.Detail())
		}
	}
	mu.Lock()
	// The refusal looks for an existing user of another path: none.
	if strings.Join(actions, ",") != "SimulatePrincipalPolicy,GetUser" || sources[0] != "arn:cloud:identity::123456789012:role/deploy" {
		t.Errorf("calls %v for %v, want SimulatePrincipalPolicy for the role, then GetUser of the key's user", actions, sources)
	}
	mu.Unlock()

	// An existing user of the path /bots/ that the policy allows.
	setDecision("pathed")
	if diags := check(); len(diags) != 0 {
		t.Errorf("a key for a user whose path the policy allows: %v", diags)
	}

	setDecision("allowed")
	if diags := check(); len(diags) != 0 {
		t.Errorf("an allowed key: %v", diags)
	}
	setDecision("denied")
	if diags := check(); diags.HasError() || diags.WarningsCount() != 1 || diags.Warnings()[0].Summary() != "Key Permission Check Skipped" {
		t.Errorf("a caller that may not simulate: %v", diags)
	}
	// The plan's other keys: no second warning, no second call.
	mu.Lock()
	before := len(actions)
	mu.Unlock()
	if diags := check(); len(diags) != 0 {
		t.Errorf("a second key after a check that could not be made: %v, want no diagnostic", diags)
	}
	mu.Lock()
	if len(actions) != before {
		t.Errorf("a second key after a check that could not be made called %v", actions[before:])
	}
	mu.Unlock()
	r.clients.PlanChecks = &conns.PlanChecks{}
	r.clients.Caller = conns.NewCaller("", func(context.Context) (string, error) { return "", errors.New("token service unreachable") }, "")
	if diags := check(); diags.HasError() || diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(), "token service unreachable") {
		t.Errorf("a caller not found: %v", diags)
	}

	// A plan role naming the apply role: the apply role is asked about,
	// without asking who the caller is.
	r.clients.PlanChecks = &conns.PlanChecks{}
	r.clients.ApplyPrincipal = "arn:cloud:identity::123456789012:role/apply"
	setDecision("implicitDeny")
	mu.Lock()
	before = len(actions)
	mu.Unlock()
	diags = check()
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "the principal that applies (arn:cloud:identity::123456789012:role/apply, apply_principal_arn)") {
		t.Errorf("a refused apply principal: %v", diags)
	}
	mu.Lock()
	if sources[before] != "arn:cloud:identity::123456789012:role/apply" {
		t.Errorf("simulated %v, want the apply principal", sources[before:])
	}
	mu.Unlock()
	r.clients.PlanChecks = &conns.PlanChecks{}
	setDecision("denied")
	if diags := check(); diags.HasError() || diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(), "identity:SimulatePrincipalPolicy on arn:cloud:identity::123456789012:role/apply, the apply_principal_arn") {
		t.Errorf("a plan role that may not simulate the apply principal: %v", diags)
	}
}
