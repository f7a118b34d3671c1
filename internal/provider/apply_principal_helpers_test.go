package provider_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// principalPlan is what the apply-principal tests share: an emulator with
// user app and a plan role as contributing/design.md's split roles have it
// (identity:Get*, identity:List* and identity:SimulatePrincipalPolicy,
// nothing else), and a workspace whose provider assumes that role and
// plans a new key for app.
type principalPlan struct {
	t        *testing.T
	emu      *acctest.Emulator
	ws       *tfrun.Workspace
	planRole string
}

func newPrincipalPlan(t *testing.T) *principalPlan {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	makeUser(t, emu, "app")
	planRole := putRoleWith(t, emu, "plan", []string{"identity:Get*", "identity:List*", "identity:SimulatePrincipalPolicy"})
	return &principalPlan{t: t, emu: emu, ws: newAdminWorkspace(t), planRole: planRole}
}

// plan plans the key with extra provider settings, and returns the output
// with its whitespace folded, the calls the plan made, and how it ended.
func (p *principalPlan) plan(extra string) (string, []emulator.Call, error) {
	p.t.Helper()
	config := providerWith(p.emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }\n%s",
		p.emu.AccessKeyID(), p.emu.SecretAccessKey(), p.planRole, extra)) + `
resource "cloud_identity_service_specific_credential" "k" {
  user_name           = "app"
  credential_age_days = 30
}
`
	if err := p.ws.Write(config); err != nil {
		p.t.Fatal(err)
	}
	p.emu.ClearCalls()
	_, out, err := p.ws.RunOutput(context.Background(), "plan", "-input=false", "-no-color")
	return strings.Join(strings.Fields(out), " "), p.emu.Calls(), err
}

// applyPrincipal is the provider setting naming principal.
func applyPrincipal(principal string) string {
	return fmt.Sprintf("  apply_principal_arn = %q\n", principal)
}
