package acctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// builtProvider is the provider binary BuildProvider built for this test
// binary: one build, however many tests and packages' workspaces use it.
var builtProvider struct {
	once sync.Once
	dir  string
	err  error
}

// BuildProvider builds the provider from this module (as `go build` does,
// without the release's flags: see ProviderMirror for those) once per test
// binary and returns the directory that holds terraform-provider-cloud,
// for a test that needs the provider as its own process: one per provider
// configuration, or killed while it runs. The directory outlives t, so
// that later tests reuse the build; the package's TestMain runs its tests
// with RunTests, which removes it.
func BuildProvider(t testing.TB) string {
	t.Helper()
	builtProvider.once.Do(func() {
		dir, err := os.MkdirTemp("", "terraform-provider-cloud-build-")
		if err != nil {
			builtProvider.err = err
			return
		}
		builtProvider.dir = dir
		builtProvider.err = goBuild(context.Background(), filepath.Join(dir, ProviderBinaryName), nil, ".")
	})
	if builtProvider.err != nil {
		t.Fatalf("building the provider: %v", builtProvider.err)
	}
	return builtProvider.dir
}

// ProviderBinaryName is the provider binary's file name in the directory
// BuildProvider returns.
const ProviderBinaryName = "terraform-provider-cloud"

// BuiltProviderPath is the provider binary BuildProvider built.
func BuiltProviderPath(t testing.TB) string {
	t.Helper()
	return filepath.Join(BuildProvider(t), ProviderBinaryName)
}

// RunTests runs m's tests, then removes what BuildProvider built, if
// anything, and returns their exit code: a package whose tests build the
// provider has `func TestMain(m *testing.M) { os.Exit(acctest.RunTests(m)) }`.
func RunTests(m *testing.M) int {
	code := m.Run()
	if builtProvider.dir != "" {
		_ = os.RemoveAll(builtProvider.dir)
	}
	return code
}

// GoBuild builds pkg, a package of this module or of a module its go.mod
// requires (such as a tool: opa), into out, failing t if it does not
// build.
func GoBuild(t testing.TB, out, pkg string) {
	t.Helper()
	if err := goBuild(t.Context(), out, nil, pkg); err != nil {
		t.Fatal(err)
	}
}

// goBuild builds pkg (the provider: ".") from the module's root into out,
// with the variables env added to this process's environment and extra
// flags (such as the release's -trimpath and -ldflags); the error carries
// the command's output.
func goBuild(ctx context.Context, out string, env []string, pkg string, flags ...string) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	args := append(append([]string{"build"}, flags...), "-o", out, pkg)
	cmd := exec.CommandContext(ctx, "go", args...) //nolint:gosec // G204: a package of this module or its requirements
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, b)
	}
	return nil
}
