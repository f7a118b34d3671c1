package policytest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// TestAccPlanPolicy_releasedEmulator reviews plans made against
// cloud-emulator as a policy author runs it: the binary built as the
// release builds it, started from testdata/emulator-seed.json, whose faults
// give every dry run of the domain orders a blue/green verdict and an
// Advisory finding. Its clock is held inside the domains' off-peak window,
// so the verdict is the same at any time of day.
func TestAccPlanPolicy_releasedEmulator(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the policy test drives the Terraform CLI")
	}
	acctest.PreCheck(t)
	emulator := acctest.BuildReleasedEmulator(t, t.TempDir(), "0.0.0-policytest")
	url := acctest.StartEmulatorBinary(t, emulator,
		"-seed", filepath.Join("testdata", "emulator-seed.json"), "-clock", "2026-01-15T02:00:00Z", "-clock-held")
	p := newPlanner(t, fmt.Sprintf(`
provider "cloud" {
  region     = "us-east-1"
  access_key = "EMULATORACCESSKEY01"
  secret_key = "emulator-secret-access-key-0123456789"
  endpoints = {
    identity = %[1]q
    search   = %[1]q
    models   = %[1]q
    sts      = %[1]q
  }
}
`, url))
	policy := loadPolicy(t)
	config := func(name, body string) string {
		return fmt.Sprintf(`
resource "cloud_search_domain_config" "demo" {
  domain_name      = %q
  snapshot_options = { automated_snapshot_start_hour = 5 }
  %s
}
`, name, body)
	}

	t.Run("passes the dynamic change of a seeded domain", func(t *testing.T) {
		plan := p.plan(t, config("catalog", ""))
		if got := dryRun(t, plan, domainAddr)["deployment_type"]; got != "dynamic" {
			t.Fatalf("planned dry_run.deployment_type = %v, want dynamic", got)
		}
		expectDenials(t, policy.deny(t, plan))
	})

	t.Run("denies the injected blue/green verdict", func(t *testing.T) {
		// The injected Advisory must be accepted for the provider to let
		// the plan through; accepted, the policy passes it.
		plan := p.plan(t, config("orders", `accepted_warnings = ["ADV_SHARD_COUNT_HIGH"]`))
		dr := dryRun(t, plan, domainAddr)
		if got := dr["deployment_type"]; got != "blue/green" {
			t.Fatalf("planned dry_run.deployment_type = %v, want the injected blue/green", got)
		}
		if failures, _ := dr["validation_failures"].([]any); len(failures) != 1 {
			t.Fatalf("planned dry_run.validation_failures = %v, want the injected ADV_SHARD_COUNT_HIGH", failures)
		}
		expectDenials(t, policy.deny(t, plan), domainAddr+": the plan's dry run says the change is deployed blue/green")
	})
}
