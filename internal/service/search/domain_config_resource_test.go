package search_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

const domainRes = "cloud_search_domain_config.test"

// newDomainEmulator is an emulator whose search service runs at test pace.
func newDomainEmulator(t *testing.T) *acctest.Emulator {
	t.Helper()
	emu := acctest.NewEmulator(t)
	if err := emu.Search.SetPace(emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	return emu
}

func domainConfig(emu *acctest.Emulator, body string) string {
	return emu.ProviderConfig() + fmt.Sprintf(`
resource "cloud_search_domain_config" "test" {
  domain_name = "demo"
%s
}
`, body)
}

// blue/green changes outside the demo domain's off-peak window draw an
// Advisory warning whatever the time of day, so tests that make them
// accept it.
const acceptOffPeak = `  accepted_warnings = ["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"]`

func dryRunValue(path string) tfjsonpath.Path { return tfjsonpath.New("dry_run").AtMapKey(path) }

// updates counts real (not dry-run) UpdateDomainConfig calls.
func updates(emu *acctest.Emulator) int { return emu.CountCalls("UpdateDomainConfig", false) }

func TestAccDomainConfig_dynamicChange(t *testing.T) {
	emu := newDomainEmulator(t)
	sameChange := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 5 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
					plancheck.ExpectKnownValue(domainRes, dryRunValue("status"), knownvalue.StringExact("completed")),
					plancheck.ExpectKnownValue(domainRes, dryRunValue("validation_failures"), knownvalue.ListSizeExact(0)),
					plancheck.ExpectUnknownValue(domainRes, dryRunValue("id")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("config_change_status"), knownvalue.StringExact("Completed")),
					statecheck.ExpectKnownValue(domainRes, dryRunValue("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`))),
					// A section the configuration does not set is read, not managed.
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("cluster_config").AtMapKey("instance_count"), knownvalue.Int64Exact(3)),
					sameChange.AddStateValue(domainRes, tfjsonpath.New("change_id")),
				},
				Check: func(*terraform.State) error {
					if n := updates(emu); n != 1 {
						return fmt.Errorf("real UpdateDomainConfig calls = %d, want 1", n)
					}
					return nil
				},
			},
			{
				// Unchanged: an empty plan, no dry run, no update.
				Config:           domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 5 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameChange.AddStateValue(domainRes, tfjsonpath.New("change_id")),
				},
				Check: func(*terraform.State) error {
					if n := updates(emu); n != 1 {
						return fmt.Errorf("real UpdateDomainConfig calls = %d after an unchanged plan, want still 1", n)
					}
					return nil
				},
			},
			{
				ResourceName:                         domainRes,
				ImportState:                          true,
				ImportStateId:                        "demo",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "domain_name",
				ImportStateVerifyIgnore:              []string{"dry_run"},
			},
		},
	})
}

func TestAccDomainConfig_blueGreen(t *testing.T) {
	emu := newDomainEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: domainConfig(emu, acceptOffPeak+`
  cluster_config = { instance_type = "r6g.xlarge.search" }
  allow_blue_green = false`),
				ExpectError: acctest.ErrorRe(`Blue/Green Deployment Not Allowed.*blue/green deployment, and allow_blue_green is false`),
			},
			{
				Config: domainConfig(emu, acceptOffPeak+`
  cluster_config = { instance_type = "r6g.xlarge.search" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("blue/green")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("cluster_config").AtMapKey("instance_type"), knownvalue.StringExact("r6g.xlarge.search")),
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("config_change_status"), knownvalue.StringExact("Completed")),
				},
				Check: func(*terraform.State) error {
					d, _ := emu.Search.Domain("demo")
					if got := *d.ClusterConfig.InstanceType; got != "r6g.xlarge.search" {
						return fmt.Errorf("the domain's instance type is %s after apply", got)
					}
					return nil
				},
			},
		},
	})
}

func TestAccDomainConfig_advisoryWarning(t *testing.T) {
	emu := newDomainEmulator(t)
	cfg := `  cluster_config = { dedicated_master_enabled = false }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      domainConfig(emu, acceptOffPeak+"\n"+cfg),
				ExpectError: acctest.ErrorRe(`Unaccepted Dry Run Warning.*ADV_NO_DEDICATED_MASTERS.*accept it by adding "ADV_NO_DEDICATED_MASTERS" to accepted_warnings`),
			},
			{
				Config: domainConfig(emu, `  accepted_warnings = ["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK", "ADV_NO_DEDICATED_MASTERS"]`+"\n"+cfg),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(domainRes, dryRunValue("validation_failures"), knownvalue.ListPartial(map[int]knownvalue.Check{
						0: knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"severity": knownvalue.StringExact("Advisory"),
						}),
					})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("cluster_config").AtMapKey("dedicated_master_enabled"), knownvalue.Bool(false)),
				},
			},
		},
	})
}

func TestAccDomainConfig_criticalFailure(t *testing.T) {
	emu := newDomainEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      domainConfig(emu, acceptOffPeak+"\n"+`  encryption_at_rest_options = { enabled = false }`),
			ExpectError: acctest.ErrorRe(`Dry Run Found a Critical Failure.*CRIT_ENCRYPTION_AT_REST_DISABLE.*cannot be accepted`),
		}},
	})
	if n := updates(emu); n != 0 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 0", n)
	}
}

