package acctest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

// NewWorkspace is an empty working directory where the CLI the tests use
// (TF_ACC_TERRAFORM_PATH, see PreCheck) runs with the provider served in
// this process until t ends, for a test that drives the CLI itself
// (terraform query, a guide's commands) rather than through
// terraform-plugin-testing. The provider reads this process's environment
// (ClearProviderEnv clears it); the CLI's commands start from BaseEnv.
func NewWorkspace(ctx context.Context, t testing.TB) *tfrun.Workspace {
	t.Helper()
	PreCheck(t)
	dir := t.TempDir()
	env, stop, err := tfrun.Reattach(ctx, providerserver.NewProtocol6(provider.NewInDir("test", filepath.Join(dir, ".terraform"))()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return &tfrun.Workspace{CLI: os.Getenv("TF_ACC_TERRAFORM_PATH"), Dir: dir, BaseEnv: BaseEnv, Env: env}
}

// NewBuiltWorkspace is an empty working directory where the CLI the tests
// use runs the provider binary BuildProvider built, selected by the
// DevOverrides CLI configuration (no terraform init needed), for a test
// that needs the provider as its own process.
func NewBuiltWorkspace(t testing.TB) *tfrun.Workspace {
	t.Helper()
	bin := BuildProvider(t)
	env, err := tfrun.DevOverrides(t.TempDir(), "cloudlabs/cloud", bin)
	if err != nil {
		t.Fatal(err)
	}
	return binaryWorkspace(t, env)
}

// NewInstallWorkspace is an empty working directory where the CLI the
// tests use installs providers as the CLI configuration file cliConfig
// says (a mirror of a release: terraform init as from the Registry).
func NewInstallWorkspace(t testing.TB, cliConfig string) *tfrun.Workspace {
	t.Helper()
	return binaryWorkspace(t, []string{"TF_CLI_CONFIG_FILE=" + cliConfig})
}

// binaryWorkspace is a working directory where the CLI runs a provider
// binary, with env added: commands start from BaseEnv with a HOME of
// their own, so nothing of the developer's (CLOUD_* variables, ~/.cloud,
// ~/.terraformrc) reaches the CLI or the binary.
func binaryWorkspace(t testing.TB, env []string) *tfrun.Workspace {
	t.Helper()
	PreCheck(t)
	env = append(env, "HOME="+t.TempDir())
	return &tfrun.Workspace{CLI: os.Getenv("TF_ACC_TERRAFORM_PATH"), Dir: t.TempDir(), BaseEnv: BaseEnv, Env: env}
}
