// Package acctest is the shared harness of the acceptance tests: an
// in-process emulator per test, provider factories, and the Terraform CLI.
package acctest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

// ProviderName is the provider's local name in test configurations.
const ProviderName = "cloud"

// ProtoV6ProviderFactories serve a new provider for each Terraform command,
// as the provider binary does: nothing carries over between commands but
// what the service holds (the working directory is not known here, so a
// plan leaves no note for the plan at apply).
var ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	ProviderName: func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(provider.NewInDir("test", "")())()
	},
}

// Emulator is an emulator serving one test on a loopback port (see
// emulatortest, which tests that cannot import the provider use).
type Emulator = emulatortest.Emulator

// NewEmulator starts an emulator for t and stops it when t ends.
func NewEmulator(t testing.TB, opts ...emulatortest.Option) *Emulator {
	t.Helper()
	return emulatortest.New(t, opts...)
}

var cliOnce sync.Once

// PreCheck makes sure a Terraform CLI is known to terraform-plugin-testing
// without it downloading one: TF_ACC_TERRAFORM_PATH, else terraform or tofu
// on PATH, else the OpenTofu that `make` builds into ./bin. With OpenTofu it
// sets TF_ACC_PROVIDER_HOST to registry.opentofu.org (unless set): the tests'
// configurations name the provider implicitly, which OpenTofu resolves on
// its own registry host, while terraform-plugin-testing serves the provider
// under registry.terraform.io by default.
func PreCheck(t testing.TB) {
	t.Helper()
	cliOnce.Do(func() {
		// A CLI configuration variable naming a missing file makes every CLI
		// run print a warning, which OpenTofu prints where
		// terraform-plugin-testing reads the CLI's version.
		if f := os.Getenv("TF_CLI_CONFIG_FILE"); f != "" {
			if _, err := os.Stat(f); err != nil { //nolint:gosec // G703: the test runner's own CLI configuration path
				_ = os.Unsetenv("TF_CLI_CONFIG_FILE")
			}
		}
		if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
			if p := FindCLI(); p != "" {
				_ = os.Setenv("TF_ACC_TERRAFORM_PATH", p)
			}
		}
		if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" && os.Getenv("TF_ACC_PROVIDER_HOST") == "" && IsOpenTofu(p) {
			_ = os.Setenv("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
		}
	})
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Fatal("No Terraform CLI: set TF_ACC_TERRAFORM_PATH, put terraform or tofu on PATH, or run `make test`, which builds OpenTofu into ./bin.")
	}
}

// IsOpenTofu reports whether the CLI at path is OpenTofu.
func IsOpenTofu(path string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "version").Output() //nolint:gosec // G702: the CLI the test runner chose
	return err == nil && strings.HasPrefix(string(out), "OpenTofu")
}

// FindCLI returns the path of terraform or tofu on PATH, else of the tofu
// built into the repository's bin/, else "".
func FindCLI() string {
	for _, name := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	_, file, _, ok := runtime.Caller(0)
	if ok {
		p := filepath.Join(filepath.Dir(file), "..", "..", "bin", "tofu")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// ErrorRe compiles an ExpectError pattern in which every space also
// matches the line breaks Terraform puts into long diagnostics.
func ErrorRe(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}
