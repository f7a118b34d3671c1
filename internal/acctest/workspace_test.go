package acctest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBinaryWorkspaceEnv runs `env` as a provider binary's workspace runs
// the CLI, with a developer's settings in this process's environment:
// none of the provider's variables, nor Terraform's that choose the
// provider or change a command, nor the developer's HOME reach it; the
// test's input variables and the workspace's CLI configuration do, those
// the test sets after making the workspace too (read at each command).
func TestBinaryWorkspaceEnv(t *testing.T) {
	envPath, err := exec.LookPath("env")
	if err != nil {
		t.Fatalf("no env command: %v", err)
	}
	for k, v := range map[string]string{
		"CLOUD_REGION":            "eu-west-9",
		"CLOUD_ACCESS_KEY_ID":     "DEVELOPERKEY",
		"CLOUD_SECRET_ACCESS_KEY": "developer-secret",
		"CLOUD_PROFILE":           "developer",
		"TF_CLI_CONFIG_FILE":      "/home/developer/.terraformrc",
		"TF_REATTACH_PROVIDERS":   `{"registry.terraform.io/cloudlabs/cloud":{}}`,
		"TF_CLI_ARGS_plan":        "-refresh=false",
		"TF_DATA_DIR":             "/home/developer/tf-data",
		"TF_VAR_snapshot_hour":    "5",
		"HOME":                    "/home/developer",
	} {
		t.Setenv(k, v)
	}
	ws := NewInstallWorkspace(t, "/the/workspace.tfrc")
	ws.CLI = envPath
	t.Setenv("TF_VAR_key_status", "Inactive")
	out, err := ws.Output(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		k, v, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		seen[k] = append(seen[k], v)
	}
	for _, k := range append(slices.Clone(ProviderEnv), "TF_REATTACH_PROVIDERS", "TF_CLI_ARGS_plan", "TF_DATA_DIR") {
		if v, ok := seen[k]; ok {
			t.Errorf("the CLI's environment has %s=%v, want it unset", k, v)
		}
	}
	for k, want := range map[string]string{"TF_CLI_CONFIG_FILE": "/the/workspace.tfrc", "TF_VAR_snapshot_hour": "5", "TF_VAR_key_status": "Inactive", "TF_IN_AUTOMATION": "1"} {
		if got := seen[k]; !slices.Equal(got, []string{want}) {
			t.Errorf("the CLI's environment has %s=%v, want %s alone", k, got, want)
		}
	}
	if home := seen["HOME"]; len(home) != 1 || home[0] == "/home/developer" {
		t.Errorf("the CLI's HOME is %v, want one of the workspace's own", home)
	}
}
