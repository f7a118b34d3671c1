package search_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

const (
	latestAddr = "data.cloud_search_domain_change_progress.latest"
	byIDAddr   = "data.cloud_search_domain_change_progress.by_id"
)

func changeProgressConfig(emu *acctest.Emulator, changeID string) string {
	return emu.ProviderConfig() + fmt.Sprintf(`
data "cloud_search_domain_change_progress" "latest" {
  domain_name = "demo"
}

data "cloud_search_domain_change_progress" "by_id" {
  domain_name = "demo"
  change_id   = %q
}
`, changeID)
}

func stageStatuses(statuses ...string) knownvalue.Check {
	names := []string{"Validation", "CreatingNewEnvironment", "CopyingShards", "DeletingOldEnvironment"}
	checks := make([]knownvalue.Check, 0, len(statuses))
	for i, s := range statuses {
		want := map[string]knownvalue.Check{
			"name":        knownvalue.StringExact(names[i]),
			"status":      knownvalue.StringExact(s),
			"description": knownvalue.NotNull(),
		}
		if s != "PENDING" {
			// A stage that has not started has not been updated either.
			want["last_updated"] = knownvalue.NotNull()
		}
		checks = append(checks, knownvalue.ObjectPartial(want))
	}
	return knownvalue.ListExact(checks)
}

func TestAccChangeProgressDataSource_blueGreen(t *testing.T) {
	emu := acctest.NewEmulator(t)
	setPace(t, emu, emusearch.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: time.Hour})
	emu.ClockToOffPeak()
	out, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{
		DomainName: "demo",
		Sections:   map[string]any{"ClusterConfig": map[string]any{"InstanceType": "r6g.xlarge.search"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := *out.DomainConfig.ChangeProgressDetails.ChangeId
	// Into the second of four one-hour stages.
	emu.Clock().Advance(90 * time.Minute)
	both := func(p tfjsonpath.Path, c knownvalue.Check) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectKnownValue(latestAddr, p, c), statecheck.ExpectKnownValue(byIDAddr, p, c)}
	}
	var during, after []statecheck.StateCheck
	for _, cs := range [][]statecheck.StateCheck{
		both(tfjsonpath.New("change_id"), knownvalue.StringExact(id)),
		both(tfjsonpath.New("status"), knownvalue.StringExact("PROCESSING")),
		both(tfjsonpath.New("config_change_status"), knownvalue.StringExact("ApplyingChanges")),
		both(tfjsonpath.New("total_number_of_stages"), knownvalue.Int64Exact(4)),
		both(tfjsonpath.New("change_progress_stages"), stageStatuses("COMPLETED", "PROCESSING", "PENDING", "PENDING")),
		both(tfjsonpath.New("pending_properties"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("ClusterConfig.InstanceType")})),
		both(tfjsonpath.New("completed_properties"), knownvalue.ListExact([]knownvalue.Check{})),
		both(tfjsonpath.New("initiated_by"), knownvalue.StringExact("CUSTOMER")),
		both(tfjsonpath.New("start_time"), knownvalue.NotNull()),
		both(tfjsonpath.New("validation_failures"), knownvalue.ListExact([]knownvalue.Check{})),
	} {
		during = append(during, cs...)
	}
	for _, cs := range [][]statecheck.StateCheck{
		both(tfjsonpath.New("change_id"), knownvalue.StringExact(id)),
		both(tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
		both(tfjsonpath.New("config_change_status"), knownvalue.StringExact("Completed")),
		both(tfjsonpath.New("change_progress_stages"), stageStatuses("COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED")),
		both(tfjsonpath.New("pending_properties"), knownvalue.ListExact([]knownvalue.Check{})),
		both(tfjsonpath.New("completed_properties"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("ClusterConfig.InstanceType")})),
	} {
		after = append(after, cs...)
	}
	parallelTest(t, []resource.TestStep{
		{Config: changeProgressConfig(emu, id), ConfigStateChecks: during},
		{
			PreConfig:         func() { emu.Clock().Advance(3 * time.Hour) },
			Config:            changeProgressConfig(emu, id),
			ConfigStateChecks: after,
		},
	})
}

// A domain that never changed reports null scalars and empty lists.
func TestAccChangeProgressDataSource_noChange(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, []resource.TestStep{{
		Config: emu.ProviderConfig() + `
data "cloud_search_domain_change_progress" "latest" {
  domain_name = "demo"
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(latestAddr, tfjsonpath.New("change_id"), knownvalue.Null()),
			statecheck.ExpectKnownValue(latestAddr, tfjsonpath.New("status"), knownvalue.Null()),
			statecheck.ExpectKnownValue(latestAddr, tfjsonpath.New("total_number_of_stages"), knownvalue.Null()),
			statecheck.ExpectKnownValue(latestAddr, tfjsonpath.New("change_progress_stages"), knownvalue.ListExact([]knownvalue.Check{})),
			statecheck.ExpectKnownValue(latestAddr, tfjsonpath.New("pending_properties"), knownvalue.ListExact([]knownvalue.Check{})),
		},
	}})
}

func TestAccChangeProgressDataSource_errors(t *testing.T) {
	emu := acctest.NewEmulator(t)
	const unknownID = "11111111-2222-4333-8444-555555555555"
	cfg := func(domain, extra string) string {
		return emu.ProviderConfig() + fmt.Sprintf(`
data "cloud_search_domain_change_progress" "test" {
  domain_name = %q
  %s
}
`, domain, extra)
	}
	parallelTest(t, []resource.TestStep{
		{
			Config:      cfg("demo", fmt.Sprintf("change_id = %q", unknownID)),
			ExpectError: acctest.ErrorRe(`Domain "demo" has no change with id ` + unknownID + `. Use the change_id attribute of cloud_search_domain_config, or omit change_id`),
		},
		{
			Config:      cfg("nope", ""),
			ExpectError: acctest.ErrorRe(`The search domain "nope" does not exist in region us-east-1`),
		},
		{
			Config:      cfg("nope", fmt.Sprintf("change_id = %q", unknownID)),
			ExpectError: acctest.ErrorRe(`The search domain "nope" does not exist`),
		},
		{
			Config:      cfg("demo", `change_id = "123"`),
			ExpectError: acctest.ErrorRe(`must be 36 characters in hexadecimal groups 8-4-4-4-12`),
		},
		{
			Config:      cfg("9lives", ""),
			ExpectError: acctest.ErrorRe(`must start with a lower-case letter`),
		},
	})
	// The last two steps failed at validate time, with no call.
	if n := emu.Sent("DescribeDomainChangeProgress"); n != 3 {
		t.Errorf("%d DescribeDomainChangeProgress calls, want 3 (one per step that reached the service)", n)
	}
}
