package search_test

import (
	"fmt"
	"regexp"
	"strings"
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
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// blue/green changes outside the demo domain's off-peak window draw an
// Advisory warning whatever the time of day, so tests that make them
// accept it.
const acceptOffPeak = `  accepted_warnings = ["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"]`

func TestAccDomainConfig_dynamicChange(t *testing.T) {
	emu := newDomainEmulator(t)
	sameChange := statecheck.CompareValue(compare.ValuesSame())
	parallelTest(t, []resource.TestStep{
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
				if n := answeredUpdates(emu); n != 1 {
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
				if n := answeredUpdates(emu); n != 1 {
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
	})
}

func TestAccDomainConfig_blueGreen(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{
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
	})
}

func TestAccDomainConfig_advisoryWarning(t *testing.T) {
	emu := newDomainEmulator(t)
	cfg := `  cluster_config = { dedicated_master_enabled = false }`
	parallelTest(t, []resource.TestStep{
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
	})
}

func TestAccDomainConfig_criticalFailure(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{{
		Config:      domainConfig(emu, acceptOffPeak+"\n"+`  encryption_at_rest_options = { enabled = false }`),
		ExpectError: acctest.ErrorRe(`Dry Run Found a Critical Failure.*CRIT_ENCRYPTION_AT_REST_DISABLE.*cannot be accepted`),
	}})
	if n := answeredUpdates(emu); n != 0 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 0", n)
	}
}

func TestAccDomainConfig_rulesWithoutCalls(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{
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
	})
	// Since the calls were cleared: neither rule made a dry run or a change
	// (destroy makes none either).
	if n := emu.Sent("UpdateDomainConfig"); n != 0 {
		t.Errorf("UpdateDomainConfig calls = %d after the refused plans, want 0", n)
	}
}

func TestAccDomainConfig_failedStage(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				if err := emu.Search.FailNextChangeAt("CopyingShards", "shard copy ran out of disk"); err != nil {
					t.Fatal(err)
				}
			},
			Config:      domainConfig(emu, acceptOffPeak+"\n"+`  block_volume_options = { volume_size = 200 }`),
			ExpectError: acctest.ErrorRe(`Unable to Create Search Domain Config.*failed: stage CopyingShards failed.*The service says: shard copy ran out of disk.*Nothing of the change was applied`),
		},
	})
}

