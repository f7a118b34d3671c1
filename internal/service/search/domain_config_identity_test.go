package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

// identityTest runs steps on a CLI with resource identity (Terraform
// 1.12+), skipping with the reason on one without.
func identityTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// exampleFile is a file of examples/, which the documentation shows.
func exampleFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// domainAt is a cloud_search_domain_config block named name for domain.
func domainAt(name, domain string) string {
	return fmt.Sprintf(`
resource "cloud_search_domain_config" %q {
  domain_name      = %q
  snapshot_options = { automated_snapshot_start_hour = 0 }
}
`, name, domain)
}

// TestAccDomainConfigIdentity: the state carries the identity after create
// (adoption), refresh, import by identity, import by the domain's name
// (import block and terraform import), a moved block and a replacement.
func TestAccDomainConfigIdentity(t *testing.T) {
	emu := newDomainEmulator(t)
	// us-west-2 has a domain of the same name, with other values: the
	// provider of the home region neither reads nor changes it.
	addDomains(t, emu, emusearch.DomainSpec{DomainName: "other"}, emusearch.EverySectionDomain("demo", "us-west-2", emu.Clock().Now()))
	west, _ := emu.Search.DomainIn("us-west-2", "demo")
	home, _ := emu.Search.Domain("demo")
	moved := "cloud_search_domain_config.moved"
	identityTest(t, []resource.TestStep{
		{
			Config: emu.ProviderConfig() + domainAt("test", "demo"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity(domainRes, idOf(emu, "demo")),
				statecheck.ExpectKnownValue(domainRes, tfjsonpath.New("cluster_config").AtMapKey("instance_count"), knownvalue.Int64Exact(*home.ClusterConfig.InstanceCount)),
			},
			Check: func(*terraform.State) error {
				for _, c := range emu.Calls() {
					if c.Region == "us-west-2" {
						return fmt.Errorf("the provider of %s called %s in us-west-2", emu.Region(), c.Operation)
					}
				}
				now, _ := emu.Search.DomainIn("us-west-2", "demo")
				if d := cmp.Diff(west, now); d != "" {
					return fmt.Errorf("us-west-2's demo changed (-before +after):\n%s", d)
				}
				return nil
			},
		},
		{
			// The refresh of an unchanged configuration keeps it.
			Config:            emu.ProviderConfig() + domainAt("test", "demo"),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(domainRes, idOf(emu, "demo"))},
		},
		{ResourceName: domainRes, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		{ResourceName: domainRes, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: "demo"},
		{
			ResourceName: domainRes, ImportState: true, ImportStateId: "demo",
			ImportStateVerify: true, ImportStateVerifyIdentifierAttribute: "domain_name", ImportStateVerifyIgnore: []string{"dry_run"},
		},
		{
			Config: emu.ProviderConfig() + domainAt("moved", "demo") + `
moved {
  from = cloud_search_domain_config.test
  to   = cloud_search_domain_config.moved
}
`,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(moved, plancheck.ResourceActionNoop)}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(moved, idOf(emu, "demo"))},
		},
		{
			// Another domain is another object: replaced, with its identity.
			Config:            emu.ProviderConfig() + domainAt("moved", "other"),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(moved, plancheck.ResourceActionDestroyBeforeCreate)}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(moved, idOf(emu, "other"))},
		},
	})
}

// otherAccountProvider is a provider block aimed at emu with the
// credentials of a user of account 999999999999.
func otherAccountProvider(t *testing.T, emu *acctest.Emulator) string {
	t.Helper()
	emu.Credentials().Add(sigv4.Credential{
		AccessKeyID: "AKIDOTHERACCOUNT0002", SecretAccessKey: "other-secret",
		Principal: "arn:cloud:identity::999999999999:user/other-admin", Account: "999999999999",
	})
	return emu.ProviderConfig(emulatortest.Credentials("AKIDOTHERACCOUNT0002", "other-secret"))
}

