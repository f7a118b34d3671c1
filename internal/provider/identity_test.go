package provider_test

import (
	"context"
	"fmt"
	"os"
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
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// The identity tests of every resource type with a resource identity,
// generated from one table (identityTypes): after create the identity is
// set and names what the state names; import by id, import block by id,
// import block by identity (naming only what it must, or another account
// or region, which is refused); a state written before identities existed
// gets its identity on refresh; an identity whose account could not be
// learnt gets it at the next refresh; a provider that now runs in another
// account (or region) is refused before it calls the service. A fifth
// type needs one more row. The cases that are one type's own are in
// identity_cases_test.go, the helpers in identity_helpers_test.go.

// identityType is one resource type with an identity, as the generated
// tests drive it. Its object is named test.
type identityType struct {
	typ string
	// config is the object (and what it needs) after providerConfig.
	config func(providerConfig string) string
	// update changes the object in place; nil for a type whose every
	// argument replaces it.
	update func(config string) string
	// names are the identity's naming attributes as the config's object
	// has them (each also equals the state's attribute of that name).
	names map[string]knownvalue.Check
	// importID is the object's import id, from state.
	importID func(s *terraform.State) string
	// verifyIdentifier and verifyIgnore drive the import by id's
	// ImportStateVerify.
	verifyIdentifier string
	verifyIgnore     []string
	// existing makes an object out of band, as an import finds it: the
	// resource block's body for it, its import id and the naming
	// attributes of an import block's identity (HCL, without braces).
	existing func(t *testing.T, emu *acctest.Emulator) (body, id, identity string)
	// invalid is an import block's identity (HCL, without braces) that
	// breaks the rules, and the error it gets; "" for none.
	invalid, invalidErr string
	// replace changes the config so that the object is replaced, and
	// gives the new object's naming attributes; nil for none.
	replace func(config string) (string, map[string]knownvalue.Check)
	// regional types name their region; refuseRegion ones refuse a
	// recorded identity of another region (the key instead plans its
	// replacement).
	regional, refuseRegion bool
	// accountOfObject: the object names its account (a user's ARN), so
	// its identity never lacks one.
	accountOfObject bool
	// refreshWithoutCall: a refresh makes no call to learn the account
	// (resourceidentity.Type.RefreshWithoutCall); an update learns it.
	refreshWithoutCall bool
	// emulator is the emulator the type's tests start.
	emulator func(t *testing.T) *acctest.Emulator
	// moveOut readies the configuration's own object for an import
	// elsewhere, as a user moving it does; nil when nothing is needed.
	moveOut func(t *testing.T, emu *acctest.Emulator)
}

func (it identityType) addr() string { return it.typ + ".test" }

// want is the whole identity the state should hold for the config's object.
func (it identityType) want(emu *acctest.Emulator, account knownvalue.Check) map[string]knownvalue.Check {
	w := map[string]knownvalue.Check{"account_id": account}
	for k, v := range it.names {
		w[k] = v
	}
	if it.regional {
		w["region"] = knownvalue.StringExact(emu.Region())
	}
	return w
}

// checks are the state checks of the config's object and its identity.
func (it identityType) checks(emu *acctest.Emulator, account knownvalue.Check) []statecheck.StateCheck {
	checks := []statecheck.StateCheck{statecheck.ExpectIdentity(it.addr(), it.want(emu, account))}
	for name := range it.names {
		checks = append(checks, statecheck.ExpectIdentityValueMatchesState(it.addr(), tfjsonpath.New(name)))
	}
	return checks
}

// identityTypes are every resource type with a resource identity.
var identityTypes = []identityType{
	{
		typ: "cloud_identity_user",
		config: func(p string) string {
			return p + `
resource "cloud_identity_user" "test" {
  user_name = "iduser"
  path      = "/apps/"
}
`
		},
		update: func(c string) string {
			return strings.Replace(c, `path      = "/apps/"`, "path      = \"/apps/\"\n  force_destroy = true", 1)
		},
		names:    map[string]knownvalue.Check{"user_name": knownvalue.StringExact("iduser")},
		importID: func(*terraform.State) string { return "iduser" },
		existing: func(t *testing.T, emu *acctest.Emulator) (string, string, string) {
			t.Helper()
			if _, err := adminIdentity(t, emu).CreateUser(t.Context(), identityclient.CreateUserInput{UserName: "carla", Path: "/apps/"}); err != nil {
				t.Fatal(err)
			}
			return "user_name = \"carla\"\n  path = \"/apps/\"", "carla", `user_name = "carla"`
		},
		invalid:    `user_name = "bad/name"`,
		invalidErr: `Invalid Import Identity.*The identity's user_name must be 1 to 64 letters, digits and \+=,\.@_-; got "bad/name"`,
		replace: func(c string) (string, map[string]knownvalue.Check) {
			return strings.Replace(c, `"iduser"`, `"idbob"`, 1), map[string]knownvalue.Check{"user_name": knownvalue.StringExact("idbob")}
		},
		accountOfObject: true,
		emulator:        newEmulator,
	},
	{
		typ: "cloud_identity_user_policy_attachment",
		config: func(p string) string {
			return p + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = "idpat"
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}
`, limitedAccessPolicy)
		},
		names:    map[string]knownvalue.Check{"user_name": knownvalue.StringExact("idpat"), "policy_arn": knownvalue.StringExact(limitedAccessPolicy)},
		importID: func(*terraform.State) string { return "idpat/" + limitedAccessPolicy },
		existing: func(t *testing.T, emu *acctest.Emulator) (string, string, string) {
			t.Helper()
			c := adminIdentity(t, emu)
			if _, err := c.CreateUser(t.Context(), identityclient.CreateUserInput{UserName: "ivan"}); err != nil {
				t.Fatal(err)
			}
			if err := c.AttachUserPolicy(t.Context(), "ivan", limitedAccessPolicy); err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("user_name = \"ivan\"\n  policy_arn = %q", limitedAccessPolicy), "ivan/" + limitedAccessPolicy,
				fmt.Sprintf(`user_name = "ivan", policy_arn = %q`, limitedAccessPolicy)
		},
		invalid:    `user_name = "alice", policy_arn = "ModelsLimitedAccess"`,
		invalidErr: `Invalid Import Identity.*The identity's policy_arn must be a policy ARN .*; got "ModelsLimitedAccess"`,
		emulator:   newEmulator,
	},
	{
		typ:    "cloud_identity_service_specific_credential",
		config: func(p string) string { return keyWith(p, "credential_age_days = 30") },
		update: func(c string) string {
			return strings.Replace(c, "credential_age_days = 30", "credential_age_days = 30\n  status = \"Inactive\"", 1)
		},
		names: map[string]knownvalue.Check{
			"user_name":                      knownvalue.StringExact("idkey"),
			"service_specific_credential_id": knownvalue.StringRegexp(regexp.MustCompile(`^\w{20,128}$`)),
		},
		importID: func(s *terraform.State) string {
			return s.RootModule().Resources["cloud_identity_service_specific_credential.test"].Primary.ID
		},
		verifyIgnore: []string{"service_api_key_value", "reset_triggers", "held"},
		existing: func(t *testing.T, emu *acctest.Emulator) (string, string, string) {
			t.Helper()
			if _, err := adminIdentity(t, emu).CreateUser(t.Context(), identityclient.CreateUserInput{UserName: "rita"}); err != nil {
				t.Fatal(err)
			}
			id, _, err := emu.Identity.CreateCredentialBehindTheBack("rita", "models.cloud.example", 30, emu.Region())
			if err != nil {
				t.Fatal(err)
			}
			// Made by hand a while ago: its import is pure (no held mark to plan).
			emu.Clock().Advance(2 * time.Minute)
			return "user_name = \"rita\"\n  credential_age_days = 30", "rita/" + id,
				fmt.Sprintf(`user_name = "rita", service_specific_credential_id = %q`, id)
		},
		invalid:    `user_name = "alice", service_specific_credential_id = "ACCA-1", account_id = "12345"`,
		invalidErr: `Invalid Import Identity.*service_specific_credential_id must be 20 to 128 letters and digits.*; got "ACCA-1".*account_id must be 12 digits; got "12345"`,
		replace: func(c string) (string, map[string]knownvalue.Check) {
			return strings.Replace(c, "credential_age_days = 30", "credential_age_days = 60", 1), map[string]knownvalue.Check{
				"user_name": knownvalue.StringExact("idkey"), "service_specific_credential_id": knownvalue.StringRegexp(regexp.MustCompile(`^\w{20,128}$`)),
			}
		},
		regional: true,
		emulator: newEmulator,
		// A key its create marked as held is imported by no other state
		// (the import stops on the mark): moved as the key's page says,
		// the mark removed, and a while later, so that no recovery could
		// take it and its import is pure.
		moveOut: func(t *testing.T, emu *acctest.Emulator) {
			t.Helper()
			if n := emu.Identity.UnmarkKeysBehindTheBack("idkey"); n != 1 {
				t.Fatalf("removed %d marks from idkey, want the key's 1", n)
			}
			emu.Clock().Advance(2 * time.Minute)
		},
	},
	{
		typ:    "cloud_search_domain_config",
		config: func(p string) string { return p + domainBlock("test", "demo") },
		update: func(c string) string {
			return strings.Replace(c, "automated_snapshot_start_hour = 0", "automated_snapshot_start_hour = 3", 1)
		},
		names:            map[string]knownvalue.Check{"domain_name": knownvalue.StringExact("demo")},
		importID:         func(*terraform.State) string { return "demo" },
		verifyIdentifier: "domain_name",
		verifyIgnore:     []string{"dry_run"},
		existing: func(t *testing.T, emu *acctest.Emulator) (string, string, string) {
			t.Helper()
			if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "other"}); err != nil {
				t.Fatal(err)
			}
			return `domain_name = "other"`, "other", `domain_name = "other"`
		},
		replace: func(c string) (string, map[string]knownvalue.Check) {
			return strings.Replace(c, `"demo"`, `"spare"`, 1), map[string]knownvalue.Check{"domain_name": knownvalue.StringExact("spare")}
		},
		regional: true, refuseRegion: true, refreshWithoutCall: true,
		emulator: domainEmulator,
	},
}