func TestAccDomainConfig_timeoutThenWait(t *testing.T) {
	emu := newDomainEmulator(t)
	cfg := acceptOffPeak + "\n" + `  block_volume_options = { volume_size = 300 }`
	parallelTest(t, []resource.TestStep{
		{Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 1 }`)},
		{
			PreConfig: func() {
				_ = emu.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: time.Hour, Dynamic: time.Second})
			},
			Config:      domainConfig(emu, cfg+"\n  timeouts = { update = \"2s\" }"),
			ExpectError: acctest.ErrorRe(`stopped waiting for change .*the timeout ran out.*next apply waits for it without sending it again`),
		},
		{
			// The change has half an hour of its last stage to go, on a
			// held clock: the plan sees it running however slow the
			// machine. Once the plan is checked the stage ends, and apply
			// follows the change to its end and sends nothing again.
			PreConfig: func() {
				emu.Clock().Hold()
				emu.Clock().Advance(3*time.Hour + 30*time.Minute)
				// As on a loaded machine, the refresh takes a second. On
				// the held clock this changes nothing; it stays so that a
				// step that let the clock run again (as it once ran, an
				// hour a second) fails here every time, as it failed in CI
				// under load, instead of only on a slow machine.
				if err := emu.InjectFault(emulator.Fault{Service: "search", Operation: "DescribeDomainConfig", Kind: emulator.FaultDelay, Delay: time.Second}); err != nil {
					t.Fatal(err)
				}
			},
			Config: domainConfig(emu, cfg+"\n  timeouts = { update = \"2s\" }"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionUpdate),
				plancheck.ExpectUnknownValue(domainRes, tfjsonpath.New("config_change_status")),
				planHook(func() { emu.Clock().Advance(time.Hour) }),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("config_change_status"), knownvalue.StringExact("Completed")),
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("block_volume_options").AtMapKey("volume_size"), knownvalue.Int64Exact(300)),
			},
			Check: func(*terraform.State) error {
				if n := answeredUpdates(emu); n != 2 {
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
	parallelTest(t, []resource.TestStep{
		{
			Config:      cfg("short", 1),
			ExpectError: acctest.ErrorRe(`master_user_password_wo UTF-8 character count must be between 8 and 128`),
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
	})
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
	parallelTest(t, []resource.TestStep{{
		Config: domainConfig(emu, acceptOffPeak+"\n"+`  cluster_config = { instance_type = "r6g.2xlarge.search" }`),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(domainRes, dryRunValue("validation_failures"), knownvalue.ListSizeExact(0)),
			// Between review and apply the window closes: a repeat dry
			// run now reports ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK.
			planHook(func() { emu.Clock().Advance(12 * time.Hour) }),
		}},
		ExpectError: regexp.MustCompile(`(?s)Provider produced inconsistent final plan.*dry_run`),
	}})
	if n := answeredUpdates(emu); n != 0 {
		t.Errorf("real UpdateDomainConfig calls = %d, want 0: nothing but the reviewed change may be applied", n)
	}
}

// The plan shows what each changed property is now and will be (the dry
// run's ModifyingProperties) and the dry run's mode; a second change of the
// same deployment type has its verdict in the plan too.
func TestAccDomainConfig_planShowsEveryChange(t *testing.T) {
	emu := newDomainEmulator(t)
	hour := func(h int) string {
		return fmt.Sprintf("  snapshot_options = { automated_snapshot_start_hour = %d }", h)
	}
	change := func(from, to string) knownvalue.Check {
		return knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name":          knownvalue.StringExact("SnapshotOptions.AutomatedSnapshotStartHour"),
			"active_value":  knownvalue.StringExact(from),
			"pending_value": knownvalue.StringExact(to),
			"value_type":    knownvalue.NotNull(),
		})})
	}
	parallelTest(t, []resource.TestStep{
		{
			Config: domainConfig(emu, hour(5)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionCreate),
				plancheck.ExpectKnownValue(domainRes, dryRunValue("mode"), knownvalue.StringExact("Verbose")),
				// The active values move with other people's changes, so
				// the plan leaves them unknown (Terraform plans again at
				// apply); the state records them.
				plancheck.ExpectUnknownValue(domainRes, dryRunValue("modifying_properties")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, dryRunValue("modifying_properties"), change("0", "5")),
			},
		},
		{
			Config: domainConfig(emu, hour(6)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(domainRes, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
				plancheck.ExpectUnknownValue(domainRes, dryRunValue("modifying_properties")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(domainRes, dryRunValue("modifying_properties"), change("5", "6")),
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(6)),
			},
		},
	})
}

// A plan always runs its own dry run (a verdict read back from an earlier
// one could predate someone else's change), and apply sends the request it
// analysed: the state records the dry run that stands for the change sent.
func TestAccDomainConfig_recordsTheDryRunOfTheChangeSent(t *testing.T) {
	emu := newDomainEmulator(t)
	c := searchClient(t, emu)
	parallelTest(t, []resource.TestStep{{
		PreConfig: func() { emu.ClearCalls() },
		Config:    domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 4 }`),
		Check: func(s *terraform.State) error {
			if n := answeredUpdates(emu); n != 1 {
				return fmt.Errorf("real UpdateDomainConfig calls = %d, want 1", n)
			}
			sent, dry := -1, -1
			for i, call := range emu.Calls() {
				if call.Operation == "UpdateDomainConfig" && call.Status < 300 {
					if call.DryRun {
						dry = i
					} else {
						sent = i
					}
				}
			}
			if dry < 0 || dry > sent {
				return fmt.Errorf("the change was sent (call %d) without a dry run before it (last dry run: call %d)", sent, dry)
			}
			latest, err := c.DescribeDryRunProgress(testCtx(t), searchclient.DescribeDryRunProgressInput{DomainName: "demo"})
			if err != nil {
				return err
			}
			if got, want := s.RootModule().Resources[domainRes].Primary.Attributes["dry_run.id"], *latest.DryRunProgressStatus.DryRunId; got != want {
				return fmt.Errorf("state dry_run.id = %q, want the dry run made just before the change, %q", got, want)
			}
			return nil
		},
	}})
}

// dry_run.mode tells a reviewer (or a policy) what the dry run checked.
func TestAccDomainConfig_dryRunModes(t *testing.T) {
	emu := newDomainEmulator(t)
	parallelTest(t, []resource.TestStep{
		{
			Config: domainConfig(emu, `  dry_run_mode = "Basic"
  snapshot_options = { automated_snapshot_start_hour = 2 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(domainRes, dryRunValue("mode"), knownvalue.StringExact("Basic")),
				plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.StringExact("dynamic")),
				plancheck.ExpectKnownValue(domainRes, dryRunValue("validation_failures"), knownvalue.ListSizeExact(0)),
			}},
		},
		{
			Config: domainConfig(emu, `  dry_run_mode = "Off"
  snapshot_options = { automated_snapshot_start_hour = 3 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(domainRes, dryRunValue("mode"), knownvalue.StringExact("Off")),
				plancheck.ExpectKnownValue(domainRes, dryRunValue("deployment_type"), knownvalue.Null()),
			}},
		},
	})
}