// TestAccDomainConfigIdentity_mismatch: an identity of another region or
// account is refused with the reason, at import and at refresh.
func TestAccDomainConfigIdentity_mismatch(t *testing.T) {
	emu := newDomainEmulator(t)
	importWith := func(identity string) string {
		return emu.ProviderConfig() + domainAt("test", "demo") + fmt.Sprintf(`
import {
  to       = cloud_search_domain_config.test
  identity = { %s }
}
`, identity)
	}
	identityTest(t, []resource.TestStep{
		{
			Config:      importWith(`domain_name = "demo", region = "us-west-2"`),
			PlanOnly:    true,
			ExpectError: acctest.ErrorRe(`Unable to Import Search Domain Config.*domain "demo" in region us-west-2, but the provider is configured for region us-east-1`),
		},
		{
			Config:      importWith(`domain_name = "demo", account_id = "999999999999"`),
			PlanOnly:    true,
			ExpectError: acctest.ErrorRe(`domain "demo" in account 999999999999, but the provider's credentials belong to account 123456789012`),
		},
		{
			// domain_name alone: the region and the account default to the
			// provider's, and the state records them.
			Config:            importWith(`domain_name = "demo"`),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(domainRes, idOf(emu, "demo"))},
		},
		{
			// The provider now runs in another account: the state's domain
			// is not that account's.
			Config:      otherAccountProvider(t, emu) + domainAt("test", "demo"),
			PlanOnly:    true,
			ExpectError: acctest.ErrorRe(`Unable to Read Search Domain Config.*domain "demo" in account 123456789012, but the provider's credentials belong to account 999999999999`),
		},
		{
			// The documentation's example imports demo again under another name.
			Config: emu.ProviderConfig() + domainAt("example", "demo") + exampleFile(t, "resources/cloud_search_domain_config/import-by-identity.tf"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("cloud_search_domain_config.example", plancheck.ResourceActionNoop),
			}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity("cloud_search_domain_config.example", idOf(emu, "demo"))},
		},
		{
			// The provider now signs for another region: the state's domain
			// is not one it can read, and a domain of the same name there
			// must not be taken for it.
			Config:      emu.ProviderConfig(emulatortest.InRegion("us-west-2")) + domainAt("example", "demo"),
			PlanOnly:    true,
			ExpectError: acctest.ErrorRe(`Unable to Read Search Domain Config.*domain "demo" in region us-east-1, but the provider is configured for region us-west-2`),
		},
	})
}

// TestAccDomainConfigIdentity_stateWithoutIdentity: a state written by
// Terraform 1.11 (no identities) is refreshed by a CLI with identities in
// the same workspace: the refresh records the identity, the plan is
// empty, and nothing fails. With skip_credentials_validation the refresh
// makes no GetCallerIdentity and records the identity without its
// account, which an update then keeps.
func TestAccDomainConfigIdentity_stateWithoutIdentity(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	for name, skip := range map[string]bool{"credentials validated": false, "skip_credentials_validation": true} {
		t.Run(name, func(t *testing.T) {
			emu := newDomainEmulator(t)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			ws := acctest.NewWorkspace(ctx, t)
			ws.CLI = oldCLI(t)
			providerConfig := emu.ProviderConfig()
			wantAccount := emu.Account()
			if skip {
				providerConfig = emu.ProviderConfig(emulatortest.ProviderArguments("  skip_credentials_validation = true\n"))
				wantAccount = ""
			}
			if err := ws.Write(emulatortest.RequiredProvidersBlock + providerConfig + domainAt("test", "demo")); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"init", "-backend=false"}, {"apply", "-auto-approve"}} {
				if _, err := ws.Run(ctx, args...); err != nil {
					t.Fatal(err)
				}
			}
			ws.CLI = os.Getenv("TF_ACC_TERRAFORM_PATH")
			emu.ClearCalls()
			if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
				t.Errorf("the first plan with identities is not empty or failed: %v", err)
			}
			if _, err := ws.Run(ctx, "apply", "-refresh-only", "-auto-approve"); err != nil {
				t.Fatal(err)
			}
			if n := emu.Sent("GetCallerIdentity"); skip && n != 0 {
				t.Errorf("the refreshes made %d GetCallerIdentity calls, want 0", n)
			}
			want := map[string]string{"domain_name": "demo", "region": emu.Region(), "account_id": wantAccount}
			checkIdentity(ctx, t, ws, want)
			if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
				t.Errorf("the plan after the refresh is not empty or failed: %v", err)
			}
			// An update keeps the identity as the refresh recorded it.
			if err := ws.Write(emulatortest.RequiredProvidersBlock + providerConfig + strings.Replace(domainAt("test", "demo"), "= 0", "= 3", 1)); err != nil {
				t.Fatal(err)
			}
			if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
				t.Fatal(err)
			}
			checkIdentity(ctx, t, ws, want)
		})
	}
}

