package main

import (
	"strings"
	"testing"
	"time"
)

// TestSchemaFloorRow: destroy's target is measured against the floor with
// our schemas, whose row says so; apply's stays next to noop_thing.
func TestSchemaFloorRow(t *testing.T) {
	t.Parallel()
	ours := measured{wall: 3 * time.Second, providerCPU: 500 * time.Millisecond, peakKB: 2048}
	floor := measured{wall: 2 * time.Second, providerCPU: 250 * time.Millisecond, peakKB: 1024}
	oursCalls, floorCalls := calls("GetUser", "DeleteUser"), calls("GetUser", "DeleteUser")
	destroy, apply := latencySteps(10)[2], latencySteps(10)[0]
	want := "| terraform destroy, 2 key bundles (6 resources), next to the floor with our schemas | 2: DeleteUser 1, GetUser 1 | 12 | 3.00 s; 0.50 s; 2.0 MiB | 2.00 s; 0.25 s; 1.0 MiB (2 calls, resources with our attributes) | 1.50 | ≤ 1.2x: missed |"
	if got := schemaFloorRow(destroy, 2, ours, oursCalls, floor, floorCalls).String(); got != want {
		t.Fatalf("destroy row =\n%s\nwant\n%s", got, want)
	}
	if got := schemaFloorRow(apply, 2, ours, oursCalls, floor, floorCalls).String(); !strings.HasSuffix(got, "| 1.50 |  |") {
		t.Fatalf("apply row next to the floor with our schemas has a target: %s", got)
	}
	if got := bundleLatencyRow(apply, 2, ours, oursCalls, floor, floorCalls).String(); !strings.HasSuffix(got, "| ≤ 1.5x: met |") {
		t.Fatalf("apply row next to noop_thing lost its target: %s", got)
	}
}

// TestSchemaFloorConfig: the floor's configuration is ours in the no-op
// provider's types, references included.
func TestSchemaFloorConfig(t *testing.T) {
	t.Parallel()
	got := schemaFloorConfig(2)
	if strings.Contains(got, "cloud_identity_") {
		t.Fatalf("the floor's configuration names our types:\n%s", got)
	}
	for _, want := range []string{`resource "noop_identity_service_specific_credential" "k"`, "user_name  = noop_identity_user.u[count.index].user_name", "credential_age_days = 90"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the floor's configuration lacks %q:\n%s", want, got)
		}
	}
}