// A change someone else started is followed to its end, then the planned
// change is sent: the apply neither fails with "A change is already in
// progress" nor loses either change. Found running at plan time, the plan
// says so; started between plan and apply (with dry_run_mode Off, so that
// nothing of the reviewed plan depends on the domain's state), the refusal
// of the send is what finds it.
func TestAccDomainConfig_followsAnotherChange(t *testing.T) {
	for _, tc := range []struct {
		name    string
		atPlan  bool
		setting string
	}{
		{"running at plan", true, ""},
		{"started between plan and apply", false, "\n  dry_run_mode = \"Off\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emu := newDomainEmulator(t)
			c := searchClient(t, emu)
			// The other change runs for hours, however slow the machine,
			// until apply follows it; ours, made after, is quick.
			other := func() {
				setPace(t, emu, emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: time.Hour})
				_, err := c.UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{
					DomainName: "demo",
					Sections:   map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}},
				})
				if err != nil {
					t.Errorf("starting the other change: %v", err)
				}
				setPace(t, emu, emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: 300 * time.Millisecond})
			}
			// Registered once the plan is made, so that only apply's
			// following the change ends it.
			endWhenFollowed := func() { advanceWhenFollowed(t, emu, 2*time.Hour) }
			second := resource.TestStep{
				Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 9 }`+tc.setting),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), knownvalue.Int64Exact(9)),
					statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("config_change_status"), knownvalue.StringExact("Completed")),
				},
				Check: func(*terraform.State) error {
					// Ours twice (steps 1 and 2) and the other one.
					if n := answeredUpdates(emu); n != 3 {
						return fmt.Errorf("real UpdateDomainConfig calls that succeeded = %d, want 3", n)
					}
					if !followedBeforeSending(emu.Calls()) {
						return fmt.Errorf("our change was sent without following the other one first")
					}
					if d, _ := emu.Search.Domain("demo"); d.SoftwareUpdateOptions == nil || d.SoftwareUpdateOptions.AutoSoftwareUpdateEnabled == nil || !*d.SoftwareUpdateOptions.AutoSoftwareUpdateEnabled {
						return fmt.Errorf("the other change was lost")
					}
					return nil
				},
			}
			if tc.atPlan {
				second.PreConfig = other
				second.ConfigPlanChecks = resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planHook(endWhenFollowed)}}
			} else {
				second.ConfigPlanChecks = resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planHook(func() { other(); endWhenFollowed() })}}
			}
			parallelTest(t, []resource.TestStep{
				{Config: domainConfig(emu, `  snapshot_options = { automated_snapshot_start_hour = 1 }`+tc.setting)},
				second,
			})
		})
	}
}

// followedBeforeSending reports whether a DescribeDomainChangeProgress was
// answered between the other change (the second real UpdateDomainConfig
// that succeeded) and ours (the third).
func followedBeforeSending(calls []emulator.Call) bool {
	sent, followed := 0, false
	for _, c := range calls {
		switch {
		case c.Status >= 300:
		case c.Operation == "UpdateDomainConfig" && !c.DryRun:
			sent++
			if sent == 3 {
				return followed
			}
		case c.Operation == "DescribeDomainChangeProgress" && sent == 2:
			followed = true
		}
	}
	return false
}

// Mistakes the spec's rules catch are refused at validate time, naming the
// attribute, before any call.
func TestAccDomainConfig_refusedBeforeAnyCall(t *testing.T) {
	emu := newDomainEmulator(t)
	steps := []resource.TestStep{}
	for _, tc := range []struct{ body, want string }{
		{`  access_policies = jsonencode(["not", "an", "object"])`, `Invalid Policy Document.*access_policies must be a JSON policy document, an object.*got an array`},
		{`  access_policies = "\"just a string\""`, `Invalid Policy Document.*got a string`},
		{`  automated_snapshot_pause_options = { enabled = true }`, `Incomplete Snapshot Suspension.*start_time is not set`},
		{`  cluster_config = { instance_count = 1.5 }`, `Invalid Whole Number.*cluster_config.instance_count must be a whole number.*got 1.5`},
		{`  off_peak_window_options = { off_peak_window = { window_start_time = { hours = 2.25 } } }`, `off_peak_window_options.off_peak_window.window_start_time.hours must be a whole number`},
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