// checkIdentity checks that the workspace's one resource has identity
// want (a null attribute is "").
func checkIdentity(ctx context.Context, t *testing.T, ws *tfrun.Workspace, want map[string]string) {
	t.Helper()
	shown, err := ws.Output(ctx, "show", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address  string             `json:"address"`
					Identity map[string]*string `json:"identity"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(shown, &st); err != nil {
		t.Fatal(err)
	}
	rs := st.Values.RootModule.Resources
	if len(rs) != 1 {
		t.Fatalf("the state has %d resources, want 1", len(rs))
	}
	got := map[string]string{}
	for k, v := range rs[0].Identity {
		if v != nil {
			got[k] = *v
		} else {
			got[k] = ""
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the state's identity (-want +got):\n%s", d)
	}
}

// oldCLI is Terraform 1.11, the minimum supported (no resource identity).
func oldCLI(t *testing.T) string {
	t.Helper()
	const cli = "/usr/local/bin/terraform"
	if _, err := os.Stat(cli); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Terraform 1.11 at %s: %v", cli, err)
		}
		t.Skipf("Terraform 1.11 at %s: %v", cli, err)
	}
	return cli
}

// TestAccDomainConfigIdentity_twoRegions: two providers, of us-east-1 and
// us-west-2, each adopt their own domain demo, record its region, and
// refresh to an empty plan. Each provider configuration is its own
// process, as in real use, so the test runs the built provider (an
// in-process provider serves every alias from one instance).
func TestAccDomainConfigIdentity_twoRegions(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	emu := newDomainEmulator(t)
	addDomains(t, emu, emusearch.EverySectionDomain("demo", "us-west-2", emu.Clock().Now()))
	home, _ := emu.Search.Domain("demo")
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-cloud"), "github.com/cloudlabs/terraform-provider-cloud")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	dir := t.TempDir()
	env, err := tfrun.DevOverrides(dir, "cloudlabs/cloud", bin)
	if err != nil {
		t.Fatal(err)
	}
	ws := &tfrun.Workspace{CLI: os.Getenv("TF_ACC_TERRAFORM_PATH"), Dir: dir, Env: env}
	west := emu.ProviderConfig(emulatortest.InRegion("us-west-2"), emulatortest.ProviderArguments("  alias = \"west\"\n"))
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig() + west + domainAt("test", "demo") + `
resource "cloud_search_domain_config" "west" {
  provider         = cloud.west
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = 5 }
}
`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after adopting both is not empty or failed: %v", err)
	}
	shown, err := ws.Output(ctx, "show", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address  string            `json:"address"`
					Identity map[string]string `json:"identity"`
					Values   struct {
						ClusterConfig struct {
							InstanceCount int `json:"instance_count"`
						} `json:"cluster_config"`
					} `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(shown, &st); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		region string
		count  int
	}{domainRes: {emu.Region(), int(*home.ClusterConfig.InstanceCount)}, "cloud_search_domain_config.west": {"us-west-2", 6}}
	for _, r := range st.Values.RootModule.Resources {
		w := want[r.Address]
		id := map[string]string{"domain_name": "demo", "region": w.region, "account_id": emu.Account()}
		if !cmp.Equal(r.Identity, id) || r.Values.ClusterConfig.InstanceCount != w.count {
			t.Errorf("%s: identity %v and instance_count %d, want %v and %d", r.Address, r.Identity, r.Values.ClusterConfig.InstanceCount, id, w.count)
		}
		delete(want, r.Address)
	}
	if len(want) > 0 {
		t.Errorf("not in state: %v", want)
	}
}
