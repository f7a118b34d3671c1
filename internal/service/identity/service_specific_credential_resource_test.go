package identity_test

import (
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
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

const (
	keyAddr        = "cloud_identity_service_specific_credential.test"
	attachAddr     = "cloud_identity_user_policy_attachment.test"
	limitedAccess  = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
	emulatorAdmin  = "arn:cloud:identity::123456789012:user/emulator-admin"
	capPolicy90Day = `{
  "Version": "2012-10-17",
  "Statement": [{
    "Sid": "LimitKeyAgeTo90Days",
    "Effect": "Allow",
    "Action": "identity:CreateServiceSpecificCredential",
    "Resource": "*",
    "Condition": {
      "NumericLessThanEquals": {"identity:ServiceSpecificCredentialAgeDays": "90"},
      "StringEquals": {"identity:ServiceSpecificCredentialServiceName": "models.cloud.example"}
    }
  }]
}`
)

// checkKeyStatus checks the emulator's status of the only key of user.
func checkKeyStatus(emu *acctest.Emulator, user, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		st := emu.Identity.State()
		for _, u := range st.Users {
			if u.UserName == user && len(u.Credentials) == 1 {
				if got := u.Credentials[0].Status; got != want {
					return fmt.Errorf("key status %s, want %s", got, want)
				}
				return nil
			}
		}
		return fmt.Errorf("user %s does not hold exactly one key: %+v", user, st.Users)
	}
}

