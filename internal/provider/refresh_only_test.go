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

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestAccRefreshOnlyNothingChanged is drift detection as teams schedule
// it: with nothing changed since the apply, a refresh rewrites no
// attribute and no private data of any resource, and
// terraform plan -refresh-only -detailed-exitcode exits 0 ("no changes")
// for every resource type, on whichever CLI the suite runs
// (TF_ACC_TERRAFORM_PATH: Terraform 1.11.4, 1.16.4 and OpenTofu in make
// test). Terraform 1.16 counts a changed private state as a change (exit
// 2) even where it prints "No changes"; older CLIs do not, so only a
// rewrite of an attribute shows on them.
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
	stateFile := filepath.Join(ws.Dir, "terraform.tfstate")
	applied := resourcesOf(t, stateFile)

	// Twice: the first refresh after an apply, then one after a refresh.
	for i := range 2 {
		_, out, err := ws.RunOutput(ctx, "plan", "-refresh-only", "-detailed-exitcode")
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit) && exit.ExitCode() == 2:
			t.Errorf("plan -refresh-only -detailed-exitcode %d exited 2 (changes present) with nothing changed:\n%s", i+1, out)
		case err != nil:
			t.Fatal(err)
		}
		if _, err := ws.Run(ctx, "apply", "-refresh-only", "-auto-approve"); err != nil {
			t.Fatal(err)
		}
		if got := resourcesOf(t, stateFile); !bytes.Equal(got, applied) {
			t.Errorf("apply -refresh-only %d rewrote the resources' state with nothing changed:\nbefore: %s\nafter:  %s", i+1, applied, got)
		}
	}
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
