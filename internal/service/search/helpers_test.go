package search_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// searchClient is a Go client of emu's search service, for test setup.
func searchClient(t *testing.T, emu *acctest.Emulator) *searchclient.Client {
	t.Helper()
	c, err := searchclient.New(emu.ClientConfig(), emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func setPace(t *testing.T, emu *acctest.Emulator, p emusearch.Pace) {
	t.Helper()
	if err := emu.Search.SetPace(p); err != nil {
		t.Fatal(err)
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// parallelTest runs steps with the provider against the in-process
// emulator, in parallel with the other tests.
func parallelTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// advanceWhenFollowed moves the emulator's clock on by d once the provider
// follows a running change (its first DescribeDomainChangeProgress from
// now). A colleague's change made with long stages is then still running
// at the plan Terraform makes at apply however slow the machine, and ends
// while apply follows it. When the provider has not followed it within
// two minutes the test fails, and the clock moves anyway (WhenCalled).
func advanceWhenFollowed(t *testing.T, emu *acctest.Emulator, d time.Duration) {
	t.Helper()
	emu.WhenCalled(t, "DescribeDomainChangeProgress", 2*time.Minute, func() { emu.Clock().Advance(d) })
}

func dryRunConfig(emu *acctest.Emulator, domain, id, extra string) string {
	return emu.ProviderConfig() + fmt.Sprintf(`
data "cloud_search_domain_dry_run" "test" {
  domain_name = %q
  dry_run_id  = %q
  %s
}
`, domain, id, extra)
}

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

func dryRunValue(path string) tfjsonpath.Path { return tfjsonpath.New("dry_run").AtMapKey(path) }

// answeredUpdates counts the real (not dry-run) UpdateDomainConfig calls
// the service accepted: a change refused because another one is running is
// sent again, and only the accepted ones change the domain.
func answeredUpdates(emu *acctest.Emulator) int { return emu.Answered("UpdateDomainConfig", false) }

// sentUpdates counts the real UpdateDomainConfig calls the provider sent,
// answered or refused.
func sentUpdates(emu *acctest.Emulator) int { return emu.Sent("UpdateDomainConfig") - emu.DryRuns() }

// planHook runs a function between plan and apply.
type planHook func()

func (h planHook) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	h()
}

// addDomains adds domains to emu's search service.
func addDomains(t *testing.T, emu *acctest.Emulator, specs ...emusearch.DomainSpec) {
	t.Helper()
	for _, s := range specs {
		if err := emu.Search.AddDomain(s); err != nil {
			t.Fatal(err)
		}
	}
}

// idOf is the identity check of a domain of the emulator's region and
// account.
func idOf(emu *acctest.Emulator, name string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{
		"domain_name": knownvalue.StringExact(name),
		"region":      knownvalue.StringExact(emu.Region()),
		"account_id":  knownvalue.StringExact(emu.Account()),
	}
}

// colleague starts a change of the demo domain as someone else would.
func colleague(t *testing.T, emu *acctest.Emulator, sections map[string]any) {
	t.Helper()
	c := searchClient(t, emu)
	if _, err := c.UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{DomainName: "demo", Sections: sections}); err != nil {
		t.Errorf("the colleague's change: %v", err)
	}
}
