package identity_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

func attachmentConfig(emu *acctest.Emulator, user, arn string) string {
	return emu.ProviderConfig() + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = %q
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}
`, user, arn)
}

func TestAccUserPolicyAttachment_basic(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{Config: attachmentConfig(emu, "lena", limitedAccess)},
		{
			ResourceName:      attachAddr,
			ImportState:       true,
			ImportStateId:     "lena/" + limitedAccess,
			ImportStateVerify: true,
		},
		{
			// Another policy replaces the attachment.
			Config: attachmentConfig(emu, "lena", "arn:cloud:identity::cloud:policy/DenyBearerTokens"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(attachAddr, plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: func(*terraform.State) error {
				if got := emu.Identity.AttachedPolicyArns("lena"); len(got) != 1 || got[0] != "arn:cloud:identity::cloud:policy/DenyBearerTokens" {
					return fmt.Errorf("attached: %v", got)
				}
				return nil
			},
		},
	})
}

func TestAccUserPolicyAttachment_disappears(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNothingLeft(emu), disappearsSteps(attachmentConfig(emu, "mike", limitedAccess), attachAddr, func() error {
		if !emu.Identity.DetachBehindTheBack("mike", limitedAccess) {
			return fmt.Errorf("the policy was not attached")
		}
		return nil
	}))
}

func TestAccUserPolicyAttachment_errors(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config:      attachmentConfig(emu, "nina", "arn:aws:iam::aws:policy/AdministratorAccess"),
			ExpectError: regexp.MustCompile(`Attribute policy_arn must be a policy ARN such as`),
		},
		{
			Config:      attachmentConfig(emu, "nina", "arn:cloud:identity::cloud:policy/NoSuchPolicy"),
			ExpectError: regexp.MustCompile(`(?s)Unable to Attach Identity User Policy.*does\s+not\s+exist`),
		},
	})
}

func TestAccUser_forceDestroyRemovesOutOfBandAttachmentsAndKeys(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: userConfig(emu, "olga", `force_destroy = true`),
			Check: func(*terraform.State) error {
				if err := emu.Identity.AttachBehindTheBack("olga", limitedAccess); err != nil {
					return err
				}
				_, _, err := emu.Identity.CreateCredentialBehindTheBack("olga", "models.cloud.example", 30, "us-east-1")
				return err
			},
		},
	})
}
