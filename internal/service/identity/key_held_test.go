package identity_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// An imported key is marked as held on its user by the apply after the
// import (the plan shows it and writes nothing), so a later recovery of an
// interrupted create whose window covers the key's creation leaves it
// alone: the new key is created beside it.
func TestAccServiceSpecificCredential_importedKeyIsHeld(t *testing.T) {
	emu := acctest.NewEmulator(t)
	idc, err := identityclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "ida"}); err != nil {
		t.Fatal(err)
	}
	importedID, _, err := emu.Identity.CreateCredentialBehindTheBack("ida", "models.cloud.example", 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	// The key stays younger than a minute (recentKey) however long the
	// test waits for its parallel slot: an older one would need no mark.
	emu.Clock().Hold()
	imported := emu.ProviderConfig() + fmt.Sprintf(`
import {
  to = cloud_identity_user.test
  id = "ida"
}

resource "cloud_identity_user" "test" {
  user_name = "ida"
}

import {
  to = cloud_identity_service_specific_credential.imported
  id = "ida/%s"
}

resource "cloud_identity_service_specific_credential" "imported" {
  user_name           = cloud_identity_user.test.user_name
  credential_age_days = 30
}
`, importedID)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config:             imported,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		{
			PreConfig: func() {
				emu.ExpectCalls(t, "TagUser", 0, "the plan of the import")
				if _, ok := emu.Identity.UserTags("ida")["terraform-cloud:key:"+importedID]; ok {
					t.Errorf("the plan of the import marked key %s", importedID)
				}
			},
			Config: imported,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("cloud_identity_service_specific_credential.imported", plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue("cloud_identity_service_specific_credential.imported", tfjsonpath.New("held"), knownvalue.Bool(true)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("cloud_identity_service_specific_credential.imported", tfjsonpath.New("held"), knownvalue.Bool(true)),
			},
			Check: func(*terraform.State) error {
				if _, ok := emu.Identity.UserTags("ida")["terraform-cloud:key:"+importedID]; !ok {
					return fmt.Errorf("the imported key %s is not marked as held: tags %v", importedID, emu.Identity.UserTags("ida"))
				}
				return nil
			},
		},
		{
			// A create interrupted just before the key was imported.
			PreConfig: func() {
				keys, err := idc.ListServiceSpecificCredentials(context.Background(), "ida", "models.cloud.example")
				if err != nil || len(keys.Credentials) != 1 {
					t.Fatalf("keys %v: %v", keys, err)
				}
				start := keys.Credentials[0].CreateDate.Add(-time.Second)
				rec := identityclient.Tag{Key: "terraform-cloud:creating:interrupted", Value: fmt.Sprintf("models.cloud.example %d %d", start.Unix(), start.Add(5*time.Second).Unix())}
				if err := idc.TagUser(context.Background(), "ida", []identityclient.Tag{rec}); err != nil {
					t.Fatal(err)
				}
				emu.Clock().Advance(time.Minute)
			},
			Config: imported + `
resource "cloud_identity_service_specific_credential" "second" {
  user_name           = cloud_identity_user.test.user_name
  credential_age_days = 30
}
`,
			Check: func(s *terraform.State) error {
				second := s.RootModule().Resources["cloud_identity_service_specific_credential.second"].Primary.Attributes["service_specific_credential_id"]
				if second == importedID {
					return fmt.Errorf("the second key's create took the imported key %s", importedID)
				}
				if ids := emu.Identity.CredentialIDs("ida"); len(ids) != 2 {
					return fmt.Errorf("keys %v, want the imported key and the second", ids)
				}
				if _, left := emu.Identity.UserTags("ida")["terraform-cloud:creating:interrupted"]; left {
					return fmt.Errorf("the record of the interrupted create was not removed")
				}
				return nil
			},
		},
	})
}

// An imported key created more than a minute earlier, with no record of
// an interrupted create covering its creation, can never be taken by a
// recovery: its import is a pure import (no update, no TagUser), held is
// true. Under a record that covers its creation, the import plans the
// mark, and the apply sets it.
func TestAccServiceSpecificCredential_importOldKey(t *testing.T) {
	emu := acctest.NewEmulator(t)
	idc, err := identityclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, user := range []string{"ola", "oli"} {
		if _, err := idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: user}); err != nil {
			t.Fatal(err)
		}
		if user == "oli" {
			// A create interrupted just before the key was made by hand.
			start := emu.Clock().Now().Add(-time.Second)
			rec := identityclient.Tag{Key: "terraform-cloud:creating:interrupted", Value: fmt.Sprintf("models.cloud.example %d %d", start.Unix(), start.Add(5*time.Second).Unix())}
			if err := idc.TagUser(context.Background(), user, []identityclient.Tag{rec}); err != nil {
				t.Fatal(err)
			}
		}
		if keys[user], _, err = emu.Identity.CreateCredentialBehindTheBack(user, "models.cloud.example", 30, emu.Region()); err != nil {
			t.Fatal(err)
		}
	}
	emu.Clock().Advance(2 * time.Minute)
	imported := func(users ...string) string {
		cfg := emu.ProviderConfig()
		for _, user := range users {
			cfg += fmt.Sprintf(`
import {
  to = cloud_identity_service_specific_credential.%[1]s
  id = "%[1]s/%[2]s"
}

resource "cloud_identity_service_specific_credential" "%[1]s" {
  user_name           = %[1]q
  credential_age_days = 30
}
`, user, keys[user])
		}
		return cfg
	}
	addr := func(user string) string { return "cloud_identity_service_specific_credential." + user }
	marked := func(user string, want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if _, ok := emu.Identity.UserTags(user)["terraform-cloud:key:"+keys[user]]; ok != want {
				return fmt.Errorf("key %s of %s marked: %t, want %t (TagUser calls: %d)", keys[user], user, ok, want, emu.Answered("TagUser", false))
			}
			return nil
		}
	}
	parallelTest(t, func(*terraform.State) error { return nil }, []resource.TestStep{
		{
			Config: imported("ola"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr("ola"), plancheck.ResourceActionNoop),
				plancheck.ExpectKnownValue(addr("ola"), tfjsonpath.New("held"), knownvalue.Bool(true)),
			}},
			Check: marked("ola", false),
		},
		{
			Config: imported("ola", "oli"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr("ola"), plancheck.ResourceActionNoop),
				plancheck.ExpectResourceAction(addr("oli"), plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(addr("oli"), tfjsonpath.New("held"), knownvalue.Bool(true)),
			}},
			Check: resource.ComposeTestCheckFunc(marked("ola", false), marked("oli", true)),
		},
	})
}