// identityTypeOf is the row of typ.
func identityTypeOf(typ string) identityType {
	for _, it := range identityTypes {
		if it.typ == typ {
			return it
		}
	}
	panic("no identity type " + typ)
}

// identityCase runs steps on a CLI with resource identity (Terraform
// 1.12+), skipping with the reason on one without; at the end nothing
// is left in the identity service of emu (nil: no such check).
func identityCase(t *testing.T, emu *acctest.Emulator, steps []resource.TestStep) {
	t.Helper()
	var checkDestroy resource.TestCheckFunc
	if emu != nil {
		checkDestroy = func(*terraform.State) error {
			if st := emu.Identity.State(); len(st.Users) > 0 {
				return fmt.Errorf("left behind: %+v", st.Users)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroy,
		Steps:                    steps,
	})
}

// eachIdentityType runs test for every type, as a subtest named by it.
func eachIdentityType(t *testing.T, test func(t *testing.T, it identityType)) {
	t.Helper()
	for _, it := range identityTypes {
		t.Run(it.typ, func(t *testing.T) { test(t, it) })
	}
}

// TestAccIdentity_basic: the identity is in state after create, names
// what the state names, stays through a refresh and an update in place;
// an import by id, an import block by id and an import block by identity
// find the same object.
func TestAccIdentity_basic(t *testing.T) {
	eachIdentityType(t, func(t *testing.T, it identityType) {
		emu := it.emulator(t)
		cfg := it.config(emu.ProviderConfig())
		steps := []resource.TestStep{
			{Config: cfg, ConfigStateChecks: it.checks(emu, knownvalue.StringExact(emu.Account()))},
			{
				Config:            cfg,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: it.checks(emu, knownvalue.StringExact(emu.Account())),
			},
			{
				PreConfig: func() {
					if it.moveOut != nil {
						it.moveOut(t, emu)
					}
				},
				ResourceName: it.addr(), ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc:                    func(s *terraform.State) (string, error) { return it.importID(s), nil },
				ImportStateVerifyIdentifierAttribute: it.verifyIdentifier, ImportStateVerifyIgnore: it.verifyIgnore,
			},
			{
				ResourceName: it.addr(), ImportState: true, ImportStateKind: resource.ImportBlockWithID,
				ImportStateIdFunc: func(s *terraform.State) (string, error) { return it.importID(s), nil },
			},
			{ResourceName: it.addr(), ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		}
		if it.update != nil {
			steps = append(steps, resource.TestStep{
				Config: it.update(cfg),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(it.addr(), plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: it.checks(emu, knownvalue.StringExact(emu.Account())),
			})
			cfg = it.update(cfg)
		}
		// A moved block keeps the object and its identity.
		renamed := strings.Replace(cfg, fmt.Sprintf("resource %q \"test\"", it.typ), fmt.Sprintf("resource %q \"renamed\"", it.typ), 1)
		moved := it.typ + ".renamed"
		steps = append(steps, resource.TestStep{
			Config: renamed + fmt.Sprintf("\nmoved {\n  from = %s\n  to   = %s\n}\n", it.addr(), moved),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(moved, plancheck.ResourceActionNoop),
			}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(moved, it.want(emu, knownvalue.StringExact(emu.Account())))},
		})
		if it.replace != nil {
			// Another object replaces it, with its own identity.
			next, names := it.replace(renamed)
			checks := []statecheck.StateCheck{statecheck.ExpectIdentityValue(moved, tfjsonpath.New("account_id"), knownvalue.StringExact(emu.Account()))}
			for name, v := range names {
				checks = append(checks, statecheck.ExpectIdentityValue(moved, tfjsonpath.New(name), v), statecheck.ExpectIdentityValueMatchesState(moved, tfjsonpath.New(name)))
			}
			steps = append(steps, resource.TestStep{
				Config: next,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(moved, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: checks,
			})
		}
		identityCase(t, emu, steps)
	})
}

// importConfig is the object made out of band, named test, imported by
// the import block's to-be-filled target (id = ... or identity = {...}).
func importConfig(it identityType, providerConfig, body, target string) string {
	return providerConfig + fmt.Sprintf(`
import {
  to = %[1]s.test
  %[2]s
}

resource %[1]q "test" {
  %[3]s
}
`, it.typ, target, body)
}

// TestAccIdentity_import: an object made by hand is adopted by an import
// block that names it by its string id, or by an identity that names only
// what it must (account_id and region default to the provider's): the
// plan is a pure import and the state holds the whole identity. An
// identity naming another account (or, for a regional type, another
// region) is refused with the reason, before anything is read.
func TestAccIdentity_import(t *testing.T) {
	eachIdentityType(t, func(t *testing.T, it identityType) {
		for _, kind := range []string{"id", "identity"} {
			t.Run("by "+kind, func(t *testing.T) {
				emu := it.emulator(t)
				body, id, identity := it.existing(t, emu)
				target := fmt.Sprintf("id = %q", id)
				if kind == "identity" {
					target = "identity = { " + identity + " }"
				}
				want := map[string]knownvalue.Check{"account_id": knownvalue.StringExact(emu.Account())}
				if it.regional {
					want["region"] = knownvalue.StringExact(emu.Region())
				}
				var steps []resource.TestStep
				if kind == "identity" {
					refused := func(extra, re string) resource.TestStep {
						return resource.TestStep{
							PreConfig:   emu.ClearCalls,
							Config:      importConfig(it, emu.ProviderConfig(), body, "identity = { "+identity+extra+" }"),
							ExpectError: acctest.ErrorRe(re),
						}
					}
					if it.invalid != "" {
						steps = append(steps, resource.TestStep{
							PreConfig:   emu.ClearCalls,
							Config:      importConfig(it, emu.ProviderConfig(), body, "identity = { "+it.invalid+" }"),
							ExpectError: acctest.ErrorRe(it.invalidErr),
						})
					}
					steps = append(steps, refused(`, account_id = "999999999999"`,
						`Resource Identity Names Another Account.*names account 999999999999, but the provider runs in account `+emu.Account()))
					if it.regional {
						steps = append(steps, refused(`, region = "eu-west-1"`,
							`Resource Identity Names Another Region.*names region eu-west-1, but the provider is configured for `+emu.Region()))
					}
				}
				steps = append(steps, resource.TestStep{
					PreConfig: func() {
						if kind == "identity" {
							noServiceCalls(t, emu, "a refused import")
						}
					},
					Config: importConfig(it, emu.ProviderConfig(), body, target),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(it.addr(), plancheck.ResourceActionNoop),
					}},
				})
				for name, v := range want {
					steps[len(steps)-1].ConfigStateChecks = append(steps[len(steps)-1].ConfigStateChecks,
						statecheck.ExpectIdentityValue(it.addr(), tfjsonpath.New(name), v))
				}
				for name := range it.names {
					steps[len(steps)-1].ConfigStateChecks = append(steps[len(steps)-1].ConfigStateChecks,
						statecheck.ExpectIdentityValueMatchesState(it.addr(), tfjsonpath.New(name)))
				}
				// The user the attachment or key was made for stays: it is
				// no object of the configuration.
				identityCase(t, nil, steps)
			})
		}
	})
}

