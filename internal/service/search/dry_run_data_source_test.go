package search_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

const dryRunAddr = "data.cloud_search_domain_dry_run.test"

// startDryRun submits a dry run of a blue/green change of the demo domain
// that draws one Advisory warning (no dedicated masters).
func startDryRun(t *testing.T, emu *acctest.Emulator, mode string) string {
	t.Helper()
	out, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{
		DomainName: "demo",
		DryRun:     new(true),
		DryRunMode: new(mode),
		Sections: map[string]any{"ClusterConfig": map[string]any{
			"InstanceType":           "r6g.xlarge.search",
			"DedicatedMasterEnabled": false,
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return *out.DryRunProgressStatus.DryRunId
}

func TestAccDryRunDataSource_progressAndPlannedConfig(t *testing.T) {
	emu := acctest.NewEmulator(t)
	setPace(t, emu, emusearch.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: time.Hour})
	emu.ClockToOffPeak()
	id := startDryRun(t, emu, searchclient.DryRunModeVerbose)
	parallelTest(t, []resource.TestStep{
		{
			// In progress: the deployment type is known, findings are not yet.
			Config: dryRunConfig(emu, "demo", id, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_status"), knownvalue.StringExact("pending")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("deployment_type"), knownvalue.StringExact("blue/green")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("validation_failures"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("accepted_warnings"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("creation_date"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config"), knownvalue.Null()),
			},
		},
		{
			PreConfig: func() { emu.Clock().Advance(30 * time.Minute) },
			Config:    dryRunConfig(emu, "demo", id, "load_dry_run_config = true"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_status"), knownvalue.StringExact("in-progress")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("cluster_config").AtMapKey("instance_type"), knownvalue.StringExact("r6g.xlarge.search")),
			},
		},
		{
			// Completed: the findings and the planned configuration.
			PreConfig: func() { emu.Clock().Advance(time.Hour) },
			Config:    dryRunConfig(emu, "demo", id, "load_dry_run_config = true"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("validation_failures"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"code":     knownvalue.StringExact("ADV_NO_DEDICATED_MASTERS"),
						"severity": knownvalue.StringExact("Advisory"),
						"message":  knownvalue.NotNull(),
					}),
				})),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("domain_name"), knownvalue.StringExact("demo")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("arn"), knownvalue.StringExact("arn:cloud:search:us-east-1:123456789012:domain/demo")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("cluster_config").AtMapKey("instance_type"), knownvalue.StringExact("r6g.xlarge.search")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("cluster_config").AtMapKey("dedicated_master_enabled"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("cluster_config").AtMapKey("instance_count"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("engine_mode"), knownvalue.StringExact("GENERAL")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("advanced_options").AtMapKey("rest.action.multi.allow_explicit_index"), knownvalue.StringExact("true")),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("off_peak_window_options").AtMapKey("off_peak_window").AtMapKey("window_start_time").AtMapKey("hours"), knownvalue.Int64Exact(0)),
				statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_config").AtMapKey("encryption_at_rest_options").AtMapKey("enabled"), knownvalue.Bool(true)),
			},
		},
	})
}

// The dry run lasts an hour, however slow the machine, until the data
// source has read it running; the data source then reads it again, done.
func TestAccDryRunDataSource_waitForCompletion(t *testing.T) {
	emu := acctest.NewEmulator(t)
	setPace(t, emu, emusearch.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: time.Hour})
	emu.ClockToOffPeak()
	id := startDryRun(t, emu, searchclient.DryRunModeVerbose)
	var before int
	parallelTest(t, []resource.TestStep{{
		// Armed once the test has its parallel slot, so that the wait for
		// one neither runs the watch's deadline nor lets the clock move.
		PreConfig: func() {
			before = emu.Answered("DescribeDryRunProgress", false)
			emu.WhenCalled(t, "DescribeDryRunProgress", 2*time.Minute, func() { emu.Clock().Advance(2 * time.Hour) })
		},
		Config: dryRunConfig(emu, "demo", id, `wait_for_completion = true
  timeouts {
    read = "5m"
  }`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("dry_run_status"), knownvalue.StringExact("completed")),
			statecheck.ExpectKnownValue(dryRunAddr, tfjsonpath.New("validation_failures"), knownvalue.ListSizeExact(1)),
		},
		Check: func(*terraform.State) error {
			// Once running, once done (a refresh may read it again).
			if n := emu.Answered("DescribeDryRunProgress", false) - before; n < 2 {
				return fmt.Errorf("%d DescribeDryRunProgress calls, want 2 or more: the data source did not wait", n)
			}
			return nil
		},
	}})
}

func TestAccDryRunDataSource_waitTimesOut(t *testing.T) {
	emu := acctest.NewEmulator(t)
	setPace(t, emu, emusearch.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: time.Hour})
	id := startDryRun(t, emu, searchclient.DryRunModeVerbose)
	parallelTest(t, []resource.TestStep{{
		Config: dryRunConfig(emu, "demo", id, `wait_for_completion = true
  timeouts {
    read = "1s"
  }`),
		ExpectError: acctest.ErrorRe(`was still "pending" after 1s. Raise timeouts.read`),
	}})
}

func TestAccDryRunDataSource_errors(t *testing.T) {
	emu := acctest.NewEmulator(t)
	basic := startDryRun(t, emu, searchclient.DryRunModeBasic)
	const unknownID = "00000000-0000-4000-8000-000000000000"
	parallelTest(t, []resource.TestStep{
		{
			Config:      dryRunConfig(emu, "demo", unknownID, ""),
			ExpectError: acctest.ErrorRe(`Domain "demo" has no dry run with id ` + unknownID + `. .*dry_run.id attribute`),
		},
		{
			Config:      dryRunConfig(emu, "nope", unknownID, ""),
			ExpectError: acctest.ErrorRe(`The search domain "nope" does not exist in region us-east-1`),
		},
		{
			Config:      dryRunConfig(emu, "demo", basic, "load_dry_run_config = true"),
			ExpectError: acctest.ErrorRe(`keeps the planned configuration of Verbose dry runs only`),
		},
	})
}

// Bad input fails at validate time, before any call to the service.
func TestAccDryRunDataSource_validation(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, []resource.TestStep{
		{
			Config:      dryRunConfig(emu, "demo", "not-an-id", ""),
			ExpectError: acctest.ErrorRe(`must be 36 characters in hexadecimal groups 8-4-4-4-12`),
		},
		{
			Config:      dryRunConfig(emu, "Demo_Domain", "00000000-0000-4000-8000-000000000000", ""),
			ExpectError: acctest.ErrorRe(`must start with a lower-case letter`),
		},
		{
			Config:      dryRunConfig(emu, "ab", "00000000-0000-4000-8000-000000000000", ""),
			ExpectError: acctest.ErrorRe(`string length must be between 3 and 28`),
		},
		{
			Config: dryRunConfig(emu, "demo", "00000000-0000-4000-8000-000000000000", `wait_for_completion = true
  timeouts {
    read = "soon"
  }`),
			ExpectError: acctest.ErrorRe(`"soon" must be a string containing a sequence of decimal numbers`),
		},
	})
	if n := emu.Sent("DescribeDryRunProgress"); n != 0 {
		t.Errorf("%d DescribeDryRunProgress calls, want 0", n)
	}
}
