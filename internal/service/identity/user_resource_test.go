package identity_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

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

func TestAccUser_basic(t *testing.T) {
	emu := acctest.NewEmulator(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkNoUsers(emu),
		Steps: []resource.TestStep{
			{
				Config: userConfig(emu, "alice", `path = "/team/"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("cloud_identity_user.test", plancheck.ResourceActionCreate),
						plancheck.ExpectUnknownValue("cloud_identity_user.test", tfjsonpath.New("arn")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("user_name"), knownvalue.StringExact("alice")),
					statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("arn"), knownvalue.StringExact("arn:cloud:identity::123456789012:user/team/alice")),
					statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("user_id"), knownvalue.StringRegexp(regexp.MustCompile(`^AIDA[A-Z2-7]{17}$`))),
					statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("create_date"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("force_destroy"), knownvalue.Bool(false)),
					sameID.AddStateValue("cloud_identity_user.test", tfjsonpath.New("user_id")),
				},
			},
			{
				ResourceName:      "cloud_identity_user.test",
				ImportState:       true,
				ImportStateId:     "alice",
				ImportStateVerify: true,
			},
			{
				// force_destroy changes in place, the user stays the same.
				Config: userConfig(emu, "alice", `path = "/team/"
  force_destroy = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue("cloud_identity_user.test", tfjsonpath.New("user_id")),
				},
			},
			{
				Config: userConfig(emu, "alice", `path = "/team/"
  force_destroy = true`),
				PlanOnly: true,
			},
		},
	})
}

func TestAccUser_renameReplaces(t *testing.T) {
	emu := acctest.NewEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkNoUsers(emu),
		Steps: []resource.TestStep{
			{Config: userConfig(emu, "bob", "")},
			{
				Config: userConfig(emu, "bobby", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user.test", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(*terraform.State) error {
					if got := emu.Identity.UserNames(); len(got) != 1 || got[0] != "bobby" {
						return fmt.Errorf("users after rename: %v, want [bobby]", got)
					}
					return nil
				},
			},
		},
	})
}

func TestAccUser_disappears(t *testing.T) {
	emu := acctest.NewEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkNoUsers(emu),
		Steps: []resource.TestStep{
			{
				Config: userConfig(emu, "carol", ""),
				Check: func(*terraform.State) error {
					if !emu.Identity.DeleteUserBehindTheBack("carol") {
						return fmt.Errorf("user carol was not there to delete")
					}
					return nil
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: userConfig(emu, "carol", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user.test", plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}

func TestAccUser_invalidName(t *testing.T) {
	emu := acctest.NewEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      userConfig(emu, "no spaces allowed", ""),
				ExpectError: regexp.MustCompile(`Attribute user_name must contain only letters, digits and the characters`),
			},
			{
				Config:      userConfig(emu, "ok", `path = "team"`),
				ExpectError: regexp.MustCompile(`Attribute path must be / or begin and end with /`),
			},
		},
	})
	if n := emu.CountCalls("", false); n != 0 {
		t.Errorf("invalid configurations made %d API calls, want 0", n)
	}
}

func TestAccUser_alreadyExists(t *testing.T) {
	emu := acctest.NewEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: emu.ProviderConfig() + `
resource "cloud_identity_user" "a" {
  user_name = "dave"
}
resource "cloud_identity_user" "b" {
  user_name  = "DAVE"
  depends_on = [cloud_identity_user.a]
}
`,
				ExpectError: regexp.MustCompile(`A user named "DAVE" already exists`),
			},
		},
	})
}
