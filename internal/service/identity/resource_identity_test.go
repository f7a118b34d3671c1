package identity_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// identityTest runs steps on a CLI with resource identity (Terraform
// 1.12+), and skips, with the reason, on one without.
func identityTest(t *testing.T, checkDestroy resource.TestCheckFunc, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
		},
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroy,
		Steps:                    steps,
	})
}

func userIdentity(emu *acctest.Emulator, name string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"user_name": knownvalue.StringExact(name), "account_id": knownvalue.StringExact(emu.Account())}
}

// The user's identity is in state after create, import by identity (and
// by the old string id), a moved block and a replacement.
func TestAccUser_identity(t *testing.T) {
	emu := acctest.NewEmulator(t)
	moved := func(name string) string {
		return emu.ProviderConfig() + `
resource "cloud_identity_user" "renamed" {
  user_name = "` + name + `"
  path      = "/apps/"
}

moved {
  from = cloud_identity_user.test
  to   = cloud_identity_user.renamed
}
`
	}
	identityTest(t, checkNoUsers(emu), []resource.TestStep{
		{
			Config:            userConfig(emu, "idalice", `path = "/apps/"`),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity("cloud_identity_user.test", userIdentity(emu, "idalice"))},
		},
		{ResourceName: "cloud_identity_user.test", ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		{ResourceName: "cloud_identity_user.test", ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: "idalice"},
		{ResourceName: "cloud_identity_user.test", ImportState: true, ImportStateId: "idalice", ImportStateVerify: true},
		{
			Config: moved("idalice"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user.renamed", plancheck.ResourceActionNoop)},
			},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity("cloud_identity_user.renamed", userIdentity(emu, "idalice"))},
		},
		{
			Config: moved("idbob"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user.renamed", plancheck.ResourceActionDestroyBeforeCreate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity("cloud_identity_user.renamed", userIdentity(emu, "idbob"))},
		},
	})
}

