package search_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// Colleagues change the same domain between our plan and our apply, and
// during it. Whatever they do, apply sends only a request whose verdict the
// reviewed plan showed, dry-run again just before sending when the domain
// changed since the plan's dry run (contributing/design.md).

// wantNothingSentSinceColleague checks that no change of ours was sent
// after the colleague's: the real changes are our first apply and theirs,
// and the last request is the apply's dry run.
func wantNothingSentSinceColleague(t *testing.T, emu *acctest.Emulator) {
	t.Helper()
	if n := answeredUpdates(emu); n != 2 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 2 (our first apply and the colleague's change)", n)
	}
	if recs := emu.Search.UpdateRecords(); !recs[len(recs)-1].DryRun {
		t.Errorf("the last UpdateDomainConfig is a real change, want the apply's dry run: %+v", recs[len(recs)-1])
	}
}

// A colleague's blue/green change (a bigger instance type) starts between
// our plan and our apply. Our configuration names the old instance type, so
// once their change is done, what still differs would revert it by a
// blue/green deployment that no plan showed: apply dry-runs it, sees the
// verdict changed from the plan's dynamic, and sends nothing.
func TestAccDomainConfig_colleagueBlueGreenBetweenPlanAndApply(t *testing.T) {
	emu := newDomainEmulator(t)
	emu.ClockToOffPeak()
	body := func(hour int) string {
		return fmt.Sprintf(`  allow_blue_green = false
  cluster_config = { instance_type = "r6g.large.search" }
  snapshot_options = { automated_snapshot_start_hour = %d }`, hour)
	}
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, body(1))},
		{
			Config: domainConfig(emu, body(2)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
				planHook(func() {
					// Their change runs for hours, until apply follows it.
					setPace(t, emu, emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: time.Hour, Dynamic: 300 * time.Millisecond})
					colleague(t, emu, map[string]any{"ClusterConfig": map[string]any{"InstanceType": "r6g.xlarge.search"}})
					setPace(t, emu, emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: 300 * time.Millisecond})
					advanceWhenFollowed(t, emu, 5*time.Hour)
				}),
			}},
			ExpectError: acctest.ErrorRe(`Nothing was sent to domain "demo".*no longer the one the plan showed.*The plan showed: deployment type dynamic.*now says: deployment type blue/green.*Run terraform plan again`),
		},
	})
	if n := answeredUpdates(emu); n != 2 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 2 (our first apply and the colleague's change)", n)
	}
	if d, _ := emu.Search.Domain("demo"); d.ClusterConfig == nil || d.ClusterConfig.InstanceType == nil || *d.ClusterConfig.InstanceType != "r6g.xlarge.search" {
		t.Errorf("the colleague's instance type change was reverted: %+v", d.ClusterConfig)
	}
}

// A saved plan is applied while a colleague's dynamic change runs (started
// after the plan). The plan's verdict still holds once their change is done,
// so apply follows it, dry-runs ours again, finds the same verdict, and
// sends it: no "inconsistent final plan" for the sentence the service adds
// to its message while a change runs.
func TestAccDomainConfig_savedPlanWhileColleagueChangeRuns(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 1 }`)},
		{
			Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 9 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				planHook(func() {
					// Their change runs for an hour, until apply follows it.
					setPace(t, emu, emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: time.Hour})
					colleague(t, emu, map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}})
					setPace(t, emu, emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: 300 * time.Millisecond})
					advanceWhenFollowed(t, emu, 2*time.Hour)
				}),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(9)),
				statecheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
			},
			Check: func(*terraform.State) error {
				if n := answeredUpdates(emu); n != 3 {
					return fmt.Errorf("real UpdateDomainConfig calls = %d, want 3 (ours twice, the colleague's once)", n)
				}
				if d, _ := emu.Search.Domain("demo"); d.SoftwareUpdateOptions == nil || d.SoftwareUpdateOptions.AutoSoftwareUpdateEnabled == nil || !*d.SoftwareUpdateOptions.AutoSoftwareUpdateEnabled {
					return fmt.Errorf("the colleague's change was lost")
				}
				return nil
			},
		},
	})
}

// allow_blue_green = false holds when the plan shows no verdict: with
// dry_run_mode Off, apply dry-runs (Basic) before sending and stops.
func TestAccDomainConfig_noBlueGreenWithDryRunsOff(t *testing.T) {
	emu := newDomainEmulator(t)
	emu.ClockToOffPeak()
	parallelTest(t, []resource.TestStep{{
		Config: domainConfig(emu, `  allow_blue_green = false
  dry_run_mode = "Off"
  cluster_config = { instance_type = "r6g.xlarge.search" }`),
		ExpectError: acctest.ErrorRe(`Nothing was sent to domain "demo".*deployment type blue/green.*Blue/Green Deployment Not Allowed`),
	}})
	if n := answeredUpdates(emu); n != 0 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 0", n)
	}
}

// A value known only after apply (a principal another resource creates in
// the same apply) plans cleanly on first adoption: the dry run is deferred
// to apply with a warning, and apply dry-runs the change before sending
// it. When that verdict is blue/green and allow_blue_green is false, apply
// stops without sending.
func TestAccDomainConfig_unknownValuesDeferTheDryRun(t *testing.T) {
	emu := newDomainEmulator(t)
	emu.ClockToOffPeak()
	count := `
