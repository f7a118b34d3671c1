package acctest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What a module author runs: the binaries as the release builds them, not
// the packages served in the test's process.

// RepoRoot is the root of this repository's checkout.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func repoRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", ".."), nil
}

// BuildReleasedEmulator builds cloud-emulator into dir with the release's
// flags (scripts/build-emulator.sh, which make test-module uses too),
// stamped with version, and returns its path.
func BuildReleasedEmulator(t testing.TB, dir, version string) string {
	t.Helper()
	out := filepath.Join(dir, "cloud-emulator")
	runBuild(t, exec.CommandContext(context.Background(), filepath.Join(RepoRoot(t), "scripts", "build-emulator.sh"), out, version)) //nolint:gosec // G204: the repository's own script
	return out
}

// ProviderMirror builds the provider with the release's flags into an
// unpacked filesystem mirror under dir, as version, and returns a CLI
// configuration that installs cloudlabs/cloud from it and nothing from
// anywhere else: `terraform init` then works as it does from the Registry,
// offline.
func ProviderMirror(t testing.TB, dir, version string) string {
	t.Helper()
	mirror := filepath.Join(dir, "mirror")
	platform := runtime.GOOS + "_" + runtime.GOARCH
	var first string
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		bin := filepath.Join(mirror, host, "cloudlabs", "cloud", version, platform, "terraform-provider-cloud_v"+version)
		if first == "" {
			if err := goBuild(context.Background(), bin, []string{"CGO_ENABLED=0"}, ".", "-trimpath", "-ldflags", "-s -w -X main.version="+version); err != nil {
				t.Fatal(err)
			}
			first = bin
			continue
		}
		if err := os.MkdirAll(filepath.Dir(bin), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(first, bin); err != nil {
			t.Fatal(err)
		}
	}
	rc := filepath.Join(dir, "mirror.tfrc")
	config := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
	if err := os.WriteFile(rc, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}

func runBuild(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	cmd.Dir = RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}

// StartEmulatorBinary runs the emulator binary at path with args (on a
// free loopback port unless args say otherwise), waits for its ready line
// and returns its URL. When t ends it sends SIGTERM and fails t unless the
// emulator exits with status 0.
func StartEmulatorBinary(t testing.TB, path string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), path, append([]string{"-quiet"}, args...)...) //nolint:gosec // G204: the binary the test built
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "cloud-emulator ready: url="); ok {
				url, _, _ := strings.Cut(rest, " ")
				ready <- url
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("the emulator did not exit cleanly on SIGTERM: %v\n%s", err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("the emulator did not exit within 30 s of SIGTERM")
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case url := <-ready:
		return url
	case err := <-exited:
		exited <- err // for the cleanup
		t.Fatalf("the emulator exited before its ready line: %v\n%s", err, stderr.String())
	case <-ctx.Done():
		t.Fatalf("no ready line from the emulator within a minute\n%s", stderr.String())
	}
	return ""
}
