package search_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Values outside the shared value rules (internal/rules) are refused at
// validate time, naming the attribute and the allowed values, before any
// call: the same rules the emulator checks requests with (rules.DomainConfig),
// so the plan refuses what the service would.
func TestAccDomainConfig_valueRules(t *testing.T) {
	emu := newDomainEmulator(t)
	long := `{"a":"` + strings.Repeat("é", rules.MaxAccessPoliciesChars) + `"}`
	steps := []resource.TestStep{}
	for _, tc := range []struct{ body, want string }{
		{`  cluster_config = { instance_count = 1001 }`, `cluster_config.instance_count value must be between 1 and 1000, got: 1001`},
		{`  cluster_config = { dedicated_master_count = 6 }`, `dedicated_master_count value must be between 1 and 5, got: 6`},
		{`  cluster_config = { zone_awareness_config = { availability_zone_count = 4 } }`, `availability_zone_count value must be between 2 and 3, got: 4`},
		{`  vpc_options = { subnet_ids = [""] }`, `vpc_options.subnet_ids.*string length must be at least 1`},
		{`  timeouts = { update = "-1h" }`, `Invalid Timeout.*timeouts.update must be a positive duration.*"-1h"`},
		{`  timeouts = { create = "0s" }`, `Invalid Timeout.*timeouts.create must be a positive duration`},
		{`  advanced_options = { "indices.query.bool.max_clause_count" = "2147483648" }`, `max_clause_count must be a positive whole number up to 2147483647`},
		{fmt.Sprintf("  access_policies = %q", long), `access_policies UTF-8 character count must be at most 102400`},
		{`  advanced_security_options = { saml_options = { master_user_name = "" } }`, `saml_options.master_user_name.*must be between 1 and 64`},
		{`  workforce_identity_options = { workforce_identity_instance_region = "Europe" }`, `workforce_identity_instance_region.*must be a region name such as us-east-1`},
	} {
		steps = append(steps, resource.TestStep{Config: domainConfig(emu, tc.body), ExpectError: acctest.ErrorRe(tc.want), PlanOnly: true})
	}
	emu.ClearCalls()
	parallelTest(t, steps)
	for _, c := range emu.Calls() {
		if strings.HasPrefix(c.Operation, "UpdateDomainConfig") || c.Operation == "DescribeDryRunProgress" {
			t.Errorf("a refused configuration made call %s", c.Operation)
		}
	}
}

// access_policies = "" (the spec allows length 0) is accepted, applied and
// read back with no diff.
func TestAccDomainConfig_emptyAccessPolicies(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{{
		Config: domainConfig(emu, `  access_policies = ""`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("cloud_search_domain_config.test", tfjsonpath.New("access_policies"), knownvalue.StringExact("")),
		},
	}})
}

// RFC 3339 times with an offset are accepted (the docs promise RFC 3339),
// kept as written, and the service's UTC answer for the same instant is no
// change.
func TestAccDomainConfig_timeWithOffset(t *testing.T) {
	emu := newDomainEmulator(t)
	cfg := domainConfig(emu, `  automated_snapshot_pause_options = {
    enabled    = true
    start_time = "2030-01-01T02:00:00+02:00"
    end_time   = "2030-01-02T02:00:00+02:00"
  }
  accepted_warnings = ["ADV_SNAPSHOT_PAUSE_NO_RESTORE"]`)
	addr := "cloud_search_domain_config.test"
	parallelTest(t, []resource.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("automated_snapshot_pause_options").AtMapKey("start_time"), knownvalue.StringExact("2030-01-01T02:00:00+02:00")),
			},
		},
		{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
	})
	// The service holds the instant: 00:00 UTC.
	out, err := searchClient(t, emu).DescribeDomainConfig(testCtx(t), "demo")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out)
	if !strings.Contains(string(b), `"StartTime":1893456000`) {
		t.Errorf("the service does not hold 2030-01-01T00:00:00Z as the start: %s", b)
	}
}

// Configuring AdvancedOptions at the spec's defaults on a domain that sets
// none is no change: no dry run, no update, an empty plan (an answer
// without a key reads as its default).
func TestAccDomainConfig_advancedOptionsDefaults(t *testing.T) {
	emu := newDomainEmulator(t)
	if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "plain", Config: json.RawMessage(`{"ClusterConfig":{"InstanceCount":1,"InstanceType":"r6g.large.search"}}`)}); err != nil {
		t.Fatal(err)
	}
	cfg := emu.ProviderConfig() + `
resource "cloud_search_domain_config" "test" {
  domain_name = "plain"
  advanced_options = {
    "rest.action.multi.allow_explicit_index" = "true"
    "indices.fielddata.cache.size"           = "unbounded"
    "indices.query.bool.max_clause_count"    = "1024"
  }
}
`
	emu.ClearCalls()
	parallelTest(t, []resource.TestStep{
		{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("cloud_search_domain_config.test", tfjsonpath.New("advanced_options").AtMapKey("indices.query.bool.max_clause_count"), knownvalue.StringExact("1024")),
		}},
		{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
	})
	for _, c := range emu.Calls() {
		if strings.HasPrefix(c.Operation, "UpdateDomainConfig") {
			t.Errorf("configuring the defaults made call %s (dry run %v)", c.Operation, c.DryRun)
		}
	}
}

