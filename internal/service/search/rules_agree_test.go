package search_test

import (
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search"
)

// TestDedicatedMasterRuleAgrees: the plan's check of the dedicated master
// count (before any call) refuses exactly the counts for which the
// emulator's Verbose dry run reports CRIT_DEDICATED_MASTER_COUNT_INVALID,
// with dedicated masters on and off (review item 15).
func TestDedicatedMasterRuleAgrees(t *testing.T) {
	t.Parallel()
	emu := acctest.NewEmulator(t)
	setPace(t, emu, emusearch.Pace{}) // a Verbose dry run completes at once
	c := searchClient(t, emu)
	ctx := testCtx(t)
	for _, enabled := range []bool{true, false} {
		for n := rules.DedicatedMasterCount.Min; n <= rules.DedicatedMasterCount.Max; n++ {
			out, err := c.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{
				DomainName: "demo", DryRun: ptr(true), DryRunMode: ptr(searchclient.DryRunModeVerbose),
				Sections: map[string]any{"ClusterConfig": map[string]any{"DedicatedMasterEnabled": enabled, "DedicatedMasterCount": n}},
			})
			if err != nil {
				t.Fatalf("enabled %v, count %d: %v", enabled, n, err)
			}
			st := out.DryRunProgressStatus
			if st == nil || searchclient.Deref(st.DryRunStatus) != searchclient.DryRunStatusCompleted {
				t.Fatalf("enabled %v, count %d: the dry run has not completed: %+v", enabled, n, st)
			}
			emulatorRefuses := false
			for _, f := range st.ValidationFailures {
				emulatorRefuses = emulatorRefuses || searchclient.Deref(f.Code) == "CRIT_DEDICATED_MASTER_COUNT_INVALID"
			}
			if providerRefuses := search.DedicatedMastersRefused(enabled, n); providerRefuses != emulatorRefuses {
				t.Errorf("enabled %v, count %d: provider refuses %v, emulator refuses %v", enabled, n, providerRefuses, emulatorRefuses)
			}
		}
	}
}