// TestAccIdentity_otherAccount: a refresh by a provider that now runs in
// another account stops with the reason, before it asks the service
// anything: asked there, the service would answer that nothing exists (and
// the plan would create it all again in that account), or read an object
// of the same name. The emulator keeps one set of objects for every
// account, so what shows the check comes first is that the other
// account's credentials made no call but the token service's.
func TestAccIdentity_otherAccount(t *testing.T) {
	eachIdentityType(t, func(t *testing.T, it identityType) {
		emu := it.emulator(t)
		other := otherAccountProvider(t, emu)
		steps := []resource.TestStep{
			{Config: it.config(emu.ProviderConfig())},
			{
				PreConfig:   emu.ClearCalls,
				Config:      it.config(other),
				PlanOnly:    true,
				ExpectError: acctest.ErrorRe(`Resource Identity Names Another Account.*names account ` + emu.Account() + `, but the provider runs in account 999999999999`),
			},
			{
				PreConfig: func() { checkNoOtherAccountCalls(t, emu) },
				Config:    it.config(emu.ProviderConfig()),
				PlanOnly:  true,
			},
		}
		if it.refuseRegion {
			// The provider now signs for another region: the state's
			// object is not one it can read, and one of the same name
			// there must not be taken for it.
			steps = append(steps, resource.TestStep{
				Config:      it.config(emu.ProviderConfig(emulatortest.InRegion("us-west-2"))),
				PlanOnly:    true,
				ExpectError: acctest.ErrorRe(`Resource Identity Names Another Region.*names region ` + emu.Region() + `, but the provider is configured for us-west-2`),
			})
		}
		identityCase(t, emu, steps)
	})
}

