package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
)

// Feature is a capability of the Terraform CLI that only newer CLIs have.
type Feature struct {
	name string
	min  *version.Version // the first Terraform release that has it
}

var (
	// FeatureIdentity is resource identity: import blocks with identity and
	// identity in state (Terraform 1.12+).
	FeatureIdentity = Feature{"resource identity", version.Must(version.NewVersion("1.12.0"))}
	// FeatureQuery is list resources and `terraform query` (Terraform 1.14+).
	FeatureQuery = Feature{"list resources and terraform query", version.Must(version.NewVersion("1.14.0"))}
)

type cliVersion struct {
	openTofu bool
	version  *version.Version
	err      error
}

var cliVersions sync.Map // CLI path -> *cliVersion

// CLIVersion reports whether the CLI at path is OpenTofu, and its version.
func CLIVersion(path string) (openTofu bool, v *version.Version, err error) {
	if c, ok := cliVersions.Load(path); ok {
		cv := c.(*cliVersion) //nolint:forcetypeassert // only *cliVersion is stored
		return cv.openTofu, cv.version, cv.err
	}
	cv := &cliVersion{openTofu: IsOpenTofu(path)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "version", "-json").Output() //nolint:gosec // G702: the CLI the test runner chose
	if err == nil {
		var j struct {
			Version string `json:"terraform_version"`
		}
		if err = json.Unmarshal(out, &j); err == nil {
			cv.version, err = version.NewVersion(j.Version)
		}
	}
	cv.err = err
	cliVersions.Store(path, cv)
	return cv.openTofu, cv.version, cv.err
}

// SkipUnlessCLISupports skips t, with the reason, when the CLI under test
// (TF_ACC_TERRAFORM_PATH) lacks f: an older Terraform, or OpenTofu, which
// implements neither feature. Call it after PreCheck.
func SkipUnlessCLISupports(t testing.TB, f Feature) {
	t.Helper()
	if ok, why := CLISupports(t, f); !ok {
		t.Skip(why)
	}
}

// CLISupports reports whether the CLI under test has f, and when it has
// not, why: for a test that runs the rest of its steps without it.
func CLISupports(t testing.TB, f Feature) (ok bool, why string) {
	t.Helper()
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if path == "" {
		return true, "" // PreCheck has failed the test already
	}
	openTofu, v, err := CLIVersion(path)
	switch {
	case err != nil:
		t.Fatalf("reading the version of %s: %v", path, err)
	case openTofu:
		return false, fmt.Sprintf("%s: OpenTofu %s does not support %s", path, v, f.name)
	case v.LessThan(f.min):
		return false, fmt.Sprintf("%s: Terraform %s does not support %s (Terraform %s+ does)", path, v, f.name, f.min)
	}
	return true, ""
}
