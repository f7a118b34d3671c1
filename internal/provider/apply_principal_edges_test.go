package provider_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// apply_principal_arn naming a user that does not exist, a principal of
// another account, or a path with "..": each is told apart from a policy
// refusing the key, the last two before any call of the check.
func TestAccProvider_applyPrincipalEdges(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	makeUser(t, emu, "app")
	planRole := putRoleWith(t, emu, "plan", []string{"identity:Get*", "identity:List*", "identity:SimulatePrincipalPolicy"})
	account := conns.ARNAccount(planRole)
	other := "999999999999"
	if other == account {
		other = "111111111111"
	}
	ws := newAdminWorkspace(t)
	plan := func(principal string) (string, []string) {
		config := providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }\n  apply_principal_arn = %q\n",
			emu.AccessKeyID(), emu.SecretAccessKey(), planRole, principal)) + `
resource "cloud_identity_service_specific_credential" "k" {
  user_name           = "app"
  credential_age_days = 30
}
`
		if err := ws.Write(config); err != nil {
			t.Fatal(err)
		}
		emu.ClearCalls()
		_, out, err := ws.RunOutput(context.Background(), "plan", "-input=false", "-no-color")
		if err == nil {
			t.Errorf("the plan naming %s succeeded:\n%s", principal, out)
		}
		var calls []string
		for _, call := range emu.Calls() {
			calls = append(calls, call.Operation)
		}
		return strings.Join(strings.Fields(out), " "), calls
	}
	for _, c := range []struct {
		principal, want string
		noSimulation    bool
	}{
		{"arn:cloud:identity::" + account + ":role/nobody-here", `Apply Principal Not Found`, false},
		{"arn:cloud:identity::" + other + ":role/terraform-apply", "Apply Principal in Another Account", true},
		{"arn:cloud:identity::" + account + ":role/../../user/app", `has the path segment ".."`, true},
	} {
		out, calls := plan(c.principal)
		if !strings.Contains(out, c.want) || strings.Contains(out, "refuses a key") || strings.Contains(out, "credential_age_days") && strings.Contains(out, "shorter") {
			t.Errorf("apply_principal_arn = %s: want %q and no policy refusal:\n%s", c.principal, c.want, out)
		}
		if c.noSimulation && strings.Contains(strings.Join(calls, " "), "SimulatePrincipalPolicy") {
			t.Errorf("apply_principal_arn = %s: the plan simulated (%v), want it refused before", c.principal, calls)
		}
	}
}
