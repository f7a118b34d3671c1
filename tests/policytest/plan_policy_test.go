package policytest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

const (
	domainAddr = "cloud_search_domain_config.demo"
	keyAddr    = "cloud_identity_service_specific_credential.app"
)

// TestAccPlanPolicy makes real plans with the provider against the
// emulator and checks what examples/policy/plan.rego denies in each. Like
// the acceptance tests it drives the CLI, so it runs only with TF_ACC set.
func TestAccPlanPolicy(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the policy test drives the Terraform CLI")
	}
	acctest.PreCheck(t)
	emu := acctest.NewEmulator(t)
	if err := emu.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: 300 * time.Millisecond, Dynamic: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	p := newPlanner(t, emu.ProviderConfig())
	policy := loadPolicy(t)

	t.Run("passes a dynamic change and a 30-day key", func(t *testing.T) {
		plan := p.plan(t, domain(`snapshot_options = { automated_snapshot_start_hour = 5 }`)+key(`credential_age_days = 30`))
		if got := dryRun(t, plan, domainAddr)["deployment_type"]; got != "dynamic" {
			t.Fatalf("planned dry_run.deployment_type = %v, want dynamic", got)
		}
		expectDenials(t, policy.deny(t, plan))
	})

	t.Run("denies blue/green", func(t *testing.T) {
		// The emulator warns about blue/green outside the demo domain's
		// off-peak window; accept that so the provider lets the plan through.
		plan := p.plan(t, domain(`
  cluster_config    = { instance_type = "r6g.xlarge.search" }
  accepted_warnings = ["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"]`))
		if got := dryRun(t, plan, domainAddr)["deployment_type"]; got != "blue/green" {
			t.Fatalf("planned dry_run.deployment_type = %v, want blue/green", got)
		}
		expectDenials(t, policy.deny(t, plan), domainAddr+": the plan's dry run says the change is deployed blue/green")
	})

	t.Run("validation failures", func(t *testing.T) {
		// A real plan with an Advisory failure: the provider lets it through
		// only because accepted_warnings accepts it, so the policy passes it.
		start := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
		plan := p.plan(t, domain(fmt.Sprintf(`
  automated_snapshot_pause_options = { enabled = true, start_time = %q, end_time = %q }
  accepted_warnings                = ["ADV_SNAPSHOT_PAUSE_NO_RESTORE"]`,
			start.Format(time.RFC3339), start.Add(24*time.Hour).Format(time.RFC3339))))
		failures, _ := dryRun(t, plan, domainAddr)["validation_failures"].([]any)
		if len(failures) != 1 {
			t.Fatalf("planned dry_run.validation_failures = %v, want the one ADV_SNAPSHOT_PAUSE_NO_RESTORE", failures)
		}
		expectDenials(t, policy.deny(t, plan))

		// The provider fails any plan whose dry run has a failure that is
		// not accepted, so no real plan has one; the policy still checks,
		// for plans made with dry_run_mode changed later, older provider
		// versions, or JSON edited by hand. Edit the real plan: drop the
		// acceptance, then make the failure Critical while it is accepted.
		unaccepted := edit(t, plan, func(after map[string]any) { after["accepted_warnings"] = nil })
		expectDenials(t, policy.deny(t, unaccepted),
			domainAddr+": the dry run reports Advisory ADV_SNAPSHOT_PAUSE_NO_RESTORE, which accepted_warnings does not accept")
		critical := edit(t, plan, func(after map[string]any) {
			dr, _ := after["dry_run"].(map[string]any)
			f, _ := dr["validation_failures"].([]any)[0].(map[string]any)
			f["severity"] = "Critical"
		})
		expectDenials(t, policy.deny(t, critical),
			domainAddr+": the dry run reports Critical ADV_SNAPSHOT_PAUSE_NO_RESTORE, which accepted_warnings does not accept")
	})

	t.Run("warns when the change was not validated", func(t *testing.T) {
		warn := compilePolicy(t, "data.terraform.plan.warn")
		for _, tc := range []struct{ mode, want string }{
			{"Basic", domainAddr + ": the dry run ran in Basic mode, which validates nothing"},
			{"Off", domainAddr + ": dry_run_mode is Off, so the plan has no dry run"},
		} {
			plan := p.plan(t, domain(fmt.Sprintf(`
  dry_run_mode     = %q
  snapshot_options = { automated_snapshot_start_hour = 6 }`, tc.mode)))
			if got := dryRun(t, plan, domainAddr)["mode"]; got != tc.mode {
				t.Fatalf("planned dry_run.mode = %v, want %s", got, tc.mode)
			}
			expectDenials(t, warn.deny(t, plan), tc.want)
			expectDenials(t, policy.deny(t, plan))
		}
		// A Verbose dry run draws no warning.
		expectDenials(t, warn.deny(t, p.plan(t, domain(`snapshot_options = { automated_snapshot_start_hour = 6 }`))))
	})

	t.Run("denies a 120-day key", func(t *testing.T) {
		plan := p.plan(t, key(`credential_age_days = 120`))
		expectDenials(t, policy.deny(t, plan), keyAddr+": credential_age_days is 120; long-term API keys may live at most 90 days")
	})

	// A key that never expires cannot be planned any more (credential_age_days
	// is required); the policy's rule for it is checked on a canned plan in
	// plan_policy_unit_test.go.
}

