package guidetest_test

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

const (
	guide = "adopting-existing"
	// keyIDPlaceholder is the key id the guide's examples show.
	keyIDPlaceholder = "ACCAEXAMPLE234567ABCDE"
	modelsPolicy     = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
)

// existing is what a team made by hand before adopting it: users under
// /apps/ and one elsewhere, their attachments and keys, and a domain
// beside the emulator's demo domain.
type existing struct {
	aliceKeyID string
	keyValues  []string
}

func seed(t *testing.T, emu *acctest.Emulator) existing {
	t.Helper()
	c, err := identityclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var e existing
	for _, u := range []struct{ name, path, policy string }{
		{"alice", "/apps/", modelsPolicy},
		{"bob", "/apps/", ""},
		{"carol", "/ops/", modelsPolicy},
	} {
		if _, err := c.CreateUser(ctx, identityclient.CreateUserInput{UserName: u.name, Path: u.path}); err != nil {
			t.Fatal(err)
		}
		if u.policy != "" {
			if err := c.AttachUserPolicy(ctx, u.name, u.policy); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, k := range []struct {
		user string
		days int
	}{{"alice", 90}, {"bob", 30}} {
		cred, err := c.CreateServiceSpecificCredential(ctx, identityclient.CreateServiceSpecificCredentialInput{UserName: k.user, ServiceName: "models.cloud.example", CredentialAgeDays: k.days})
		if err != nil {
			t.Fatal(err)
		}
		if k.user == "alice" {
			e.aliceKeyID = cred.ServiceSpecificCredentialID
		}
		e.keyValues = append(e.keyValues, cred.ServiceAPIKeyValue)
	}
	if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "orders"}); err != nil {
		t.Fatal(err)
	}
	// Made in the console before the adoption: a key older than a minute
	// imports with no update (a younger one plans its held mark).
	emu.Clock().Advance(2 * time.Minute)
	return e
}

// The guide's query finds what exists; the generated configuration plans as
// imports that change nothing, holds no key value, and applies.
func TestAccGuideAdopting_query(t *testing.T) {
	precheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
	t.Parallel()
	emu := acctest.NewEmulator(t)
	e := seed(t, emu)
	files := guideFiles(t, guide)

	w := newWorkspace(t, emu)
	w.write("adopt.tfquery.hcl", files["adopt.tfquery.hcl"])
	listed := w.run("query", "-no-color")
	for _, name := range []string{"alice", "bob", "orders", "demo"} {
		if !strings.Contains(listed, name) {
			t.Errorf("terraform query does not list %s:\n%s", name, listed)
		}
	}
	w.run("query", "-no-color", "-generate-config-out=generated.tf")
	generated := w.read("generated.tf")
	for _, v := range e.keyValues {
		if strings.Contains(listed, v) || strings.Contains(generated, v) {
			t.Fatal("a key value is in the query output or the generated configuration")
		}
	}

	emu.ClearCalls()
	plan, _ := w.plan()
	expectImports(t, plan, generated, map[string]int{
		"cloud_identity_user":                        2, // alice and bob
		"cloud_identity_user_policy_attachment":      2, // alice's and carol's
		"cloud_identity_service_specific_credential": 2,
		"cloud_search_domain_config":                 2, // demo and orders
	})
	emu.ExpectCalls(t, "UpdateDomainConfig", 0, "the plan of the generated configuration, dry runs included")
	w.run("apply", "-no-color", "tfplan")
	expectNoChange(t, w)
}

// The guide's identity imports, with its resource blocks, import and change
// nothing.
func TestAccGuideAdopting_importByIdentity(t *testing.T) {
	precheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureIdentity)
	t.Parallel()
	emu := acctest.NewEmulator(t)
	e := seed(t, emu)
	files := guideFiles(t, guide)

	w := newWorkspace(t, emu)
	w.write("resources.tf", files["resources.tf"])
	w.write("imports.tf", strings.ReplaceAll(files["imports.tf"], keyIDPlaceholder, e.aliceKeyID))
	plan, _ := w.plan()
	expectImports(t, plan, "", guideResources)
	w.run("apply", "-no-color", "tfplan")
	expectNoChange(t, w)
}

