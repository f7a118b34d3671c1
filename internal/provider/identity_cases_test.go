package provider_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
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
)

// The identity cases that are one type's own, beside the table of
// identity_test.go.

// TestAccIdentity_domainOfAnotherRegion: adopting demo in the provider's
// region neither reads nor changes the domain of the same name in
// us-west-2, whose values differ.
func TestAccIdentity_domainOfAnotherRegion(t *testing.T) {
	emu := domainEmulator(t)
	if err := emu.Search.AddDomain(emusearch.EverySectionDomain("demo", "us-west-2", emu.Clock().Now())); err != nil {
		t.Fatal(err)
	}
	west, _ := emu.Search.DomainIn("us-west-2", "demo")
	home, _ := emu.Search.Domain("demo")
	addr := "cloud_search_domain_config.test"
	identityCase(t, emu, []resource.TestStep{{
		Config: emu.ProviderConfig() + domainBlock("test", "demo"),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectIdentity(addr, identityTypeOf("cloud_search_domain_config").want(emu, knownvalue.StringExact(emu.Account()))),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("cluster_config").AtMapKey("instance_count"), knownvalue.Int64Exact(*home.ClusterConfig.InstanceCount)),
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
	}})
}

// TestAccIdentity_domainExample: the documentation's example imports demo
// by its whole identity: a pure import.
func TestAccIdentity_domainExample(t *testing.T) {
	emu := domainEmulator(t)
	example, err := os.ReadFile("../../examples/resources/cloud_search_domain_config/import-by-identity.tf")
	if err != nil {
		t.Fatal(err)
	}
	addr := "cloud_search_domain_config.example"
	identityCase(t, emu, []resource.TestStep{{
		Config: emu.ProviderConfig() + domainBlock("example", "demo") + string(example),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
		}},
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(addr, identityTypeOf("cloud_search_domain_config").want(emu, knownvalue.StringExact(emu.Account())))},
	}})
}

// TestAccIdentity_accountChangedWithoutRefresh: an apply or a destroy
// without refresh, by a provider that now runs in another account, stops
// in Update and Delete before any call: Update would set the status of a
// key of that account, Delete would delete objects of the same names
// there.
func TestAccIdentity_accountChangedWithoutRefresh(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	emu := acctest.NewEmulator(t)
	otherProvider := otherAccountProvider(t, emu)
	resources := keyWith("", "credential_age_days = 30")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewWorkspace(ctx, t)
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig() + resources); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-backend=false"}, {"apply", "-auto-approve"}} {
		if _, err := ws.Run(ctx, args...); err != nil {
			t.Fatal(err)
		}
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
		t.Errorf("users %v, want idkey still there", got)
	}
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig() + resources); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "destroy", "-auto-approve"); err != nil {
		t.Fatal(err)
	}
}

// TestAccIdentity_domainTwoRegions: two providers, of us-east-1 and
// us-west-2, each adopt their own domain demo, record its region, and
// refresh to an empty plan. Each provider configuration is its own
// process, as in real use, so the test runs the built provider (an
// in-process provider serves every alias from one instance).
func TestAccIdentity_domainTwoRegions(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	emu := domainEmulator(t)
	if err := emu.Search.AddDomain(emusearch.EverySectionDomain("demo", "us-west-2", emu.Clock().Now())); err != nil {
		t.Fatal(err)
	}
	home, _ := emu.Search.Domain("demo")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewBuiltWorkspace(t)
	west := emu.ProviderConfig(emulatortest.InRegion("us-west-2"), emulatortest.ProviderArguments("  alias = \"west\"\n"))
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig() + west + domainBlock("test", "demo") + `
resource "cloud_search_domain_config" "west" {
  provider         = cloud.west
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = 5 }
}
`); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after adopting both is not empty or failed: %v", err)
	}
	want := map[string]struct {
		region string
		count  int
	}{"cloud_search_domain_config.test": {emu.Region(), int(*home.ClusterConfig.InstanceCount)}, "cloud_search_domain_config.west": {"us-west-2", 6}}
	for _, r := range shownResources(ctx, t, ws) {
		w := want[r.Address]
		id := map[string]string{"domain_name": "demo", "region": w.region, "account_id": emu.Account()}
		if !cmp.Equal(r.identity(), id) || r.Values.ClusterConfig.InstanceCount != w.count {
			t.Errorf("%s: identity %v and instance_count %d, want %v and %d", r.Address, r.identity(), r.Values.ClusterConfig.InstanceCount, id, w.count)
		}
		delete(want, r.Address)
	}
	if len(want) > 0 {
		t.Errorf("not in state: %v", want)
	}
}