resource "terraform_data" "count" {
  input = 6
}
`
	principal := `
resource "terraform_data" "principal" {
  input = "arn:cloud:identity::123456789012:user/reader"
}
`
	body := `  access_policies = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Principal = { CLOUD = terraform_data.principal.output }, Action = "search:*", Resource = "*" }]
  })`
	parallelTest(t, []resource.TestStep{
		{
			Config: domainConfig(emu, `  allow_blue_green = false
  cluster_config = { instance_count = terraform_data.count.output }`) + count,
			// Terraform plans again at apply, once the count is known:
			// that plan's dry run stops the apply.
			ExpectError: acctest.ErrorRe(`Blue/Green Deployment Not Allowed.*ClusterConfig.InstanceCount`),
		},
		{
			Config: domainConfig(emu, body) + principal,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionCreate),
				plancheck.ExpectUnknownValue(domainRes, tfjsonpath.New("dry_run")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
			},
		},
	})
	if n := answeredUpdates(emu); n != 1 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 1 (the policy only)", n)
	}
}

// Adopting a domain whose access policy matches the configuration by
// meaning (key order, whitespace) plans nothing: the import is a no-op.
func TestAccDomainConfig_importMatchingPolicyIsNoOp(t *testing.T) {
	emu := newDomainEmulator(t)
	written := `  access_policies = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Principal = { CLOUD = "*" }, Action = "search:*", Resource = "*" }] })`
	reordered := `  access_policies = "{ \"Statement\": [ { \"Resource\": \"*\", \"Action\": \"search:*\", \"Principal\": { \"CLOUD\": \"*\" }, \"Effect\": \"Allow\" } ], \"Version\": \"2012-10-17\" }"`
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, written)},
		{
			Config:          domainConfig(emu, reordered),
			ResourceName:    domainRes,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   "demo",
		},
	})
}

// An unknown domain_name defers the dry run to apply (a warning says so);
// apply dry-runs the change before sending it and records that dry run.
func TestAccDomainConfig_unknownDomainName(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{{
		Config: emu.ProviderConfig() + `
resource "terraform_data" "name" {
  input = "demo"
}
resource "cloud_search_domain_config" "test" {
  domain_name      = terraform_data.name.output
  snapshot_options = { automated_snapshot_start_hour = 7 }
}
`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectUnknownValue(domainRes, tfjsonpath.New("dry_run")),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
			statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(7)),
		},
	}})
}

// A colleague's dynamic change runs to its end between our plan and our
// apply. The verdict is the same, so the apply goes ahead, but on a dry
// run made after their change (the plan's own predates it): the real
// change follows a dry run of the same request made since.
func TestAccDomainConfig_colleagueDynamicBetweenPlanAndApply(t *testing.T) {
	emu := newDomainEmulator(t)
	var colleagueSeq int
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 1 }`)},
		{
			Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 8 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				planHook(func() {
					colleague(t, emu, map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}})
					recs := emu.Search.UpdateRecords()
					colleagueSeq = recs[len(recs)-1].Seq
					emu.Clock().Advance(time.Second) // the change (0.3 s) completes
				}),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(8)),
			},
			Check: func(*terraform.State) error {
				recs := emu.Search.UpdateRecords()
				last := recs[len(recs)-1]
				if last.DryRun || last.AccessKeyID != emu.AccessKeyID() {
					return fmt.Errorf("the last request is not our real change: %+v", last)
				}
				for i := len(recs) - 2; i >= 0; i-- {
					if d := recs[i]; d.DryRun && d.Request == last.Request {
						if d.Seq < colleagueSeq {
							return fmt.Errorf("our change was sent on dry run %d, made before the colleague's change %d", d.Seq, colleagueSeq)
						}
						return nil
					}
				}
				return fmt.Errorf("our change was sent with no dry run of it")
			},
		},
	})
}