func TestAccDomainConfig_rulesWithoutCalls(t *testing.T) {
	emu := newDomainEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: domainConfig(emu, acceptOffPeak+"\n"+`  ip_address_type = "dualstack"`)},
			{
				PreConfig:   func() { emu.ClearCalls() },
				Config:      domainConfig(emu, `  engine_mode = "OPTIMIZED"`),
				ExpectError: acctest.ErrorRe(`Engine Mode Cannot Change.*created with engine_mode GENERAL`),
			},
			{
				Config:      domainConfig(emu, `  ip_address_type = "ipv4"`),
				ExpectError: acctest.ErrorRe(`IP Address Type Cannot Go Back.*cannot be changed back to ipv4`),
			},
		},
	})
	// Since the calls were cleared: neither rule made a dry run or a change
	// (destroy makes none either).
	if n := emu.CountCalls("UpdateDomainConfig", true) + updates(emu); n != 0 {
		t.Errorf("UpdateDomainConfig calls = %d after the refused plans, want 0", n)
	}
}

func TestAccDomainConfig_failedStage(t *testing.T) {
	emu := newDomainEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := emu.Search.FailNextChangeAt("CopyingShards", "shard copy ran out of disk"); err != nil {
						t.Fatal(err)
					}
				},
				Config:      domainConfig(emu, acceptOffPeak+"\n"+`  block_volume_options = { volume_size = 200 }`),
				ExpectError: acctest.ErrorRe(`Unable to Create Search Domain Config.*failed: stage CopyingShards failed.*The service says: shard copy ran out of disk.*Nothing of the change was applied`),
			},
		},
	})
}

func TestAccDomainConfig_timeoutThenWait(t *testing.T) {
	emu := newDomainEmulator(t)
	cfg := acceptOffPeak + "\n" + `  block_volume_options = { volume_size = 300 }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 1 }`)},
			{
				PreConfig: func() {
					_ = emu.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: time.Hour, Dynamic: time.Second})
				},
				Config:      domainConfig(emu, cfg+"\n  timeouts = { update = \"2s\" }"),
				ExpectError: acctest.ErrorRe(`stopped waiting for change .*the timeout ran out.*next apply waits for it without sending it again`),
			},
			{
				// The change has one more stage to go (emulated time now runs an
				// hour a second): apply waits for it and sends nothing again.
				PreConfig: func() {
					emu.Clock().Advance(3*time.Hour + 30*time.Minute)
					emu.Clock().SetSpeed(3600)
				},
				Config: domainConfig(emu, cfg+"\n  timeouts = { update = \"2s\" }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(domainRes, tfjsonpath.New("config_change_status")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("config_change_status"), knownvalue.StringExact("Completed")),
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("block_volume_options").AtMapKey("volume_size"), knownvalue.Int64Exact(300)),
				},
				Check: func(*terraform.State) error {
					if n := updates(emu); n != 2 {
						return fmt.Errorf("real UpdateDomainConfig calls = %d, want 2 (the blue/green change was sent once)", n)
					}
					return nil
				},
			},
			{
				PreConfig:        func() { emu.Clock().SetSpeed(1) },
				Config:           domainConfig(emu, cfg+"\n  timeouts = { update = \"2s\" }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// The write-only password reaches the service when its version changes and
// is never in the plan or the state.
func TestAccDomainConfig_writeOnlyPassword(t *testing.T) {
	emu := newDomainEmulator(t)
	cfg := func(pw string, version int) string {
		return domainConfig(emu, fmt.Sprintf(`  advanced_security_options = {
    master_user_options = { master_user_name = "admin" }
  }
  master_user_password_wo         = %q
  master_user_password_wo_version = %d`, pw, version))
	}
	noPassword := statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("master_user_password_wo"), knownvalue.Null())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      cfg("short", 1),
				ExpectError: acctest.ErrorRe(`master_user_password_wo string length must be between 8 and 128`),
			},
			{
				Config:            cfg("first-Passw0rd", 1),
				ConfigStateChecks: []statecheck.StateCheck{noPassword},
				Check: func(*terraform.State) error {
					if !emu.Search.MasterUserPasswordIs("demo", "first-Passw0rd") {
						return fmt.Errorf("the domain did not receive the write-only password")
					}
					return nil
				},
			},
			{
				// A new password alone is not sent: the version did not change.
				Config:           cfg("second-Passw0rd", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: cfg("second-Passw0rd", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{noPassword},
				Check: func(*terraform.State) error {
					if !emu.Search.MasterUserPasswordIs("demo", "second-Passw0rd") {
						return fmt.Errorf("the domain did not receive the new write-only password")
					}
					return nil
				},
			},
		},
	})
}

// planHook runs a function between plan and apply.
type planHook func()

func (h planHook) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	h()
}

// untilHour is how far the emulator clock must move to reach the next
// hh:00 UTC.
func untilHour(now time.Time, hh int) time.Duration {
	next := time.Date(now.Year(), now.Month(), now.Day(), hh, 0, 0, 0, time.UTC)
	if !next.After(now) {
		next = next.Add(24 * time.Hour)
	}
	return next.Sub(now)
}

// A saved plan applies what was reviewed: when the service's verdict
// changes between plan and apply, the apply stops and sends nothing.
func TestAccDomainConfig_verdictChangedSincePlan(t *testing.T) {
	emu := newDomainEmulator(t)
	// Plan inside the demo domain's off-peak window (00:00-10:00 UTC).
	emu.Clock().Advance(untilHour(emu.Clock().Now(), 1))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: domainConfig(emu, acceptOffPeak+"\n"+`  cluster_config = { instance_type = "r6g.2xlarge.search" }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(domainRes, dryRunValue("validation_failures"), knownvalue.ListSizeExact(0)),
				// Between review and apply the window closes: a repeat dry
				// run now reports ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK.
				planHook(func() { emu.Clock().Advance(12 * time.Hour) }),
			}},
			ExpectError: regexp.MustCompile(`(?s)Provider produced inconsistent final plan.*dry_run`),
		}},
	})
	if n := updates(emu); n != 0 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 0: nothing but the reviewed change may be applied", n)
	}
}
