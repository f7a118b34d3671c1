package identity_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

func TestAccUser_basic(t *testing.T) {
	emu := acctest.NewEmulator(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	parallelTest(t, checkNoUsers(emu), []resource.TestStep{
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
	})
}

func TestAccUser_renameReplaces(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNoUsers(emu), []resource.TestStep{
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
	})
}

func TestAccUser_disappears(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNoUsers(emu), disappearsSteps(userConfig(emu, "carol", ""), "cloud_identity_user.test", func() error {
		if !emu.Identity.DeleteUserBehindTheBack("carol") {
			return fmt.Errorf("user carol was not there to delete")
		}
		return nil
	}))
}

func TestAccUser_invalidName(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, nil, []resource.TestStep{
		{
			Config:      userConfig(emu, "no spaces allowed", ""),
			ExpectError: regexp.MustCompile(`Attribute user_name must contain only letters, digits and the characters`),
		},
		{
			Config:      userConfig(emu, "ok", `path = "team"`),
			ExpectError: regexp.MustCompile(`Attribute path must be / or begin and end with /`),
		},
	})
	emu.ExpectCalls(t, "", 0, "invalid configurations are refused before any call")
}

func TestAccUser_alreadyExists(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, nil, []resource.TestStep{
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
	})
}

// A CreateUser that took effect but whose outcome the apply could not learn
// (the answer lost, the user unreadable): the apply fails, and the next
// one (another provider instance, as each Terraform command is), once the
// create could no longer be answered (the emulator's clock moved past it),
// adopts the user instead of failing with EntityAlreadyExists.
func TestAccUser_interruptedCreateAdoptedNextApply(t *testing.T) {
	emu := acctest.NewEmulator(t)
	cfg := userConfig(emu, "ivan", "")
	var orphanID string
	parallelTest(t, checkNoUsers(emu), []resource.TestStep{
		{
			PreConfig: func() {
				for _, f := range []emulator.Fault{
					{Service: "identity", Operation: "CreateUser", Kind: emulator.FaultLostResponse},
					{Service: "identity", Operation: "GetUser", Kind: emulator.FaultError, Times: -1},
				} {
					if err := emu.InjectFault(f); err != nil {
						t.Fatal(err)
					}
				}
			},
			Config:      cfg,
			ExpectError: acctest.ErrorRe(`no answer arrived.*reading the user to learn the outcome also failed.*the next apply adopts it`),
		},
		{
			PreConfig: func() {
				emu.ClearFaults()
				if names := emu.Identity.UserNames(); len(names) != 1 {
					t.Errorf("after the failed apply: users %v, want the 1 the lost answer made", names)
				}
				orphanID = userID(t, emu, "ivan")
				emu.Clock().Advance(10 * time.Minute)
			},
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("user_name"), knownvalue.StringExact("ivan")),
			},
			Check: func(s *terraform.State) error {
				if got := s.RootModule().Resources["cloud_identity_user.test"].Primary.Attributes["user_id"]; got != orphanID {
					return fmt.Errorf("state holds user id %s, want the orphan %s adopted", got, orphanID)
				}
				if names := emu.Identity.UserNames(); len(names) != 1 {
					return fmt.Errorf("users %v, want 1", names)
				}
				return nil
			},
		},
	})
	if n := emu.Sent("CreateUser"); n != 2 {
		t.Errorf("CreateUser sent %d times, want 2 (the lost one, then the one refused with EntityAlreadyExists)", n)
	}
}

// userID reads a user's id from the emulator, as any API client would.
func userID(t *testing.T, emu *acctest.Emulator, name string) string {
	t.Helper()
	c, err := identityclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	u, err := c.GetUser(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.UserID
}
