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
	plain := bundleGraph("terraform_data", "output", 7, [3]string{})
	if strings.Count(plain, "count = 7") != 3 || strings.Count(plain, "terraform_data.u[count.index].output") != 2 || strings.Contains(plain, "call") {
		t.Fatalf("plain graph:\n%s", plain)
	}
	calls := bundleGraph("noop_thing", "id", 2, [3]string{"GetUser", "ListAttachedUserPolicies", "ListServiceSpecificCredentials"})
	for _, want := range []string{`call  = "GetUser"`, `call  = "ListAttachedUserPolicies"`, `call  = "ListServiceSpecificCredentials"`} {
		if !strings.Contains(calls, want) {
			t.Fatalf("graph with calls has no %s:\n%s", want, calls)
		}
	}
}