// A colleague makes exactly our change between our plan and our apply of
// the saved plan. Terraform plans again at apply, from the prior state the
// plan's refresh read, and that plan's dry run now says "none": the plan
// stops with the provider's own error naming the new verdict, never
// Terraform's "Provider produced inconsistent final plan" (which the
// pattern would not match), and nothing is sent.
func TestAccDomainConfig_savedPlanColleagueMadeTheSameChange(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 1 }`)},
		{
			Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 8 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
				planHook(func() {
					colleague(t, emu, map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 8}})
					emu.Clock().Advance(time.Second) // the change (0.3 s) completes
				}),
			}},
			ExpectError: acctest.ErrorRe(`Search Domain Changed Since the Plan.*Domain "demo" changed after Terraform last read it.*it changed snapshot_options, which this change sets.*now says deployment type none.*as if someone made the same change.*Nothing was sent. Run terraform plan again`),
		},
	})
	wantNothingSentSinceColleague(t, emu)
}

// A colleague's change to the section our change sets turns our dynamic
// change into a blue/green one: our configuration now reverts their
// field-data cache size. Terraform's plan at apply gets a dry run that says
// blue/green where the reviewed plan said dynamic; the plan stops with the
// provider's own error naming the new verdict, and nothing is sent.
func TestAccDomainConfig_savedPlanColleagueMakesItBlueGreen(t *testing.T) {
	emu := newDomainEmulator(t)
	emu.ClockToOffPeak()
	options := func(explicit, cache string) string {
		return fmt.Sprintf(`  advanced_options = {
    "rest.action.multi.allow_explicit_index" = %q
    "indices.fielddata.cache.size"           = %q
    "indices.query.bool.max_clause_count"    = "1024"
  }`, explicit, cache)
	}
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, options("true", "40"))},
		{
			Config: domainConfig(emu, options("false", "40")),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
				planHook(func() {
					colleague(t, emu, map[string]any{"AdvancedOptions": map[string]any{"rest.action.multi.allow_explicit_index": "true", "indices.fielddata.cache.size": "50"}})
					emu.Clock().Advance(time.Second) // the change (0.3 s) completes
				}),
			}},
			ExpectError: acctest.ErrorRe(`Search Domain Changed Since the Plan.*it changed advanced_options, which this change sets.*now says deployment type blue/green.*Nothing was sent. Run terraform plan again`),
		},
	})
	wantNothingSentSinceColleague(t, emu)
}

// A colleague's change to a section the configuration manages but our
// change does not set leaves the verdict as it was: the apply of the saved
// plan goes ahead (the provider's check does not stop it).
func TestAccDomainConfig_savedPlanColleagueChangesAnotherManagedSection(t *testing.T) {
	emu := newDomainEmulator(t)
	body := func(hour int) string {
		return fmt.Sprintf(`  snapshot_options = { automated_snapshot_start_hour = %d }
  software_update_options = { auto_software_update_enabled = false }`, hour)
	}
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, body(1))},
		{
			Config: domainConfig(emu, body(6)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				planHook(func() {
					colleague(t, emu, map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}})
					emu.Clock().Advance(time.Second) // the change (0.3 s) completes
				}),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(6)),
				statecheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
			},
			// The next plan shows the colleague's change as drift.
			ExpectNonEmptyPlan: true,
		},
	})
	if n := answeredUpdates(emu); n != 3 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 3 (ours twice, the colleague's once)", n)
	}
}

// TestAccDomainConfig_changeAfterImportIsFollowed: only the change an
// import found is let run without a wait. A change that starts after the
// import (here a colleague's; a killed apply of ours looks the same) is
// followed as before: with nothing else to send, the plan still waits for
// its end (config_change_status unknown).
func TestAccDomainConfig_changeAfterImportIsFollowed(t *testing.T) {
	emu := newDomainEmulator(t)
	setPace(t, emu, emusearch.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: time.Hour})
	emu.ClockToOffPeak()
	config := emu.ProviderConfig() + `
resource "cloud_search_domain_config" "test" {
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = 0 }
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config + "import {\n  to = cloud_search_domain_config.test\n  id = \"demo\"\n}\n",
			},
			{
				PreConfig: func() {
					if _, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{
						DomainName: "demo",
						Sections:   map[string]any{"ClusterConfig": map[string]any{"InstanceType": "r6g.xlarge.search"}},
					}); err != nil {
						t.Fatal(err)
					}
					emu.Clock().Advance(90 * time.Minute)
				},
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(domainRes, tfjsonpath.New("config_change_status")),
				}},
			},
		},
	})
}
