package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

func calls(ops ...string) []emulator.Call {
	var out []emulator.Call
	for _, op := range ops {
		c := emulator.Call{Operation: op}
		if name, ok := strings.CutSuffix(op, "!"); ok {
			c = emulator.Call{Operation: name, DryRun: true}
		}
		out = append(out, c)
	}
	return out
}

// TestCallSummary: the total, then each operation by count (most first,
// then by name), dry runs apart from real changes.
func TestCallSummary(t *testing.T) {
	t.Parallel()
	got := callSummary(calls("CreateUser", "TagUser", "GetCallerIdentity", "TagUser", "CreateUser", "AttachUserPolicy", "UpdateDomainConfig!", "UpdateDomainConfig"))
	want := "8: CreateUser 2, TagUser 2, AttachUserPolicy 1, GetCallerIdentity 1, UpdateDomainConfig 1, UpdateDomainConfig (dry run) 1"
	if got != want {
		t.Fatalf("callSummary =\n%s\nwant\n%s", got, want)
	}
	if got := callSummary(nil); got != "0: " {
		t.Fatalf("callSummary(nil) = %q", got)
	}
	if got := emulator.DryRuns(calls("UpdateDomainConfig!", "UpdateDomainConfig", "DescribeDryRunProgress", "UpdateDomainConfig!")); got != 2 {
		t.Fatalf("emulator.DryRuns = %d, want 2", got)
	}
}

// TestTargets: a ratio at the bound meets it, above misses it; no bound,
// no cell; dry runs beyond those needed miss.
func TestTargets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		got  string
		want string
	}{
		{ratioTarget(1.5, 1.5), "≤ 1.5x: met"},
		{ratioTarget(1.51, 1.5), "≤ 1.5x: missed"},
		{ratioTarget(3, 0), ""},
		{dryRunTarget(1, 1), "1 dry run: met"},
		{dryRunTarget(2, 1), "1 dry run: missed"},
		{dryRunTarget(2, 2), "2 dry runs: met"},
	} {
		if tc.got != tc.want {
			t.Errorf("target cell %q, want %q", tc.got, tc.want)
		}
	}
}

// TestBundleLatencyRow: a row gives ours' calls by operation, the calls
// needed for n bundles, both sides' wall, provider CPU and peak memory,
// the floor's calls, and the ratio; destroy's target is on the row next
// to the floor with our schemas (TestSchemaFloorRow), not this one.
func TestBundleLatencyRow(t *testing.T) {
	t.Parallel()
	step := latencySteps(10)[2] // destroy
	ours := measured{wall: 3 * time.Second, providerCPU: 500 * time.Millisecond, peakKB: 2048}
	floor := measured{wall: 2 * time.Second, providerCPU: 250 * time.Millisecond, peakKB: 1024}
	row := bundleLatencyRow(step, 2, ours, calls("GetUser", "GetUser", "DeleteUser", "DeleteUser", "GetCallerIdentity"), floor, calls("GetUser", "DeleteUser"))
	want := "| terraform destroy, 2 key bundles (6 resources) | 5: DeleteUser 2, GetUser 2, GetCallerIdentity 1 | 12 | 3.00 s; 0.50 s; 2.0 MiB | 2.00 s; 0.25 s; 1.0 MiB (2 calls) | 1.50 |  |"
	if got := row.String(); got != want {
		t.Fatalf("row =\n%s\nwant\n%s", got, want)
	}
	if !slices.Equal(latencySteps(10)[0].args, []string{"apply", "-auto-approve", "-parallelism=10"}) {
		t.Fatalf("apply step args = %v", latencySteps(10)[0].args)
	}
}

// TestSumOf: a saved plan's two commands add up, the peak is the larger.
func TestSumOf(t *testing.T) {
	t.Parallel()
	got := sumOf(measured{wall: time.Second, providerCPU: time.Second, peakKB: 5, requests: 3}, measured{wall: 2 * time.Second, providerCPU: 3 * time.Second, peakKB: 4, requests: 4})
	want := measured{wall: 3 * time.Second, providerCPU: 4 * time.Second, peakKB: 5, requests: 7}
	if got != want {
		t.Fatalf("sumOf = %+v, want %+v", got, want)
	}
}
