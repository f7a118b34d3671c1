package main

import (
	"strings"
	"testing"
	"time"
)

// TestMedianOf: each figure is its own median, so one slow plan moves
// none of them.
func TestMedianOf(t *testing.T) {
	t.Parallel()
	s := time.Second
	got := medianOf([]measured{
		{wall: 9 * s, cpu: 1 * s, providerCPU: 2 * s, conns: 10, requests: 900},
		{wall: 1 * s, cpu: 3 * s, providerCPU: 8 * s, conns: 12, requests: 901},
		{wall: 2 * s, cpu: 2 * s, providerCPU: 1 * s, conns: 9, requests: 900},
	})
	want := measured{wall: 2 * s, cpu: 2 * s, providerCPU: 2 * s, conns: 10, requests: 900}
	if got != want {
		t.Fatalf("medianOf = %+v, want %+v", got, want)
	}
}

// TestBundleGraph: the floors' graph has n of each resource, the
// attachment and the key refer to the user, and calls are set only when
// given.
func TestBundleGraph(t *testing.T) {
	t.Parallel()
	plain := bundleGraph("terraform_data", "output", 7, "", [3]string{})
	if strings.Count(plain, "count = 7") != 3 || strings.Count(plain, "terraform_data.u[count.index].output") != 2 || strings.Contains(plain, "call") {
		t.Fatalf("plain graph:\n%s", plain)
	}
	calls := bundleGraph("noop_thing", "id", 2, "call", [3]string{"GetUser", "ListAttachedUserPolicies", "ListServiceSpecificCredentials"})
	for _, want := range []string{`call  = "GetUser"`, `call  = "ListAttachedUserPolicies"`, `call  = "ListServiceSpecificCredentials"`} {
		if !strings.Contains(calls, want) {
			t.Fatalf("graph with calls has no %s:\n%s", want, calls)
		}
	}
	kinds := bundleGraph("noop_thing", "id", 2, "kind", [3]string{"user", "attachment", "key"})
	for _, want := range []string{`kind  = "user"`, `kind  = "attachment"`, `kind  = "key"`} {
		if !strings.Contains(kinds, want) || strings.Contains(kinds, "call") {
			t.Fatalf("graph with kinds has no %s, or a call:\n%s", want, kinds)
		}
	}
}

// TestPlanSpread: the spread cells give the least and the most of the
// plans, whatever their order, and CPU per resource divides by the
// resources.
func TestPlanSpread(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	runs := []measured{{wall: 1500 * ms, providerCPU: 900 * ms}, {wall: 1200 * ms, providerCPU: 600 * ms}, {wall: 1400 * ms, providerCPU: 1200 * ms}}
	if got, want := wallSpread(runs), "1.20–1.50 s over 3 plans"; got != want {
		t.Errorf("wallSpread = %q, want %q", got, want)
	}
	if got, want := perResourceSpread(runs, 300), "(2.00–4.00 ms over 3 plans)"; got != want {
		t.Errorf("perResourceSpread = %q, want %q", got, want)
	}
}