func TestAccServiceSpecificCredential_lifecycle(t *testing.T) {
	emu := acctest.NewEmulator(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	valueChanges := statecheck.CompareValue(compare.ValuesDiffer())
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: keyConfig(emu.ProviderConfig(), "alice", `credential_age_days = 30`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(keyAddr, tfjsonpath.New("region"), knownvalue.StringExact("us-east-1")),
					plancheck.ExpectUnknownValue(keyAddr, tfjsonpath.New("service_api_key_value")),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("service_name"), knownvalue.StringExact("models.cloud.example")),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("status"), knownvalue.StringExact("Active")),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("region"), knownvalue.StringExact("us-east-1")),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("service_api_key_value"), knownvalue.StringRegexp(regexp.MustCompile(`^CLOUDK[A-Za-z0-9_-]{64}$`))),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("service_specific_credential_id"), knownvalue.StringRegexp(regexp.MustCompile(`^ACCA[A-Z2-7]{17}$`))),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("expiration_date"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
				statecheck.ExpectKnownValue(attachAddr, tfjsonpath.New("id"), knownvalue.StringExact("alice/"+limitedAccess)),
				sameID.AddStateValue(keyAddr, tfjsonpath.New("service_specific_credential_id")),
				valueChanges.AddStateValue(keyAddr, tfjsonpath.New("service_api_key_value")),
			},
			Check: func(*terraform.State) error {
				if got := emu.Identity.AttachedPolicyArns("alice"); len(got) != 1 || got[0] != limitedAccess {
					return fmt.Errorf("attached policies %v", got)
				}
				return nil
			},
		},
		{
			// Deactivated in place.
			Config: keyConfig(emu.ProviderConfig(), "alice", `credential_age_days = 30
  status = "Inactive"`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionUpdate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(keyAddr, tfjsonpath.New("service_specific_credential_id")),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("status"), knownvalue.StringExact("Inactive")),
			},
			Check: checkKeyStatus(emu, "alice", "Inactive"),
		},
		{
			// Reactivated in place.
			Config: keyConfig(emu.ProviderConfig(), "alice", `credential_age_days = 30
  status = "Active"`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionUpdate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(keyAddr, tfjsonpath.New("service_specific_credential_id")),
			},
			Check: checkKeyStatus(emu, "alice", "Active"),
		},
		{
			// A reset: new value, same id.
			Config: keyConfig(emu.ProviderConfig(), "alice", `credential_age_days = 30
  reset_triggers = { rotation = "2026-01" }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(keyAddr, tfjsonpath.New("service_api_key_value")),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(keyAddr, tfjsonpath.New("service_specific_credential_id")),
				valueChanges.AddStateValue(keyAddr, tfjsonpath.New("service_api_key_value")),
			},
		},
		{
			Config: keyConfig(emu.ProviderConfig(), "alice", `credential_age_days = 30
  reset_triggers = { rotation = "2026-01" }`),
			PlanOnly: true,
		},
		{
			// The key is marked as held by this configuration's state:
			// an import of it elsewhere stops at plan, naming the mark.
			ResourceName: keyAddr,
			ImportState:  true,
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return "alice/" + s.RootModule().Resources[keyAddr].Primary.Attributes["service_specific_credential_id"], nil
			},
			ExpectError: regexp.MustCompile(`Imported Key Held by Another Configuration`),
		},
		{
			// Moved as the docs say: the mark removed, then imported.
			PreConfig: func() {
				if n := emu.Identity.UnmarkKeysBehindTheBack("alice"); n != 1 {
					t.Fatalf("removed %d marks from alice, want the key's 1", n)
				}
			},
			ResourceName:                         keyAddr,
			ImportState:                          true,
			ImportStateVerify:                    true,
			ImportStateVerifyIdentifierAttribute: "id",
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return "alice/" + s.RootModule().Resources[keyAddr].Primary.Attributes["service_specific_credential_id"], nil
			},
			// An imported key is held only once an apply has marked it.
			ImportStateVerifyIgnore: []string{"service_api_key_value", "reset_triggers", "held"},
		},
		{
			ResourceName:      attachAddr,
			ImportState:       true,
			ImportStateId:     "alice/" + limitedAccess,
			ImportStateVerify: true,
		},
	})
}

func TestAccServiceSpecificCredential_renewBeforeExpiry(t *testing.T) {
	emu := acctest.NewEmulator(t)
	newID := statecheck.CompareValue(compare.ValuesDiffer())
	cfg := keyConfig(emu.ProviderConfig(), "erin", `credential_age_days = 30
  renew_before_days   = 7`)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config:            cfg,
			ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(keyAddr, tfjsonpath.New("service_specific_credential_id"))},
		},
		{
			// 22 days later: 8 days left, nothing to do yet.
			PreConfig: func() { emu.Clock().Advance(22 * 24 * time.Hour) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
		{
			// 2 more days: 6 days left, within renew_before_days.
			PreConfig: func() { emu.Clock().Advance(2 * 24 * time.Hour) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction(attachAddr, plancheck.ResourceActionNoop),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(keyAddr, tfjsonpath.New("service_specific_credential_id"))},
		},
		{
			// Past the expiry of a key: replaced too.
			PreConfig: func() { emu.Clock().Advance(31 * 24 * time.Hour) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionReplace)},
			},
		},
	})
}

func TestAccServiceSpecificCredential_regionChangeReplaces(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{Config: keyConfig(emu.ProviderConfig(), "frank", `credential_age_days = 30`)},
		{
			Config: keyConfig(emu.ProviderConfig(emulatortest.InRegion("eu-west-1")), "frank", `credential_age_days = 30`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionReplace),
					plancheck.ExpectKnownValue(keyAddr, tfjsonpath.New("region"), knownvalue.StringExact("eu-west-1")),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("region"), knownvalue.StringExact("eu-west-1")),
			},
			Check: func(*terraform.State) error {
				for _, u := range emu.Identity.State().Users {
					for _, k := range u.Credentials {
						if k.Region != "eu-west-1" {
							return fmt.Errorf("key %s is in %s", k.ID, k.Region)
						}
					}
				}
				return nil
			},
		},
	})
}

func TestAccServiceSpecificCredential_disappears(t *testing.T) {
	emu := acctest.NewEmulator(t)
	cfg := keyConfig(emu.ProviderConfig(), "gina", `credential_age_days = 30`)
	parallelTest(t, checkNothingLeft(emu), disappearsSteps(cfg, keyAddr, func() error {
		ids := emu.Identity.CredentialIDs("gina")
		if len(ids) != 1 || !emu.Identity.DeleteCredentialBehindTheBack("gina", ids[0]) {
			return fmt.Errorf("no key to delete: %v", ids)
		}
		return nil
	}))
}

func TestAccServiceSpecificCredential_policyCapRefusesLongKey(t *testing.T) {
	emu := acctest.NewEmulator(t)
	if _, err := emu.Identity.AttachPrincipalPolicy(emulatorAdmin, "cap", []byte(capPolicy90Day)); err != nil {
		t.Fatal(err)
	}
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config:      keyConfig(emu.ProviderConfig(), "henry", `credential_age_days = 120`),
			ExpectError: regexp.MustCompile(`(?s)Unable to Create Identity Service Specific Credential.*refuses\s+a\s+key\s+for\s+user\s+"henry"\s+with\s+credential_age_days\s+=\s+120.*"LimitKeyAgeTo90Days".*NumericLessThanEquals\s+90`),
		},
		{
			Config: keyConfig(emu.ProviderConfig(), "henry", `credential_age_days = 90`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("credential_age_days"), knownvalue.Int64Exact(90)),
			},
		},
	})
}

// The cap is found at plan, through the service's policy simulation:
// nothing is created, not even the user the key belongs to.
func TestAccServiceSpecificCredential_policyCapRefusedAtPlan(t *testing.T) {
	emu := acctest.NewEmulator(t)
	if _, err := emu.Identity.AttachPrincipalPolicy(emulatorAdmin, "cap", []byte(capPolicy90Day)); err != nil {
		t.Fatal(err)
	}
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config:      keyConfig(emu.ProviderConfig(), "irene", `credential_age_days = 120`),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)with cloud_identity_service_specific_credential.test.*credential_age_days.*refuses\s+a\s+key\s+for\s+user\s+"irene".*"LimitKeyAgeTo90Days".*policy\s+simulation\s+says\s+so\s+at\s+plan`),
		},
	})
	emu.ExpectCalls(t, "CreateUser", 0, "the plan was refused")
	emu.ExpectCalls(t, "CreateServiceSpecificCredential", 0, "the plan was refused")
}