// The guide's string-id imports work on every CLI; then its answer to what
// cannot be read back: the key is reset in place and gets a value, the
// domain gets a new master user password, write-only.
func TestAccGuideAdopting_importByIDThenSecrets(t *testing.T) {
	precheck(t)
	t.Parallel()
	emu := acctest.NewEmulator(t)
	e := seed(t, emu)
	files := guideFiles(t, guide)

	w := newWorkspace(t, emu)
	w.write("resources.tf", files["resources.tf"])
	w.write("imports.tf", strings.ReplaceAll(files["imports-by-id.tf"], keyIDPlaceholder, e.aliceKeyID))
	plan, _ := w.plan()
	expectImports(t, plan, "", guideResources)
	w.run("apply", "-no-color", "tfplan")
	expectNoChange(t, w)
	keyAddr := "cloud_identity_service_specific_credential.alice_models"
	if v := stateValue(t, w, keyAddr, "service_api_key_value"); v != nil {
		t.Fatalf("after import %s.service_api_key_value = %v, want null: the service never returns it", keyAddr, v)
	}

	// What cannot be read back.
	w.write("resources.tf", replaceResources(t, files["resources.tf"], files["secrets.tf"]))
	const password = "Adopted-Passw0rd!"
	pwEnv := "TF_VAR_orders_master_password=" + password
	plan, out := w.plan(pwEnv)
	actions := map[string]tfjson.Actions{}
	for _, rc := range plan.ResourceChanges {
		if !rc.Change.Actions.NoOp() {
			actions[rc.Address] = rc.Change.Actions
		}
	}
	want := map[string]tfjson.Actions{
		keyAddr:                             {tfjson.ActionUpdate},
		"cloud_search_domain_config.orders": {tfjson.ActionUpdate},
	}
	if !maps.EqualFunc(actions, want, slices.Equal) {
		t.Fatalf("the plan of secrets.tf: %v, want the key and the domain updated in place", actions)
	}
	if got := plannedDeployment(plan, "cloud_search_domain_config.orders"); got != "dynamic" {
		t.Errorf("the new master user password is deployed %q, want dynamic (as the guide says)", got)
	}
	if strings.Contains(out, password) || strings.Contains(w.read("tfplan"), password) {
		t.Fatal("the master user password is in the plan")
	}
	w.runEnv([]string{pwEnv}, "apply", "-no-color", "tfplan")

	v, _ := stateValue(t, w, keyAddr, "service_api_key_value").(string)
	if v == "" || slices.Contains(e.keyValues, v) {
		t.Fatalf("after the reset %s.service_api_key_value is %q, want a new value", keyAddr, v)
	}
	if !emu.Search.MasterUserPasswordIs("orders", password) {
		t.Fatal("the domain did not receive the write-only master user password")
	}
	if strings.Contains(w.read("terraform.tfstate"), password) {
		t.Fatal("the master user password is in the state")
	}
	_, out = w.plan(pwEnv)
	if !strings.Contains(out, "No changes.") {
		t.Fatalf("a plan after the reset and the new password is not empty:\n%s", out)
	}
}

// The guide's blocks are as terraform fmt writes them.
func TestAccGuideAdopting_formatted(t *testing.T) {
	precheck(t)
	t.Parallel()
	dir := t.TempDir()
	for name, content := range guideFiles(t, guide) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.CommandContext(t.Context(), os.Getenv("TF_ACC_TERRAFORM_PATH"), "fmt", "-check", "-diff", "-no-color", dir) //nolint:gosec // G204: the CLI the test runner chose
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform fmt -check of the guide's blocks: %v\n%s", err, out)
	}
}

// guideResources are the resource types of the guide's resources.tf, one
// of each.
var guideResources = map[string]int{
	"cloud_identity_user":                        1,
	"cloud_identity_user_policy_attachment":      1,
	"cloud_identity_service_specific_credential": 1,
	"cloud_search_domain_config":                 1,
}

func precheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the guide's tests drive the Terraform CLI")
	}
	acctest.PreCheck(t)
}

// expectImports fails t unless plan imports exactly want (a count by
// resource type) and changes nothing.
func expectImports(t *testing.T, plan *tfjson.Plan, generated string, want map[string]int) {
	t.Helper()
	got := map[string]int{}
	for _, rc := range plan.ResourceChanges {
		got[rc.Type]++
		if rc.Change.Importing == nil || !rc.Change.Actions.NoOp() {
			t.Errorf("%s: actions %v, importing %v; want an import that changes nothing", rc.Address, rc.Change.Actions, rc.Change.Importing)
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("the plan imports %v, want %v", got, want)
	}
	if t.Failed() && generated != "" {
		t.Logf("generated configuration:\n%s", generated)
	}
}

func expectNoChange(t *testing.T, w *workspace) {
	t.Helper()
	if _, out := w.plan(); !strings.Contains(out, "No changes.") {
		t.Fatalf("a plan after the import is not empty:\n%s", out)
	}
}

// plannedDeployment is the deployment type of the dry run planned for a
// domain.
func plannedDeployment(plan *tfjson.Plan, addr string) string {
	for _, rc := range plan.ResourceChanges {
		if rc.Address == addr {
			after, _ := rc.Change.After.(map[string]any)
			dryRun, _ := after["dry_run"].(map[string]any)
			s, _ := dryRun["deployment_type"].(string)
			return s
		}
	}
	return ""
}

// stateValue is an attribute of a resource in the state.
func stateValue(t *testing.T, w *workspace, addr, attr string) any {
	t.Helper()
	var s tfjson.State
	if err := s.UnmarshalJSON([]byte(w.run("show", "-json"))); err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == addr {
			return r.AttributeValues[attr]
		}
	}
	t.Fatalf("%s is not in the state", addr)
	return nil
}