func domain(body string) string {
	return fmt.Sprintf(`
resource "cloud_search_domain_config" "demo" {
  domain_name = "demo"
  %s
}
`, body)
}

func key(arg string) string {
	return fmt.Sprintf(`
resource "cloud_identity_user" "app" {
  user_name = "policy-app"
}

resource "cloud_identity_service_specific_credential" "app" {
  user_name = cloud_identity_user.app.user_name
  %s
}
`, arg)
}

// planner runs `terraform plan -out` and `terraform show -json` with the
// provider built from this module, each plan in a workspace of its own
// (acctest.NewBuiltWorkspace).
type planner struct {
	providerBlock string
}

func newPlanner(t *testing.T, providerBlock string) *planner {
	t.Helper()
	acctest.PreCheck(t)
	return &planner{providerBlock: providerBlock}
}

// plan returns `show -json` of a saved plan of the configuration body.
func (p *planner) plan(t *testing.T, body string) map[string]any {
	t.Helper()
	ws := acctest.NewBuiltWorkspace(t)
	cfg := `terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}
` + p.providerBlock + body
	if err := ws.Write(cfg); err != nil {
		t.Fatal(err)
	}
	run(t, ws, "plan", "-input=false", "-no-color", "-out=tfplan")
	var plan map[string]any
	if err := json.Unmarshal(run(t, ws, "show", "-json", "tfplan"), &plan); err != nil {
		t.Fatalf("decoding show -json: %v", err)
	}
	return plan
}

// run runs one command and returns its stdout; a failure ends the test.
func run(t *testing.T, ws *tfrun.Workspace, args ...string) []byte {
	t.Helper()
	out, err := ws.Output(t.Context(), args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// after is the planned value of the resource at addr.
func after(t *testing.T, plan map[string]any, addr string) map[string]any {
	t.Helper()
	changes, _ := plan["resource_changes"].([]any)
	for _, c := range changes {
		rc, _ := c.(map[string]any)
		if rc["address"] == addr {
			change, _ := rc["change"].(map[string]any)
			a, _ := change["after"].(map[string]any)
			return a
		}
	}
	t.Fatalf("the plan has no change of %s", addr)
	return nil
}

func dryRun(t *testing.T, plan map[string]any, addr string) map[string]any {
	t.Helper()
	dr, ok := after(t, plan, addr)["dry_run"].(map[string]any)
	if !ok {
		t.Fatalf("%s has no known dry_run in the plan", addr)
	}
	return dr
}

// edit returns a copy of plan whose planned value of the domain config f
// has changed.
func edit(t *testing.T, plan map[string]any, f func(after map[string]any)) map[string]any {
	t.Helper()
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	f(after(t, c, domainAddr))
	return c
}

type policy struct{ query rego.PreparedEvalQuery }

func loadPolicy(t *testing.T) *policy {
	t.Helper()
	return compilePolicy(t, "data.terraform.plan.deny")
}

// compilePolicy compiles plan.rego strictly (as `opa check --strict` does)
// for query.
func compilePolicy(t *testing.T, query string) *policy {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "examples", "policy", "plan.rego"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := rego.New(rego.Query(query), rego.Module("plan.rego", string(src)), rego.Strict(true), rego.StrictBuiltinErrors(true)).PrepareForEval(context.Background())
	if err != nil {
		t.Fatalf("compiling plan.rego: %v", err)
	}
	return &policy{query: q}
}

// deny evaluates the policy's query (its deny or warn set) on a plan,
// sorted.
func (p *policy) deny(t *testing.T, plan map[string]any) []string {
	t.Helper()
	rs, err := p.query.Eval(context.Background(), rego.EvalInput(plan))
	if err != nil {
		t.Fatalf("evaluating plan.rego: %v", err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		t.Fatalf("deny evaluated to %v, want one set", rs)
	}
	set, ok := rs[0].Expressions[0].Value.([]any)
	if !ok {
		t.Fatalf("deny is %T, want a set", rs[0].Expressions[0].Value)
	}
	var msgs []string
	for _, m := range set {
		s, ok := m.(string)
		if !ok {
			t.Fatalf("a deny message is %T, want a string", m)
		}
		msgs = append(msgs, s)
	}
	slices.Sort(msgs)
	return msgs
}

// expectDenials checks that every denial starts with one of the prefixes,
// one for each.
func expectDenials(t *testing.T, got []string, prefixes ...string) {
	t.Helper()
	if len(got) != len(prefixes) {
		t.Fatalf("denials = %q, want %d starting with %q", got, len(prefixes), prefixes)
	}
	slices.Sort(prefixes)
	for i, p := range prefixes {
		if !strings.HasPrefix(got[i], p) {
			t.Errorf("denial %q does not start with %q", got[i], p)
		}
	}
}