// An import block may name only the user: account_id defaults to the
// provider's. One naming another account is refused with the reason,
// before anything is read.
func TestAccUser_importByIdentity(t *testing.T) {
	emu := acctest.NewEmulator(t)
	if _, err := identityClient(t, emu).CreateUser(t.Context(), identityclient.CreateUserInput{UserName: "carla", Path: "/apps/"}); err != nil {
		t.Fatal(err)
	}
	cfg := func(identity string) string {
		return emu.ProviderConfig() + `
import {
  to       = cloud_identity_user.test
  identity = ` + identity + `
}

resource "cloud_identity_user" "test" {
  user_name = "carla"
  path      = "/apps/"
}
`
	}
	identityTest(t, checkNoUsers(emu), []resource.TestStep{
		{
			Config:      cfg(`{ user_name = "carla", account_id = "999999999999" }`),
			ExpectError: acctest.ErrorRe(`Resource Identity Names Another Account.*names account 999999999999, but the provider runs in account ` + emu.Account()),
		},
		{
			Config: cfg(`{ user_name = "carla" }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user.test", plancheck.ResourceActionNoop)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity("cloud_identity_user.test", userIdentity(emu, "carla")),
				statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("arn"), knownvalue.StringExact("arn:cloud:identity::"+emu.Account()+":user/apps/carla")),
			},
		},
	})
}

func TestAccUserPolicyAttachment_identity(t *testing.T) {
	emu := acctest.NewEmulator(t)
	addr := "cloud_identity_user_policy_attachment.test"
	cfg := emu.ProviderConfig() + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = "idpat"
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}
`, limitedAccess)
	identityTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
				"user_name": knownvalue.StringExact("idpat"), "policy_arn": knownvalue.StringExact(limitedAccess), "account_id": knownvalue.StringExact(emu.Account()),
			})},
		},
		{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: "idpat/" + limitedAccess},
		{ResourceName: addr, ImportState: true, ImportStateId: "idpat/" + limitedAccess, ImportStateVerify: true},
		{
			// A moved block keeps the attachment and its identity.
			Config: strings.Replace(cfg, `"cloud_identity_user_policy_attachment" "test"`, `"cloud_identity_user_policy_attachment" "renamed"`, 1) + `
moved {
  from = cloud_identity_user_policy_attachment.test
  to   = cloud_identity_user_policy_attachment.renamed
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloud_identity_user_policy_attachment.renamed", plancheck.ResourceActionNoop)},
			},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity("cloud_identity_user_policy_attachment.renamed", map[string]knownvalue.Check{
				"user_name": knownvalue.StringExact("idpat"), "policy_arn": knownvalue.StringExact(limitedAccess), "account_id": knownvalue.StringExact(emu.Account()),
			})},
		},
	})
}

func TestAccServiceSpecificCredential_identity(t *testing.T) {
	emu := acctest.NewEmulator(t)
	addr := "cloud_identity_service_specific_credential.test"
	identityTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: keyConfig(emu.ProviderConfig(), "idkey", "credential_age_days = 30"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentityValue(addr, tfjsonpath.New("user_name"), knownvalue.StringExact("idkey")),
				statecheck.ExpectIdentityValue(addr, tfjsonpath.New("account_id"), knownvalue.StringExact(emu.Account())),
				statecheck.ExpectIdentityValue(addr, tfjsonpath.New("region"), knownvalue.StringExact(emu.Region())),
				statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("service_specific_credential_id")),
			},
		},
		{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		{
			ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
			ImportStateIdFunc: func(s *terraform.State) (string, error) { return s.RootModule().Resources[addr].Primary.ID, nil },
		},
		{
			// A status change updates the key in place; its identity stays.
			Config: keyConfig(emu.ProviderConfig(), "idkey", "credential_age_days = 30\n  status = \"Inactive\""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentityValue(addr, tfjsonpath.New("region"), knownvalue.StringExact(emu.Region())),
				statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("service_specific_credential_id")),
			},
		},
		{
			// A new age replaces the key: the identity names the new one.
			Config: keyConfig(emu.ProviderConfig(), "idkey", "credential_age_days = 60\n  status = \"Inactive\""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("service_specific_credential_id")),
				statecheck.ExpectIdentityValue(addr, tfjsonpath.New("account_id"), knownvalue.StringExact(emu.Account())),
			},
		},
	})
}

// A key works only in its region: an identity naming another region than
// the provider's is refused with the reason; one naming only the user and
// the key imports it in the provider's region and account.
func TestAccServiceSpecificCredential_importByIdentity(t *testing.T) {
	emu := acctest.NewEmulator(t)
	if _, err := identityClient(t, emu).CreateUser(t.Context(), identityclient.CreateUserInput{UserName: "rita"}); err != nil {
		t.Fatal(err)
	}
	id, _, err := emu.Identity.CreateCredentialBehindTheBack("rita", "models.cloud.example", 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	// Made by hand a while ago: its import is pure (no held mark to plan).
	emu.Clock().Advance(2 * time.Minute)
	addr := "cloud_identity_service_specific_credential.test"
	cfg := func(extra string) string {
		return emu.ProviderConfig() + fmt.Sprintf(`
import {
  to       = cloud_identity_service_specific_credential.test
  identity = { user_name = "rita", service_specific_credential_id = %q%s }
}

resource "cloud_identity_service_specific_credential" "test" {
  user_name           = "rita"
  credential_age_days = 30
}
`, id, extra)
	}
	identityTest(t, nil, []resource.TestStep{
		{
			Config:      cfg(`, region = "eu-west-1"`),
			ExpectError: acctest.ErrorRe(`Resource Identity Names Another Region.*names region eu-west-1, but the provider is configured for ` + emu.Region()),
		},
		{
			Config: cfg(""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
					"user_name": knownvalue.StringExact("rita"), "service_specific_credential_id": knownvalue.StringExact(id),
					"account_id": knownvalue.StringExact(emu.Account()), "region": knownvalue.StringExact(emu.Region()),
				}),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("service_api_key_value"), knownvalue.Null()),
			},
		},
	})
}

// otherAccountKey signs for account 999999999999 (otherAccount).
const otherAccountKey = "AKIDOTHERACCOUNT0001"

// otherAccount gives emu credentials of a second account, 999999999999,
// allowed everything, and returns a provider block that uses them. The
// emulator keeps one set of objects for every account.
func otherAccount(t *testing.T, emu *acctest.Emulator) string {
	t.Helper()
	other := "arn:cloud:identity::999999999999:user/other-admin"
	emu.Credentials().Add(sigv4.Credential{AccessKeyID: otherAccountKey, SecretAccessKey: "other-secret", Principal: other, Account: "999999999999"})
	if _, err := emu.Identity.AttachPrincipalPolicy(other, "all", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	return emu.ProviderConfig(emulatortest.Credentials(otherAccountKey, "other-secret"))
}

// checkNoOtherAccountCalls fails t if the other account's credentials
// called the identity service (the token service, for the account, is
// expected).
func checkNoOtherAccountCalls(t *testing.T, emu *acctest.Emulator) {
	t.Helper()
	for _, c := range emu.Calls() {
		if c.AccessKeyID == otherAccountKey && c.Service != "sts" {
			t.Errorf("the other account's credentials called %s %s: the account check must come before any call", c.Service, c.Operation)
		}
	}
}

// A refresh by a provider that now runs in another account stops with the
// reason, before it asks the service anything: asked there, the service
// would answer that nothing exists (and the plan would create it all again
// in that account). The emulator keeps one set of objects for every
// account, so what shows the check comes first is that the other
// account's credentials made no call to the identity service.
func TestAccIdentity_accountChanged(t *testing.T) {
	emu := acctest.NewEmulator(t)
	otherProvider := otherAccount(t, emu)
	// No references: the three are refreshed side by side, so none
	// waits for another's error.
	unlinked := otherProvider + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = "idmoved"
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = "idmoved"
  policy_arn = %q
}

resource "cloud_identity_service_specific_credential" "test" {
  user_name           = "idmoved"
  credential_age_days = 30
}
`, limitedAccess)
	identityTest(t, checkNothingLeft(emu), []resource.TestStep{
		{Config: keyConfig(emu.ProviderConfig(), "idmoved", "credential_age_days = 30")},
		{
			PreConfig:   emu.ClearCalls,
			Config:      unlinked,
			ExpectError: acctest.ErrorRe(`Resource Identity Names Another Account.*names account ` + emu.Account() + `, but the provider runs in account 999999999999`),
		},
		{
			PreConfig: func() { checkNoOtherAccountCalls(t, emu) },
			Config:    keyConfig(emu.ProviderConfig(), "idmoved", "credential_age_days = 30"),
			PlanOnly:  true,
		},
	})
}

