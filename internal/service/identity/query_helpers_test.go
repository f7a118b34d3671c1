package identity_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// identityClient is an API client of emu's identity service, to set up
// what exists before Terraform looks, as a console user would.
func identityClient(t *testing.T, emu *acctest.Emulator) *identityclient.Client {
	t.Helper()
	c, err := identityclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeActions are the identity service's actions that change anything.
var writeActions = map[string]bool{
	"CreateUser": true, "DeleteUser": true, "TagUser": true, "UntagUser": true,
	"AttachUserPolicy": true, "DetachUserPolicy": true,
	"CreateServiceSpecificCredential": true, "UpdateServiceSpecificCredential": true,
	"ResetServiceSpecificCredential": true, "DeleteServiceSpecificCredential": true,
}

// adoption is a working directory where terraform query generated the
// configuration of what exists, and a plan of it was made.
type adoption struct {
	generated string       // the generated configuration
	plan      *tfjson.Plan // the plan of the generated configuration
	// queryWrites and planWrites are the write actions the emulator saw
	// during the query and during the plan.
	queryWrites, planWrites []string
}

// writesIn are the write actions among calls.
func writesIn(calls []emulator.Call) []string {
	var w []string
	for _, c := range calls {
		if writeActions[c.Operation] {
			w = append(w, c.Operation)
		}
	}
	return w
}

// cliWorkspace is an initialised working directory where the real CLI
// (TF_ACC_TERRAFORM_PATH) runs with the provider served in this process:
// main.tf is emulatortest.RequiredProvidersBlock and main, beside files (by
// name).
func cliWorkspace(t *testing.T, main string, files map[string]string) (context.Context, *tfrun.Workspace) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	ws := acctest.NewWorkspace(ctx, t)
	if err := ws.Write(emulatortest.RequiredProvidersBlock + main); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(ws.Dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ws.Run(ctx, "init", "-backend=false"); err != nil {
		t.Fatal(err)
	}
	return ctx, ws
}

// queryWorkspace is a cliWorkspace where `terraform query` runs on the
// list blocks of query (a .tfquery.hcl without provider block), with the
// provider configured for emu.
func queryWorkspace(t *testing.T, emu *acctest.Emulator, query string) (context.Context, *tfrun.Workspace) {
	t.Helper()
	return cliWorkspace(t, emu.ProviderConfig(), map[string]string{"adopt.tfquery.hcl": query})
}

// oneListingAtATime is a provider block for emu whose list resources make
// one call at a time, so that a test counts exactly the calls a limit
// leaves out (side by side, up to list_concurrency-1 more are made).
func oneListingAtATime(emu *acctest.Emulator) string {
	return emu.ProviderConfig(emulatortest.ProviderArguments("  list_concurrency = 1\n"))
}

// queryAndPlan runs `terraform query -generate-config-out` on the list
// blocks of query, then `terraform plan` of the generated configuration,
// as a user adopting what exists would.
func queryAndPlan(t *testing.T, emu *acctest.Emulator, query string) adoption {
	t.Helper()
	ctx, ws := queryWorkspace(t, emu, query)
	emu.ClearCalls()
	if _, err := ws.Run(ctx, "query", "-generate-config-out=generated.tf"); err != nil {
		t.Fatal(err)
	}
	gen, err := os.ReadFile(filepath.Join(ws.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	a := adoption{generated: string(gen), queryWrites: writesIn(emu.Calls())}
	emu.ClearCalls()
	if _, err := ws.Run(ctx, "plan", "-out=adopt.tfplan"); err != nil {
		t.Fatalf("%v\n\ngenerated configuration:\n%s", err, gen)
	}
	a.planWrites = writesIn(emu.Calls())
	out, err := ws.Output(ctx, "show", "-json", "adopt.tfplan")
	if err != nil {
		t.Fatal(err)
	}
	a.plan = new(tfjson.Plan)
	if err := json.Unmarshal(out, a.plan); err != nil {
		t.Fatal(err)
	}
	return a
}

// checkPureImport fails t unless the plan imports exactly want resources
// (addresses of type typ) and changes nothing, and the generated
// configuration holds none of secrets, and the query wrote nothing.
func (a adoption) checkPureImport(t *testing.T, typ string, want int, secrets ...string) {
	t.Helper()
	if len(a.queryWrites) > 0 {
		t.Errorf("terraform query wrote: %v", a.queryWrites)
	}
	n := 0
	for _, rc := range a.plan.ResourceChanges {
		if rc.Type != typ {
			t.Errorf("%s planned, want only %s", rc.Address, typ)
			continue
		}
		n++
		if rc.Change.Importing == nil || !rc.Change.Actions.NoOp() {
			t.Errorf("%s: actions %v, importing %v; want a no-op import\n\ngenerated configuration:\n%s", rc.Address, rc.Change.Actions, rc.Change.Importing, a.generated)
		}
	}
	if n != want {
		t.Errorf("%d imports planned, want %d\n\ngenerated configuration:\n%s", n, want, a.generated)
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(a.generated, s) {
			t.Errorf("the generated configuration holds a secret")
		}
	}
}

// queryTest runs a step that configures nothing, then query steps, on a
// CLI with terraform query (Terraform 1.14+); it skips, with the reason,
// on one without (tests that set up much call skipUnlessQuery first).
func queryTest(t *testing.T, emu *acctest.Emulator, steps ...resource.TestStep) {
	t.Helper()
	queryTestWith(t, emu.ProviderConfig(), steps...)
}

// queryTestWith is queryTest with the provider block providerConfig.
func queryTestWith(t *testing.T, providerConfig string, steps ...resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
		},
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    append([]resource.TestStep{{Config: providerConfig}}, steps...),
	})
}

// skipUnlessQuery skips a test that runs terraform query itself.
func skipUnlessQuery(t *testing.T) {
	t.Helper()
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
}