// A caller that may not simulate its policies is warned that the check was
// skipped; the key is created as before.
func TestAccServiceSpecificCredential_permissionCheckSkipped(t *testing.T) {
	emu := acctest.NewEmulator(t)
	deny := `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"identity:SimulatePrincipalPolicy","Resource":"*"},{"Effect":"Allow","Action":"identity:*","Resource":"*"}]}`
	if _, err := emu.Identity.AttachPrincipalPolicy(emulatorAdmin, "no-simulation", []byte(deny)); err != nil {
		t.Fatal(err)
	}
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: keyConfig(emu.ProviderConfig(), "jack", `credential_age_days = 30`),
			Check:  checkOneWorkingKey(emu, "jack"),
		},
	})
	denied := 0
	for _, c := range emu.CallsTo("SimulatePrincipalPolicy") {
		if c.Status == 403 {
			denied++
		}
	}
	if denied == 0 {
		t.Error("no SimulatePrincipalPolicy was refused: the check did not run")
	}
}

func TestAccServiceSpecificCredential_limitOfTwoPerService(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: emu.ProviderConfig() + `
resource "cloud_identity_user" "test" {
  user_name = "ivan"
}

resource "cloud_identity_service_specific_credential" "k" {
  count               = 3
  user_name           = cloud_identity_user.test.user_name
  credential_age_days = 30
}
`,
			ExpectError: regexp.MustCompile(`(?s)User\s+"ivan"\s+already\s+holds\s+the\s+most\s+keys\s+the\s+service\s+allows\s+for\s+models.cloud.example\s+\(2\s+per\s+user\s+per\s+service\)`),
		},
	})
}

// checkOneWorkingKey: user holds exactly one key, the one in state, and
// the state's value is the key's current value (the runtime accepts it).
func checkOneWorkingKey(emu *acctest.Emulator, user string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ids := emu.Identity.CredentialIDs(user)
		if len(ids) != 1 {
			return fmt.Errorf("user %s holds keys %v, want exactly 1", user, ids)
		}
		rs := s.RootModule().Resources[keyAddr]
		if rs == nil {
			return fmt.Errorf("no %s in state", keyAddr)
		}
		if got := rs.Primary.Attributes["service_specific_credential_id"]; got != ids[0] {
			return fmt.Errorf("state holds key %s, the service %s", got, ids[0])
		}
		info, ok := emu.Identity.LookupServiceAPIKey(rs.Primary.Attributes["service_api_key_value"])
		if !ok || info.CredentialID != ids[0] {
			return fmt.Errorf("the state's service_api_key_value is not the current value of key %s", ids[0])
		}
		return nil
	}
}

const lostAnswerConfig = `
resource "cloud_identity_user" "test" {
  user_name     = %q
  force_destroy = true
}

resource "cloud_identity_service_specific_credential" "test" {
  user_name           = cloud_identity_user.test.user_name
  credential_age_days = 30
}
`

