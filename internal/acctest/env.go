package acctest

import (
	"os"
	"strings"
	"testing"
)

// ProviderEnv is every environment variable the provider reads for its
// configuration and credentials (TestProviderEnv checks it against the
// provider's code). A test clears them so that the developer's own
// settings neither configure nor credential the provider under test.
var ProviderEnv = []string{
	"CLOUD_REGION",
	"CLOUD_ACCESS_KEY_ID",
	"CLOUD_SECRET_ACCESS_KEY",
	"CLOUD_SESSION_TOKEN",
	"CLOUD_SESSION_EXPIRATION",
	"CLOUD_ENDPOINT_URL",
	"CLOUD_PROFILE",
	"CLOUD_CONFIG_FILE",
	"CLOUD_SHARED_CREDENTIALS_FILE",
	"CLOUD_ROLE_ARN",
	"CLOUD_WEB_IDENTITY_TOKEN_FILE",
	"CLOUD_APPLY_PRINCIPAL_ARN",
	"CLOUD_BEARER_TOKEN_MODELS",
	"TFC_WORKLOAD_IDENTITY_TOKEN",
}

// ClearProviderEnv empties every ProviderEnv variable for t, and points
// HOME at an empty directory so that no ~/.cloud of the developer's is
// read.
func ClearProviderEnv(t testing.TB) {
	t.Helper()
	for _, v := range ProviderEnv {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", t.TempDir())
}

// WithoutProviderEnv is environ (KEY=value entries) without the
// ProviderEnv variables, for a CLI the test starts itself.
func WithoutProviderEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !isProviderEnv(k) {
			out = append(out, kv)
		}
	}
	return out
}

// BaseEnv is the environment a workspace's CLI commands start from: this
// process's, without the ProviderEnv variables (a provider binary the CLI
// starts reads them) and without Terraform's own TF_* variables but for
// TF_VAR_* (a developer's TF_CLI_CONFIG_FILE, TF_REATTACH_PROVIDERS,
// TF_CLI_ARGS or TF_DATA_DIR would change which provider runs or what a
// command does; a test's input variables are its own).
func BaseEnv() []string {
	env := WithoutProviderEnv(os.Environ())
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "TF_VAR_") {
			out = append(out, kv)
		}
	}
	return out
}

func isProviderEnv(k string) bool {
	for _, v := range ProviderEnv {
		if k == v {
			return true
		}
	}
	return false
}
