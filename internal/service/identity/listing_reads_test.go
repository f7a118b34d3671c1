package identity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// keyEstate is users made outside Terraform with two keys each, as a team
// adopting its estate has them, and the configuration that imports the
// keys.
type keyEstate struct {
	users []string
	// keys are each user's two key ids.
	keys   map[string][2]string
	config string
}

// estateKeyAddr is the address of user's key i (0 or 1) in the estate's
// configuration.
func estateKeyAddr(user string, i int) string {
	return fmt.Sprintf("cloud_identity_service_specific_credential.%s_%d", user, i)
}

// newKeyEstate makes n users with two keys each, old enough (two minutes
// by the emulator's clock) that their import needs no mark.
func newKeyEstate(t *testing.T, emu *acctest.Emulator, n int) keyEstate {
	t.Helper()
	idc := identityClient(t, emu)
	e := keyEstate{keys: map[string][2]string{}, config: emu.ProviderConfig()}
	for u := range n {
		user := fmt.Sprintf("estate-%d", u)
		if _, err := idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: user}); err != nil {
			t.Fatal(err)
		}
		var ids [2]string
		for i := range ids {
			id, _, err := emu.Identity.CreateCredentialBehindTheBack(user, "models.cloud.example", 30, emu.Region())
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = id
			e.config += fmt.Sprintf(`
import {
  to = %[1]s
  id = "%[2]s/%[3]s"
}

resource "cloud_identity_service_specific_credential" "%[2]s_%[4]d" {
  user_name           = %[2]q
  credential_age_days = 30
}
`, estateKeyAddr(user, i), user, id, i)
		}
		e.users = append(e.users, user)
		e.keys[user] = ids
	}
	emu.Clock().Advance(2 * time.Minute)
	return e
}

// planChanges runs terraform plan and returns each planned resource's
// actions, as "create", "update", "no-op" (joined by "," when several),
// with "import" ahead for an import.
func planChanges(ctx context.Context, t *testing.T, ws *tfrun.Workspace, planFile string) map[string]string {
	t.Helper()
	if _, out, err := ws.RunOutput(ctx, "plan", "-out="+planFile); err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, out)
	}
	out, err := ws.Output(ctx, "show", "-json", planFile)
	if err != nil {
		t.Fatal(err)
	}
	var plan tfjson.Plan
	if err := json.Unmarshal(out, &plan); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, rc := range plan.ResourceChanges {
		var actions []string
		for _, a := range rc.Change.Actions {
			actions = append(actions, string(a))
		}
		if rc.Change.Importing != nil {
			actions = slices.Insert(actions, 0, "import")
		}
		got[rc.Address] = strings.Join(actions, ",")
	}
	return got
}

// expectChanges fails t unless got plans want for the addresses want
// names and no-op for every other.
func expectChanges(t *testing.T, step string, got, want map[string]string) {
	t.Helper()
	for addr, actions := range got {
		w, ok := want[addr]
		if !ok {
			w = "no-op"
		}
		if actions != w {
			t.Errorf("%s: %s planned %s, want %s", step, addr, actions, w)
		}
	}
	for addr := range want {
		if _, ok := got[addr]; !ok {
			t.Errorf("%s: %s not in the plan", step, addr)
		}
	}
}

