package search_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search"
)

// TestDedicatedMasterRuleAgrees: the plan's check of the dedicated master
// count (before any call) refuses exactly the counts for which the
// emulator's Verbose dry run reports CRIT_DEDICATED_MASTER_COUNT_INVALID,
// with dedicated masters on and off: a count the plan refused and the
// service accepted, or the reverse, would make the plan lie.
func TestDedicatedMasterRuleAgrees(t *testing.T) {
	t.Parallel()
	emu := acctest.NewEmulator(t)
	setPace(t, emu, emusearch.Pace{}) // a Verbose dry run completes at once
	c := searchClient(t, emu)
	ctx := testCtx(t)
	for _, enabled := range []bool{true, false} {
		r := rules.DomainConfig["ClusterConfig.DedicatedMasterCount"].Range
		for n := r.Min; n <= r.Max; n++ {
			out, err := c.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{
				DomainName: "demo", DryRun: new(true), DryRunMode: new(searchclient.DryRunModeVerbose),
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

// TestControlRulesAgree: the request's own members that the resource's
// arguments send, accepted_warnings (AcceptedWarnings) and dry_run_mode
// (DryRunMode), get the same verdict from the provider's validators and
// the emulator's request check; a refusal agrees only when the emulator's
// message names the member. dry_run_mode's Off sends no dry run, so the
// modes sent are the others, which must be the emulator's list.
func TestControlRulesAgree(t *testing.T) {
	t.Parallel()
	emu := acctest.NewEmulator(t)
	c := searchClient(t, emu)
	ctx := testCtx(t)
	send := func(in *searchclient.UpdateDomainConfigInput) error {
		in.DomainName, in.DryRun = "demo", new(true)
		if in.DryRunMode == nil {
			in.DryRunMode = new(searchclient.DryRunModeBasic)
		}
		_, err := c.UpdateDomainConfig(ctx, in)
		if err != nil && !errors.Is(err, client.ErrValidation) {
			t.Fatalf("%+v: %v", in, err)
		}
		return err
	}
	agree := func(name, member string, providerErr diag.Diagnostics, err error) {
		t.Helper()
		switch providerRefuses := providerErr.HasError(); {
		case providerRefuses != (err != nil):
			t.Errorf("%s: provider refuses %v, emulator refuses %v (%v)", name, providerRefuses, err != nil, err)
		case err != nil && !strings.Contains(err.Error(), member):
			t.Errorf("%s: the emulator refuses for another reason: %q names no %s", name, err, member)
		}
	}

	codes := func(n int, code string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s_%d", code, i)
		}
		return out
	}
	for name, warnings := range map[string][]string{
		"none":                     {},
		"25 codes":                 codes(rules.MaxAcceptedWarnings, "ADV"),
		"26 codes":                 codes(rules.MaxAcceptedWarnings+1, "ADV"),
		"an empty code":            {""},
		"a code with a space":      {"ADV X"},
		"a code of 128 characters": {strings.Repeat("A", 128)},
		"a code of 129 characters": {strings.Repeat("A", 129)},
		"a code of its form":       {"ADV_NO_DEDICATED_MASTERS"},
	} {
		elems := make([]attr.Value, len(warnings))
		for i, w := range warnings {
			elems[i] = types.StringValue(w)
		}
		diags, err := search.ValidateAttribute(ctx, "accepted_warnings", types.SetValueMust(types.StringType, elems))
		if err != nil {
			t.Fatal(err)
		}
		agree("accepted_warnings "+name, "AcceptedWarnings", diags, send(&searchclient.UpdateDomainConfigInput{AcceptedWarnings: warnings}))
	}

	modes, off := search.DryRunModes()
	sent := slices.DeleteFunc(slices.Clone(modes), func(m string) bool { return m == off })
	emuModes := emusearch.Enumerations()["DryRunMode"]
	if a, b := slices.Sorted(slices.Values(sent)), slices.Sorted(slices.Values(emuModes)); !slices.Equal(a, b) {
		t.Errorf("dry_run_mode sends %v, the emulator allows %v", a, b)
	}
	probes := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(sent), emuModes...))))
	for _, m := range append(probes, "FOO", "", strings.ToLower(probes[0])) {
		diags, err := search.ValidateAttribute(ctx, "dry_run_mode", types.StringValue(m))
		if err != nil {
			t.Fatal(err)
		}
		agree("dry_run_mode "+m, "DryRunMode", diags, send(&searchclient.UpdateDomainConfigInput{DryRunMode: new(m)}))
	}
}