// An access policy on a sub-resource (one index) needs
// allow_explicit_index = "false" (the spec's rule): the plan's dry run
// fails with its own code and says what to set; setting it applies.
func TestAccDomainConfig_explicitIndexRule(t *testing.T) {
	emu := newDomainEmulator(t)
	policy := `  access_policies = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Principal = { CLOUD = "*" }, Action = "search:ESHttpGet", Resource = "arn:cloud:search:us-east-1:123456789012:domain/demo/my-index/*" }]
  })
`
	parallelTest(t, []resource.TestStep{
		{
			Config:      domainConfig(emu, policy),
			PlanOnly:    true,
			ExpectError: acctest.ErrorRe(`CRIT_EXPLICIT_INDEX_SUBRESOURCE_POLICY.*domain/demo/my-index/\*.*set it to "false"`),
		},
		{
			Config: domainConfig(emu, policy+`  advanced_options = { "rest.action.multi.allow_explicit_index" = "false" }
  accepted_warnings = ["ADV_FIELDDATA_CACHE_UNBOUNDED"]`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("cloud_search_domain_config.test", tfjsonpath.New("advanced_options").AtMapKey("rest.action.multi.allow_explicit_index"), knownvalue.StringExact("false")),
			},
		},
	})
}

// The dry-run data source's timeouts must be positive too, refused before
// any call.
func TestAccDryRunDataSource_negativeTimeout(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, []resource.TestStep{{
		Config: dryRunConfig(emu, "demo", "00000000-0000-4000-8000-000000000000", `wait_for_completion = true
  timeouts {
    read = "-5m"
  }`),
		ExpectError: acctest.ErrorRe(`Invalid Timeout.*timeouts.read must be a positive duration`),
	}})
	if n := emu.Sent("DescribeDryRunProgress"); n != 0 {
		t.Errorf("%d DescribeDryRunProgress calls, want 0", n)
	}
}

// A configuration that sets one advanced_options key, while the domain
// reports all three (the others at their defaults), applies that key and
// then plans nothing: the keys it leaves out are neither removed nor shown
// as a difference, since the domain holds them at their defaults anyway.
func TestAccDomainConfig_advancedOptionsOneKey(t *testing.T) {
	emu := newDomainEmulator(t)
	if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "plain", Config: json.RawMessage(`{"ClusterConfig":{"InstanceCount":1,"InstanceType":"r6g.large.search"}}`)}); err != nil {
		t.Fatal(err)
	}
	addr := "cloud_search_domain_config.test"
	adv := tfjsonpath.New("advanced_options")
	explicit := domainConfig(emu, `  advanced_options = { "rest.action.multi.allow_explicit_index" = "false" }
  accepted_warnings = ["ADV_FIELDDATA_CACHE_UNBOUNDED"]`)
	clauses := emu.ProviderConfig() + `
resource "cloud_search_domain_config" "plain" {
  domain_name      = "plain"
  advanced_options = { "indices.query.bool.max_clause_count" = "1024" }
}
`
	// The plan after apply holds the keys the refresh read, the two left
	// out at their defaults.
	allKeys := func(explicitIndex string) knownvalue.Check {
		return knownvalue.MapExact(map[string]knownvalue.Check{
			rules.AllowExplicitIndex: knownvalue.StringExact(explicitIndex),
			rules.FielddataCacheSize: knownvalue.StringExact("unbounded"),
			rules.MaxClauseCount:     knownvalue.StringExact("1024"),
		})
	}
	parallelTest(t, []resource.TestStep{
		{
			Config: explicit,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, adv.AtMapKey(rules.AllowExplicitIndex), knownvalue.StringExact("false")),
			},
		},
		{Config: explicit, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectEmptyPlan(),
			plancheck.ExpectKnownValue(addr, adv, allKeys("false")),
		}}},
		{Config: clauses},
		{Config: clauses, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectEmptyPlan(),
			plancheck.ExpectKnownValue("cloud_search_domain_config.plain", adv, allKeys("true")),
		}}},
	})
	if n := answeredUpdates(emu); n != 1 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 1 (allow_explicit_index on demo only)", n)
	}
}

