package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/go-version"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestAccRefreshOnlyNothingChanged is drift detection as teams schedule
// it: with nothing changed since the apply, a refresh rewrites no
// attribute and no private data of any resource (the state's resources are
// the same bytes after apply -refresh-only), and
// terraform plan -refresh-only -detailed-exitcode exits 0 ("no changes")
// for every resource type, on whichever CLI the suite runs
// (TF_ACC_TERRAFORM_PATH: Terraform 1.11.4, 1.16.4 and OpenTofu in make
// test).
//
// Terraform before 1.16 exits 2 there for its own reason, with "No
// changes" printed, for every resource with a sensitive attribute (the
// key's value, the domain's write-only password): it tells a refresh-only
// plan applyable by comparing each resource's state before and after the
// refresh whole, in-memory fields the state file never holds included, and
// a sensitive attribute's marks are held differently once read back
// (hashicorp/terraform#36403; 1.16.4 compares what the state file holds).
// On those CLIs the test checks the exit code of the resources without
// one, and, for all four, that the state is not rewritten.
func TestAccRefreshOnlyNothingChanged(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	t.Parallel()
	emu := acctest.NewEmulator(t)
	if err := emu.Search.SetPace(emusearch.Pace{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewWorkspace(ctx, t)
	config := emu.ProviderConfig(emulatortest.RequiredProviders()) + `
resource "cloud_identity_user" "u" {
  user_name = "refresh-user"
}

resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = cloud_identity_user.u.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name    = cloud_identity_user.u.user_name
  service_name = "models.cloud.example"

  credential_age_days = 30
}

resource "cloud_search_domain_config" "d" {
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = 3 }
}
`
	if err := ws.Write(config); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-backend=false"}, {"apply", "-auto-approve"}} {
		if _, err := ws.Run(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	detect := []string{"plan", "-refresh-only", "-detailed-exitcode"}
	if wholeStateCompared(t) {
		detect = append(detect, "-target=cloud_identity_user.u", "-target=cloud_identity_user_policy_attachment.a")
	}
	stateFile := filepath.Join(ws.Dir, "terraform.tfstate")
	applied := resourcesOf(t, stateFile)

	// Twice: the first refresh after an apply, then one after a refresh.
	for i := range 2 {
		_, out, err := ws.RunOutput(ctx, detect...)
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit) && exit.ExitCode() == 2:
			t.Errorf("%v (%d) exited 2 (changes present) with nothing changed:\n%s", detect, i+1, out)
		case err != nil:
			t.Fatal(err)
		}
		if _, err := ws.Run(ctx, "apply", "-refresh-only", "-auto-approve"); err != nil {
			t.Fatal(err)
		}
		if got := resourcesOf(t, stateFile); !bytes.Equal(got, applied) {
			t.Errorf("apply -refresh-only (%d) rewrote the resources' state with nothing changed:\nbefore: %s\nafter:  %s", i+1, applied, got)
		}
	}
}

// wholeStateCompared reports whether the CLI under test is a Terraform
// before 1.16, which counts a resource with a sensitive attribute as
// changed by every refresh (TestAccRefreshOnlyNothingChanged).
func wholeStateCompared(t *testing.T) bool {
	t.Helper()
	openTofu, v, err := acctest.CLIVersion(os.Getenv("TF_ACC_TERRAFORM_PATH"))
	if err != nil {
		t.Fatal(err)
	}
	return !openTofu && v.LessThan(version.Must(version.NewVersion("1.16.0")))
}

// resourcesOf is the resources of the state file at path (attributes and
// private data), as JSON.
func resourcesOf(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st.Resources
}
