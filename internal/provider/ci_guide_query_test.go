package provider_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// guideQuery lists every list resource of the provider, as a team
// adopting what exists runs it under the CI guide's plan role.
const guideQuery = `
list "cloud_identity_user" "all" {
  provider = cloud
}

list "cloud_identity_user_policy_attachment" "all" {
  provider = cloud
}

list "cloud_identity_service_specific_credential" "all" {
  provider = cloud
}

list "cloud_search_domain_config" "all" {
  provider = cloud
}
`

// TestAccCIGuide_planRoleQueries runs terraform query of every list
// resource under the CI guide's plan role (its trust and permission
// policies, as the guide gives them): every call is allowed, none writes,
// and each list finds what exists.
func TestAccCIGuide_planRoleQueries(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
	emu := acctest.NewEmulator(t)
	c := newCIWorkspace(t, emu)
	planRole := guideRole(t, emu, "terraform-plan", "trust-github-plan.json", "policy-plan.json")
	idc := adminIdentity(t, emu)
	if _, err := idc.CreateUser(c.ctx, identityclient.CreateUserInput{UserName: "legacy"}); err != nil {
		t.Fatal(err)
	}
	if err := idc.AttachUserPolicy(c.ctx, "legacy", "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"); err != nil {
		t.Fatal(err)
	}
	keyID, _, err := emu.Identity.CreateCredentialBehindTheBack("legacy", "models.cloud.example", 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	c.write([]string{"two-roles/main.tf"}, "")
	write(t, filepath.Join(c.ws.Dir, "adopt.tfquery.hcl"), guideQuery)
	c.run("init", "-backend=false")
	c.as(planRole, subjectPullRequest)
	out := c.readOnlyRun("query", "-no-color")
	for _, want := range []string{"list.cloud_identity_user.all", "list.cloud_identity_user_policy_attachment.all",
		"list.cloud_identity_service_specific_credential.all", "list.cloud_search_domain_config.all", "legacy", keyID, "demo"} {
		if !strings.Contains(out, want) {
			t.Errorf("terraform query under the plan role does not show %s:\n%s", want, out)
		}
	}
}