// TestAccIdentity_accountLearntLater: a create that cannot learn the
// account (credentials not checked at Configure, and the token service
// fails) warns and records the identity without it; the next refresh that
// can learn it fills it in (the next update, for a type whose refresh
// makes no call). An object that names its account (a user's ARN) has it
// from the start.
func TestAccIdentity_accountLearntLater(t *testing.T) {
	eachIdentityType(t, func(t *testing.T, it identityType) {
		emu := it.emulator(t)
		cfg := it.config(emu.ProviderConfig(emulatortest.ProviderArguments("  skip_credentials_validation = true\n")))
		var first knownvalue.Check = knownvalue.Null()
		if it.accountOfObject {
			first = knownvalue.StringExact(emu.Account())
		}
		steps := []resource.TestStep{
			{
				PreConfig: func() {
					if err := emu.InjectFault(emulator.Fault{Service: "sts", Operation: "GetCallerIdentity", Kind: emulator.FaultError, Times: -1}); err != nil {
						t.Fatal(err)
					}
				},
				Config:            cfg,
				ConfigStateChecks: it.checks(emu, first),
			},
		}
		if it.refreshWithoutCall {
			steps = append(steps,
				resource.TestStep{PreConfig: emu.ClearFaults, Config: cfg, ConfigStateChecks: it.checks(emu, first)},
				resource.TestStep{Config: it.update(cfg), ConfigStateChecks: it.checks(emu, knownvalue.StringExact(emu.Account()))})
		} else {
			steps = append(steps, resource.TestStep{
				PreConfig:         emu.ClearFaults,
				Config:            cfg,
				ConfigStateChecks: it.checks(emu, knownvalue.StringExact(emu.Account())),
			})
		}
		identityCase(t, emu, steps)
	})
}