// An import block whose identity breaks a rule is refused on that
// attribute, naming the value it gave, before anything is looked up.
func TestAccIdentity_importInvalidIdentity(t *testing.T) {
	emu := acctest.NewEmulator(t)
	imp := func(typ, identity, body string) string {
		return emu.ProviderConfig() + fmt.Sprintf(`
import {
  to       = %[1]s.test
  identity = %[2]s
}

resource %[1]q "test" {
  %[3]s
}
`, typ, identity, body)
	}
	identityTest(t, nil, []resource.TestStep{
		{
			PreConfig:   emu.ClearCalls,
			Config:      imp("cloud_identity_user", `{ user_name = "bad/name" }`, `user_name = "badname"`),
			ExpectError: acctest.ErrorRe(`Invalid Import Identity.*The identity's user_name must be 1 to 64 letters, digits and \+=,\.@_-; got "bad/name"`),
		},
		{
			Config: imp("cloud_identity_user_policy_attachment", `{ user_name = "alice", policy_arn = "ModelsLimitedAccess" }`,
				"user_name = \"alice\"\n  policy_arn = \""+limitedAccess+"\""),
			ExpectError: acctest.ErrorRe(`Invalid Import Identity.*The identity's policy_arn must be a policy ARN .*; got "ModelsLimitedAccess"`),
		},
		{
			Config: imp("cloud_identity_service_specific_credential", `{ user_name = "alice", service_specific_credential_id = "ACCA-1", account_id = "12345" }`,
				"user_name = \"alice\"\n  credential_age_days = 30"),
			ExpectError: acctest.ErrorRe(`Invalid Import Identity.*service_specific_credential_id must be 20 to 128 letters and digits.*; got "ACCA-1".*account_id must be 12 digits; got "12345"`),
		},
		{
			PreConfig: func() {
				for _, c := range emu.Calls() {
					if c.Service == "identity" {
						t.Errorf("an import of an invalid identity called identity %s", c.Operation)
					}
				}
			},
			Config: emu.ProviderConfig(),
		},
	})
}

