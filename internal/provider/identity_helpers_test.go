package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// The identity tests' helpers (identity_test.go, identity_cases_test.go).

const limitedAccessPolicy = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"

// keyWith is a user with the limited-access policy and one key; extra
// goes into the key's block.
func keyWith(providerConfig, extra string) string {
	return providerConfig + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = "idkey"
}

resource "cloud_identity_user_policy_attachment" "test" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}

resource "cloud_identity_service_specific_credential" "test" {
  user_name = cloud_identity_user.test.user_name
  %s
}
`, limitedAccessPolicy, extra)
}

// domainBlock is a cloud_search_domain_config block named name for domain.
func domainBlock(name, domain string) string {
	return fmt.Sprintf(`
resource "cloud_search_domain_config" %q {
  domain_name      = %q
  snapshot_options = { automated_snapshot_start_hour = 0 }
}
`, name, domain)
}

// newEmulator is the emulator of the identity service's types.
func newEmulator(t *testing.T) *acctest.Emulator { return acctest.NewEmulator(t) }

// domainEmulator is an emulator whose search service runs at test pace.
func domainEmulator(t *testing.T) *acctest.Emulator {
	t.Helper()
	emu := acctest.NewEmulator(t)
	// spare is the domain a replacement moves to.
	if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "spare"}); err != nil {
		t.Fatal(err)
	}
	if err := emu.Search.SetPace(emusearch.Pace{DryRun: 300 * time.Millisecond, BlueGreenStage: 400 * time.Millisecond, Dynamic: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	return emu
}

// noServiceCalls fails t if emu answered a call other than the token
// service's since the calls were last cleared: what happened (what) had
// to stop before asking the services.
func noServiceCalls(t *testing.T, emu *acctest.Emulator, what string) {
	t.Helper()
	for _, c := range emu.Calls() {
		if c.Service != "sts" {
			t.Errorf("%s called %s %s", what, c.Service, c.Operation)
		}
	}
}

// otherAccountKey signs for account 999999999999 (otherAccountProvider).
const otherAccountKey = "AKIDOTHERACCOUNT0001"

// otherAccountProvider gives emu credentials of a second account,
// 999999999999, allowed everything, and returns a provider block that
// uses them. The emulator keeps one set of objects for every account.
func otherAccountProvider(t *testing.T, emu *acctest.Emulator) string {
	t.Helper()
	other := "arn:cloud:identity::999999999999:user/other-admin"
	emu.Credentials().Add(sigv4.Credential{AccessKeyID: otherAccountKey, SecretAccessKey: "other-secret", Principal: other, Account: "999999999999"})
	if _, err := emu.Identity.AttachPrincipalPolicy(other, "all", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	return emu.ProviderConfig(emulatortest.Credentials(otherAccountKey, "other-secret"))
}

// checkNoOtherAccountCalls fails t if the other account's credentials
// called a service (the token service, for the account, is expected).
func checkNoOtherAccountCalls(t *testing.T, emu *acctest.Emulator) {
	t.Helper()
	for _, c := range emu.Calls() {
		if c.AccessKeyID == otherAccountKey && c.Service != "sts" {
			t.Errorf("the other account's credentials called %s %s: the account check must come before any call", c.Service, c.Operation)
		}
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

// shownResource is a resource as `terraform show -json` shows it: its
// address, its identity (nil for a null attribute) and the values a test
// reads.
type shownResource struct {
	Address  string             `json:"address"`
	Identity map[string]*string `json:"identity"`
	Values   struct {
		ClusterConfig struct {
			InstanceCount int `json:"instance_count"`
		} `json:"cluster_config"`
	} `json:"values"`
}

// identity is r's identity with a null attribute as "".
func (r shownResource) identity() map[string]string {
	got := map[string]string{}
	for k, v := range r.Identity {
		got[k] = ""
		if v != nil {
			got[k] = *v
		}
	}
	return got
}

// shownResources are the resources of the root module of ws's state.
func shownResources(ctx context.Context, t *testing.T, ws *tfrun.Workspace) []shownResource {
	t.Helper()
	shown, err := ws.Output(ctx, "show", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []shownResource `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(shown, &st); err != nil {
		t.Fatal(err)
	}
	return st.Values.RootModule.Resources
}

// checkIdentity checks the identity of the workspace's resource addr
// (a null attribute is ""): none when want is nil, else want(identity)
// (given what the state holds, for values the test cannot know). It
// returns the identity.
func checkIdentity(ctx context.Context, t *testing.T, ws *tfrun.Workspace, addr string, want func(got map[string]string) map[string]string) map[string]string {
	t.Helper()
	for _, r := range shownResources(ctx, t, ws) {
		if r.Address != addr {
			continue
		}
		got := r.identity()
		switch {
		case want == nil && r.Identity != nil:
			t.Errorf("%s has identity %v before any CLI with identities ran", addr, got)
		case want != nil:
			if d := cmp.Diff(want(got), got); d != "" {
				t.Errorf("the identity of %s (-want +got):\n%s", addr, d)
			}
		}
		return got
	}
	t.Fatalf("%s is not in state", addr)
	return nil
}
