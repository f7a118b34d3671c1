package provider_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// A plan role as contributing/design.md's split roles have it:
// identity:Get*, identity:List* and identity:SimulatePrincipalPolicy,
// nothing else. Planning a new key as
// itself, it is refused, and the error says a plan role can name the apply
// role; with apply_principal_arn naming a role that may create keys, the
// same plan succeeds, checks that role, and writes nothing.
func TestAccProvider_applyPrincipal(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	makeUser(t, emu, "app")
	planRole := putRoleWith(t, emu, "plan", []string{"identity:Get*", "identity:List*", "identity:SimulatePrincipalPolicy"})
	applyRole := putRoleWith(t, emu, "apply", []string{"identity:*"})
	ws := newAdminWorkspace(t)
	config := func(extra string) string {
		return providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }\n%s", emu.AccessKeyID(), emu.SecretAccessKey(), planRole, extra)) + `
resource "cloud_identity_service_specific_credential" "k" {
  user_name           = "app"
  credential_age_days = 30
}
`
	}
	plan := func(extra string) (string, error) {
		if err := ws.Write(config(extra)); err != nil {
			t.Fatal(err)
		}
		emu.ClearCalls()
		_, out, err := ws.RunOutput(context.Background(), "plan", "-input=false", "-no-color")
		for _, call := range emu.Calls() {
			if !reads(call) {
				t.Errorf("the plan wrote: %s %s", call.Service, call.Operation)
			}
		}
		return strings.Join(strings.Fields(out), " "), err
	}

	out, err := plan("")
	if err == nil || !strings.Contains(out, "A policy of the principal Terraform runs as ("+planRole+") refuses a key") ||
		!strings.Contains(out, "name that role with the provider setting apply_principal_arn (or CLOUD_APPLY_PRINCIPAL_ARN)") {
		t.Errorf("the plan role planning as itself: %v\n%s", err, out)
	}
	out, err = plan(fmt.Sprintf("  apply_principal_arn = %q\n", applyRole))
	if err != nil || !strings.Contains(out, "1 to add") || strings.Contains(out, "Warning") {
		t.Errorf("the plan role naming the apply role: %v\n%s", err, out)
	}
	var simulated []string
	for _, call := range emu.Calls() {
		if call.Operation == "SimulatePrincipalPolicy" {
			simulated = append(simulated, call.Operation)
		}
	}
	if len(simulated) != 1 {
		t.Errorf("the plan naming the apply role simulated %d times, want 1", len(simulated))
	}
	// Named by the environment, the same.
	t.Setenv("CLOUD_APPLY_PRINCIPAL_ARN", applyRole)
	if out, err := plan(""); err != nil || !strings.Contains(out, "1 to add") {
		t.Errorf("the plan role naming the apply role in CLOUD_APPLY_PRINCIPAL_ARN: %v\n%s", err, out)
	}
}