// A refresh and an import read each user's key listing and tags once per
// Terraform command, however many of the user's keys they read: the plan
// of an import and the plan after it. Each command reads afresh, so a
// colleague's change between two commands shows in the next plan.
func TestAccServiceSpecificCredential_oneListingPerUser(t *testing.T) {
	const n = 4
	emu := acctest.NewEmulator(t)
	estate := newKeyEstate(t, emu, n)
	ctx, ws := cliWorkspace(t, estate.config, nil)

	emu.ClearCalls()
	imports := map[string]string{}
	for _, user := range estate.users {
		imports[estateKeyAddr(user, 0)], imports[estateKeyAddr(user, 1)] = "import,no-op", "import,no-op"
	}
	expectChanges(t, "the plan of the import", planChanges(ctx, t, ws, "import.tfplan"), imports)
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", n, "the plan of the import of two keys per user")
	emu.ExpectCalls(t, "ListUserTags", n, "the plan of the import of two keys per user")
	if w := writesIn(emu.Calls()); len(w) > 0 {
		t.Errorf("the plan of the import wrote: %v", w)
	}
	if _, out, err := ws.RunOutput(ctx, "apply", "import.tfplan"); err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out)
	}

	emu.ClearCalls()
	expectChanges(t, "the plan after the import", planChanges(ctx, t, ws, "steady.tfplan"), nil)
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", n, "the plan after the import, two keys per user")
	emu.ExpectCalls(t, "ListUserTags", 0, "the plan after the import: the keys are held")

	// A colleague deactivates one key and deletes another between two
	// commands.
	deactivated, deleted := estate.users[0], estate.users[1]
	if err := identityClient(t, emu).UpdateServiceSpecificCredential(ctx, deactivated, estate.keys[deactivated][0], identityclient.StatusInactive); err != nil {
		t.Fatal(err)
	}
	if !emu.Identity.DeleteCredentialBehindTheBack(deleted, estate.keys[deleted][1]) {
		t.Fatalf("key %s of %s not deleted", estate.keys[deleted][1], deleted)
	}
	emu.ClearCalls()
	expectChanges(t, "the plan after a colleague's changes", planChanges(ctx, t, ws, "changed.tfplan"), map[string]string{
		estateKeyAddr(deactivated, 0): "update",
		estateKeyAddr(deleted, 1):     "create",
	})
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", n, "the plan after a colleague's changes, two keys per user")
}

// checkKeysAsService is a Check: the keys in state are the user's keys on
// the service, one for one, each with the service's status, and each
// value in state is the key's live value.
func checkKeysAsService(emu *acctest.Emulator, user string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var inState []string
		for addr, rs := range s.RootModule().Resources {
			if rs.Type != "cloud_identity_service_specific_credential" {
				continue
			}
			a := rs.Primary.Attributes
			id := a["service_specific_credential_id"]
			inState = append(inState, id)
			info, ok := emu.Identity.LookupServiceAPIKey(a["service_api_key_value"])
			if !ok || info.CredentialID != id {
				return fmt.Errorf("%s: the value in state is not key %s's live value", addr, id)
			}
			if info.Status != a["status"] {
				return fmt.Errorf("%s: status %s in state, %s on the service", addr, a["status"], info.Status)
			}
		}
		onService := emu.Identity.CredentialIDs(user)
		slices.Sort(inState)
		slices.Sort(onService)
		if !slices.Equal(inState, onService) {
			return fmt.Errorf("keys %v in state, %v on the service", inState, onService)
		}
		return nil
	}
}

// An apply that resets, deactivates, deletes and creates keys of one user
// leaves the state as the service has them, and the plan after it (the
// harness's, which must be empty) reads each key afresh.
func TestAccServiceSpecificCredential_keysWrittenThenRead(t *testing.T) {
	emu := acctest.NewEmulator(t)
	keys := func(blocks ...string) string {
		cfg := userConfig(emu, "wyn", "")
		for _, b := range blocks {
			cfg += b
		}
		return cfg
	}
	key := func(name, extra string) string {
		return fmt.Sprintf(`
resource "cloud_identity_service_specific_credential" %q {
  user_name           = cloud_identity_user.test.user_name
  credential_age_days = 30
  %s
}
`, name, extra)
	}
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config: keys(key("a", `reset_triggers = { v = "1" }`), key("b", "")),
			Check:  checkKeysAsService(emu, "wyn"),
		},
		{
			Config: keys(key("a", `reset_triggers = { v = "2" }`), key("b", `status = "Inactive"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("cloud_identity_service_specific_credential.a", plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("cloud_identity_service_specific_credential.b", plancheck.ResourceActionUpdate),
			}},
			Check: checkKeysAsService(emu, "wyn"),
		},
		{
			Config: keys(key("a", `reset_triggers = { v = "2" }`), key("c", `status = "Inactive"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("cloud_identity_service_specific_credential.b", plancheck.ResourceActionDestroy),
				plancheck.ExpectResourceAction("cloud_identity_service_specific_credential.c", plancheck.ResourceActionCreate),
			}},
			Check: checkKeysAsService(emu, "wyn"),
		},
	})
}