// TestAccIdentity_stateBeforeIdentity: a state written by Terraform 1.11
// (no identities) is refreshed by a CLI with identities in the same
// workspace: the first plan is empty, the refresh records the whole
// identity, and an update keeps it. With skip_credentials_validation the
// account is learnt too, with at most one GetCallerIdentity per run; a
// type whose refresh makes no call records none then (and makes no
// GetCallerIdentity), and its update fills it.
func TestAccIdentity_stateBeforeIdentity(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	eachIdentityType(t, func(t *testing.T, it identityType) {
		for name, skip := range map[string]bool{"credentials validated": false, "skip_credentials_validation": true} {
			t.Run(name, func(t *testing.T) {
				emu := it.emulator(t)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				ws := acctest.NewWorkspace(ctx, t)
				ws.CLI = oldCLI(t)
				providerConfig := emu.ProviderConfig()
				if skip {
					providerConfig = emu.ProviderConfig(emulatortest.ProviderArguments("  skip_credentials_validation = true\n"))
				}
				cfg := emulatortest.RequiredProvidersBlock + it.config(providerConfig)
				if err := ws.Write(cfg); err != nil {
					t.Fatal(err)
				}
				for _, args := range [][]string{{"init", "-backend=false"}, {"apply", "-auto-approve"}} {
					if _, err := ws.Run(ctx, args...); err != nil {
						t.Fatal(err)
					}
				}
				checkIdentity(ctx, t, ws, it.addr(), nil)
				ws.CLI = os.Getenv("TF_ACC_TERRAFORM_PATH")
				emu.ClearCalls()
				if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
					t.Errorf("the first plan with identities is not empty or failed: %v", err)
				}
				if _, err := ws.Run(ctx, "apply", "-refresh-only", "-auto-approve"); err != nil {
					t.Fatal(err)
				}
				noAccount := skip && it.refreshWithoutCall
				switch n := emu.Sent("GetCallerIdentity"); {
				case noAccount && n != 0:
					t.Errorf("the refreshes made %d GetCallerIdentity calls, want 0", n)
				case skip && n > 2:
					t.Errorf("the plan and the refresh made %d GetCallerIdentity calls, want at most one each", n)
				}
				account := func(noAccount bool) string {
					if noAccount {
						return ""
					}
					return emu.Account()
				}
				want := checkIdentity(ctx, t, ws, it.addr(), func(got map[string]string) map[string]string {
					w := map[string]string{"account_id": account(noAccount)}
					if it.regional {
						w["region"] = emu.Region()
					}
					for k := range it.names {
						w[k] = got[k]
					}
					return w
				})
				if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
					t.Errorf("the plan after the refresh is not empty or failed: %v", err)
				}
				if it.update == nil {
					return
				}
				// An update keeps the identity as the refresh recorded it,
				// with the account it learns if the refresh could not.
				if err := ws.Write(emulatortest.RequiredProvidersBlock + it.update(it.config(providerConfig))); err != nil {
					t.Fatal(err)
				}
				if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
					t.Fatal(err)
				}
				want["account_id"] = account(false)
				checkIdentity(ctx, t, ws, it.addr(), func(map[string]string) map[string]string { return want })
			})
		}
	})
}
