package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

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

// inOffPeak moves the clock to the next 02:00 UTC, inside the demo domain's
// off-peak window (00:00 for 10 hours), so blue/green changes draw no
// off-peak advisory and hours of stages fit in the window.
func inOffPeak(emu *acctest.Emulator) {
	now := emu.Clock().Now()
	target := now.Truncate(24 * time.Hour).Add(2 * time.Hour)
	if !target.After(now) {
		target = target.Add(24 * time.Hour)
	}
	emu.Clock().Advance(target.Sub(now))
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
