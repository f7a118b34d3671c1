package identity_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// parallelTest runs steps as a parallel acceptance test against the
// emulator the configurations name; checkDestroy (nil: none) asks the
// emulator that nothing is left after the destroy.
func parallelTest(t *testing.T, checkDestroy resource.TestCheckFunc, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroy,
		Steps:                    steps,
	})
}

// disappearsSteps apply cfg, then remove (behind Terraform's back) what
// the resource at addr manages: the next plan creates it again.
func disappearsSteps(cfg, addr string, remove func() error) []resource.TestStep {
	return []resource.TestStep{
		{
			Config:             cfg,
			Check:              func(*terraform.State) error { return remove() },
			ExpectNonEmptyPlan: true,
		},
		{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
			},
		},
	}
}

func userConfig(emu *acctest.Emulator, name, extra string) string {
	return emu.ProviderConfig() + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = %q
  %s
}
`, name, extra)
}

// checkNoUsers is a CheckDestroy: the emulator holds no user.
func checkNoUsers(emu *acctest.Emulator) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if names := emu.Identity.UserNames(); len(names) > 0 {
			return fmt.Errorf("users left behind: %v", names)
		}
		return nil
	}
}

// keyConfig is a user with the limited-access policy and one key; extra
// goes into the key's block.
func keyConfig(providerConfig, user, extra string) string {
	return providerConfig + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = %q
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}

resource "cloud_identity_service_specific_credential" "test" {
  user_name = cloud_identity_user.test.user_name
  %s
}
`, user, limitedAccess, extra)
}

// checkNothingLeft is a CheckDestroy: no user, key or attachment remains.
func checkNothingLeft(emu *acctest.Emulator) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if st := emu.Identity.State(); len(st.Users) > 0 {
			return fmt.Errorf("left behind: %+v", st.Users)
		}
		return nil
	}
}