// Changing a configured advanced_options key while the state also holds
// keys the configuration leaves out (the defaults a refresh reads) plans
// the configuration's map, which Terraform accepts, and sends only the
// changed key; the next plan is empty. A plan that merged both maps was
// refused by Terraform as an invalid plan.
func TestAccDomainConfig_advancedOptionsKeyChanged(t *testing.T) {
	emu := newDomainEmulator(t)
	addr := "cloud_search_domain_config.test"
	explicit := func(v string) string {
		return domainConfig(emu, `  advanced_options = { "rest.action.multi.allow_explicit_index" = "`+v+`" }
  accepted_warnings = ["ADV_FIELDDATA_CACHE_UNBOUNDED"]`)
	}
	parallelTest(t, []resource.TestStep{
		{Config: explicit("false")},
		{Config: explicit("true"), ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("advanced_options").AtMapKey(rules.AllowExplicitIndex), knownvalue.StringExact("true")),
		}},
		{Config: explicit("true"), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
	})
	if n := answeredUpdates(emu); n != 2 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 2 (false, then true)", n)
	}
}

// Adopting or importing a domain whose times are the configuration's
// instants, written with another offset ("+02:00" configured, UTC from the
// service), is a no-op: no dry run, no update, and the plan after import
// shows nothing, as times compare as instants.
func TestAccDomainConfig_adoptTimeWithOffset(t *testing.T) {
	emu := newDomainEmulator(t)
	// 2030-01-01T00:00:00Z to 2030-01-02T00:00:00Z.
	if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "paused", Config: json.RawMessage(`{
  "ClusterConfig": {"InstanceCount": 1, "InstanceType": "r6g.large.search"},
  "AutomatedSnapshotPauseOptions": {"Enabled": true, "StartTime": 1893456000, "EndTime": 1893542400}
}`)}); err != nil {
		t.Fatal(err)
	}
	addr := "cloud_search_domain_config.test"
	cfg := emu.ProviderConfig() + `
resource "cloud_search_domain_config" "test" {
  domain_name = "paused"
  automated_snapshot_pause_options = {
    enabled    = true
    start_time = "2030-01-01T02:00:00+02:00"
    end_time   = "2030-01-02T02:00:00+02:00"
  }
}
`
	emu.ClearCalls()
	parallelTest(t, []resource.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("automated_snapshot_pause_options").AtMapKey("start_time"), knownvalue.StringExact("2030-01-01T02:00:00+02:00")),
			},
		},
		{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		{
			Config:          cfg,
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   "paused",
		},
	})
	for _, c := range emu.Calls() {
		if strings.HasPrefix(c.Operation, "UpdateDomainConfig") {
			t.Errorf("adopting the same instants made call %s (dry run %v)", c.Operation, c.DryRun)
		}
	}
}

// A dedicated master count other than 3 or 5 with dedicated masters
// enabled (on the domain or in the configuration) is refused at plan,
// naming the attribute, before any call and whatever dry_run_mode; with
// dedicated masters off the count is not refused, as the service's dry run
// does not refuse it then.
func TestAccDomainConfig_dedicatedMasterCount(t *testing.T) {
	emu := newDomainEmulator(t)
	want := `Invalid Dedicated Master Count.*domain "demo" needs dedicated_master_count = 3 or 5, not 4`
	emu.ClearCalls()
	parallelTest(t, []resource.TestStep{
		// demo has dedicated masters enabled.
		{Config: domainConfig(emu, `  cluster_config = { dedicated_master_count = 4 }`), PlanOnly: true, ExpectError: acctest.ErrorRe(want)},
		{Config: domainConfig(emu, `  cluster_config = { dedicated_master_count = 4 }
  dry_run_mode   = "Off"`), PlanOnly: true, ExpectError: acctest.ErrorRe(want)},
		{Config: domainConfig(emu, `  cluster_config = { dedicated_master_enabled = true, dedicated_master_count = 4 }`), PlanOnly: true, ExpectError: acctest.ErrorRe(want)},
	})
	for _, c := range emu.Calls() {
		if strings.HasPrefix(c.Operation, "UpdateDomainConfig") {
			t.Errorf("a refused dedicated master count made call %s (dry run %v)", c.Operation, c.DryRun)
		}
	}
}

// The spec's limit of 25 accepted warnings, at the limit and one past: 26
// codes (or a code not of a code's form) are refused at plan before any
// call; exactly 25 plan, apply, and reach the service, which accepts them
// too.
func TestAccDomainConfig_acceptedWarningsLimit(t *testing.T) {
	emu := newDomainEmulator(t)
	codes := func(n int) string {
		return fmt.Sprintf(`  snapshot_options  = { automated_snapshot_start_hour = 5 }
  accepted_warnings = [for i in range(%d) : format("ADV_CODE_%%02d", i)]`, n)
	}
	emu.ClearCalls()
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, codes(26)), PlanOnly: true, ExpectError: acctest.ErrorRe(`accepted_warnings set must contain at most 25 elements, got: 26`)},
		{Config: domainConfig(emu, `  snapshot_options  = { automated_snapshot_start_hour = 5 }
  accepted_warnings = ["has space"]`), PlanOnly: true, ExpectError: acctest.ErrorRe(`must be a validation code`)},
		{Config: domainConfig(emu, codes(25)), ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("accepted_warnings"), knownvalue.SetSizeExact(25)),
			statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(5)),
		}},
	})
	if n := answeredUpdates(emu); n != 1 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 1 (the 25 codes' apply)", n)
	}
}