// A lost create answer: the same apply finds the key the request made and
// adopts it (a reset gives it a value), with no second create.
func TestAccServiceSpecificCredential_lostCreateAnswer(t *testing.T) {
	emu := acctest.NewEmulator(t)
	if err := emu.InjectFault(emulator.Fault{Service: "identity", Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultLostResponse}); err != nil {
		t.Fatal(err)
	}
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: emu.ProviderConfig() + fmt.Sprintf(lostAnswerConfig, "judy"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("credential_age_days"), knownvalue.Int64Exact(30)),
				statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("status"), knownvalue.StringExact("Active")),
			},
			Check: checkOneWorkingKey(emu, "judy"),
		},
	})
	if n := emu.Sent("CreateServiceSpecificCredential"); n != 1 {
		t.Errorf("CreateServiceSpecificCredential sent %d times, want 1", n)
	}
}

// A lost create answer whose key cannot be found in that apply (the list
// fails throughout): the apply fails and creates nothing more, and the
// next apply, once the create could no longer land a key (the emulator's
// clock moved past it), adopts the key before creating anything.
func TestAccServiceSpecificCredential_lostCreateAnswerAdoptedNextApply(t *testing.T) {
	emu := acctest.NewEmulator(t)
	cfg := emu.ProviderConfig() + fmt.Sprintf(lostAnswerConfig, "kate")
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			PreConfig: func() {
				for _, f := range []emulator.Fault{
					{Service: "identity", Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultLostResponse},
					{Service: "identity", Operation: "ListServiceSpecificCredentials", Kind: emulator.FaultError, Times: -1},
				} {
					if err := emu.InjectFault(f); err != nil {
						t.Fatal(err)
					}
				}
			},
			Config:      cfg,
			ExpectError: acctest.ErrorRe(`answer was lost, and listing the user's keys to find the key failed.*the next apply looks for the key again and adopts it`),
		},
		{
			PreConfig: func() {
				emu.ClearFaults()
				if ids := emu.Identity.CredentialIDs("kate"); len(ids) != 1 {
					t.Errorf("after the failed apply the user holds keys %v, want the 1 the lost answer made", ids)
				}
				emu.Clock().Advance(10 * time.Minute)
			},
			Config: cfg,
			Check:  checkOneWorkingKey(emu, "kate"),
		},
	})
	if n := emu.Sent("CreateServiceSpecificCredential"); n != 1 {
		t.Errorf("CreateServiceSpecificCredential sent %d times, want 1", n)
	}
}

func TestAccServiceSpecificCredential_invalidConfig(t *testing.T) {
	emu := acctest.NewEmulator(t)
	parallelTest(t, nil, []resource.TestStep{
		{
			Config:      keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 0`),
			ExpectError: regexp.MustCompile(`Attribute credential_age_days value must be between 1 and 36600`),
		},
		{
			Config: keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 30
  renew_before_days = 30`),
			ExpectError: regexp.MustCompile(`renew_before_days \(30\) must be smaller than\s+credential_age_days \(30\)`),
		},
		{
			// A key's expiry is chosen at creation (the spec): no key without one.
			Config:      keyConfig(emu.ProviderConfig(), "kim", `renew_before_days = 3`),
			ExpectError: regexp.MustCompile(`The argument "credential_age_days" is required`),
		},
		{
			Config:      keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 1.5`),
			ExpectError: acctest.ErrorRe(`Invalid Whole Number.*credential_age_days must be a whole number, such as 1 or 30; got 1.5\.`),
		},
		{
			Config: keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 30
  renew_before_days = 2.5`),
			ExpectError: acctest.ErrorRe(`renew_before_days must be a whole number, such as 1 or 30; got 2.5\.`),
		},
		{
			Config: keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 30
  status = "Disabled"`),
			ExpectError: regexp.MustCompile(`Attribute status value must be one of`),
		},
		{
			Config: keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 30
  service_name = "Not A Service"`),
			ExpectError: regexp.MustCompile(`Attribute service_name must be a service name such as models.cloud.example`),
		},
		{
			// Well formed, but not a service that accepts these keys:
			// refused at plan, before the user is created.
			Config: keyConfig(emu.ProviderConfig(), "kim", `credential_age_days = 30
  service_name = "codecommit.cloud.example"`),
			ExpectError: regexp.MustCompile(`Attribute service_name value must be one of: \["models.cloud.example"\], got:\s+"codecommit.cloud.example"`),
		},
	})
	emu.ExpectCalls(t, "", 0, "invalid configurations are refused before any call")
}
