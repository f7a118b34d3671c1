package acctest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

// NewWorkspace is an empty working directory where the CLI the tests use
// (TF_ACC_TERRAFORM_PATH, see PreCheck) runs with the provider served in
// this process until t ends, for a test that drives the CLI itself
// (terraform query, a guide's commands) rather than through
// terraform-plugin-testing. The provider reads this process's environment.
func NewWorkspace(ctx context.Context, t testing.TB) *tfrun.Workspace {
	t.Helper()
	PreCheck(t)
	dir := t.TempDir()
	env, stop, err := tfrun.Reattach(ctx, providerserver.NewProtocol6(provider.NewInDir("test", filepath.Join(dir, ".terraform"))()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return &tfrun.Workspace{CLI: os.Getenv("TF_ACC_TERRAFORM_PATH"), Dir: dir, Env: env}
}