// An import block by the old string id records the whole identity too:
// the refresh after the import learns the account, and the key's region.
func TestAccIdentity_importByID(t *testing.T) {
	emu := acctest.NewEmulator(t)
	c := identityClient(t, emu)
	if _, err := c.CreateUser(t.Context(), identityclient.CreateUserInput{UserName: "ivan"}); err != nil {
		t.Fatal(err)
	}
	if err := c.AttachUserPolicy(t.Context(), "ivan", limitedAccess); err != nil {
		t.Fatal(err)
	}
	id, _, err := emu.Identity.CreateCredentialBehindTheBack("ivan", "models.cloud.example", 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	// Made by hand a while ago: its import is pure (no held mark to plan).
	emu.Clock().Advance(2 * time.Minute)
	cfg := emu.ProviderConfig() + fmt.Sprintf(`
import {
  to = cloud_identity_user_policy_attachment.test
  id = "ivan/%[1]s"
}

import {
  to = cloud_identity_service_specific_credential.test
  id = "ivan/%[2]s"
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = "ivan"
  policy_arn = %[1]q
}

resource "cloud_identity_service_specific_credential" "test" {
  user_name           = "ivan"
  credential_age_days = 30
}
`, limitedAccess, id)
	attachment, key := "cloud_identity_user_policy_attachment.test", "cloud_identity_service_specific_credential.test"
	identityTest(t, nil, []resource.TestStep{{
		Config: cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(attachment, plancheck.ResourceActionNoop),
				plancheck.ExpectResourceAction(key, plancheck.ResourceActionNoop),
			},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectIdentity(attachment, map[string]knownvalue.Check{
				"user_name": knownvalue.StringExact("ivan"), "policy_arn": knownvalue.StringExact(limitedAccess), "account_id": knownvalue.StringExact(emu.Account()),
			}),
			statecheck.ExpectIdentity(key, map[string]knownvalue.Check{
				"user_name": knownvalue.StringExact("ivan"), "service_specific_credential_id": knownvalue.StringExact(id),
				"account_id": knownvalue.StringExact(emu.Account()), "region": knownvalue.StringExact(emu.Region()),
			}),
		},
	}})
}

// A create that cannot learn the account (the token service fails) warns
// and records the identity without it; the next refresh that can learn it
// fills it in.
func TestAccUserPolicyAttachment_identityAccountFilledLater(t *testing.T) {
	emu := acctest.NewEmulator(t)
	addr := "cloud_identity_user_policy_attachment.test"
	// Without the check at Configure, the account is learnt when the
	// identity is written.
	cfg := emu.ProviderConfig(emulatortest.ProviderArguments("  skip_credentials_validation = true\n")) + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = "idlater"
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}
`, limitedAccess)
	identity := func(account knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
			"user_name": knownvalue.StringExact("idlater"), "policy_arn": knownvalue.StringExact(limitedAccess), "account_id": account,
		})
	}
	identityTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			PreConfig: func() {
				if err := emu.InjectFault(emulator.Fault{Service: "sts", Operation: "GetCallerIdentity", Kind: emulator.FaultError, Times: -1}); err != nil {
					t.Fatal(err)
				}
			},
			Config:            cfg,
			ConfigStateChecks: []statecheck.StateCheck{identity(knownvalue.Null())},
		},
		{
			PreConfig:         emu.ClearFaults,
			Config:            cfg,
			ConfigStateChecks: []statecheck.StateCheck{identity(knownvalue.StringExact(emu.Account()))},
		},
	})
}

// An apply or a destroy without refresh, by a provider that now runs in
// another account, stops in Update and Delete before any call: Update
// would set the status of a key of that account, Delete would delete
// objects of the same names there.
func TestAccIdentity_accountChangedWithoutRefresh(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	emu := acctest.NewEmulator(t)
	otherProvider := otherAccount(t, emu)
	resources := keyConfig("", "idnorefresh", "credential_age_days = 30")
	ctx, ws := cliWorkspace(t, emu.ProviderConfig()+resources, nil)
	if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
		t.Fatal(err)
	}
	inactive := strings.Replace(resources, "credential_age_days = 30", "credential_age_days = 30\n  status = \"Inactive\"", 1)
	for _, step := range []struct {
		config string
		args   []string
	}{
		{otherProvider + inactive, []string{"apply", "-refresh=false", "-auto-approve", "-no-color"}},
		{otherProvider + resources, []string{"destroy", "-refresh=false", "-auto-approve", "-no-color"}},
	} {
		if err := ws.Write(emulatortest.RequiredProvidersBlock + step.config); err != nil {
			t.Fatal(err)
		}
		emu.ClearCalls()
		_, err := ws.Run(ctx, step.args...)
		if err == nil || !regexp.MustCompile(`(?s)Error: Resource Identity Names Another Account.*names account\s+`+emu.Account()).MatchString(err.Error()) {
			t.Errorf("terraform %v by another account's provider: %v; want the account error", step.args, err)
		}
		checkNoOtherAccountCalls(t, emu)
	}
	if got := emu.Identity.UserNames(); len(got) != 1 {
		t.Errorf("users %v, want idnorefresh still there", got)
	}
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig() + resources); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "destroy", "-auto-approve"); err != nil {
		t.Fatal(err)
	}
}
