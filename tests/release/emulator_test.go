package release_test

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// emulatorName is the emulator's binary and the start of its archives'
// names.
const emulatorName = "cloud-emulator"

func (s *snapshot) emulatorZipName() string {
	return fmt.Sprintf("%s_%s_%s_%s.zip", emulatorName, s.Version, runtime.GOOS, runtime.GOARCH)
}

// installEmulator does what a module's CI job does with a release: it
// downloads (copies from the release's files) the emulator's archive for
// this platform into dir, checks it against the signed SHA256SUMS, unzips
// it and returns the binary's path.
func installEmulator(t *testing.T, rel *snapshot, sums map[string]string, dir string) string {
	t.Helper()
	name := rel.emulatorZipName()
	want := sums[name]
	if want == "" {
		t.Fatalf("SHA256SUMS lists no %s:\n%v", name, sums)
	}
	downloaded := filepath.Join(dir, name)
	copyFile(t, filepath.Join(rel.dist, name), downloaded)
	if got := fileSHA256(t, downloaded); got != want {
		t.Fatalf("%s: SHA256SUMS says %s, the file's SHA-256 is %s", name, want, got)
	}
	exe := emulatorName
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	zr, err := zip.OpenReader(downloaded)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var found bool
	for _, f := range zr.File {
		if f.Name != exe {
			continue
		}
		found = true
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, exe), b, 0o700); err != nil { //nolint:gosec // G306: an executable of this test's own
			t.Fatal(err)
		}
	}
	if !found {
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		t.Fatalf("%s holds no %s at its top: %v", name, exe, names)
	}
	return filepath.Join(dir, exe)
}

// testReleasedEmulator runs the released emulator as a module's test would:
// -version names the release, and started from the example seed with the
// clock held it serves a plan of the released provider (installed in the
// workspace newTF makes) that reads the seeded domain's change in progress;
// SIGTERM ends it with exit 0.
func testReleasedEmulator(ctx context.Context, t *testing.T, exe, version string, newTF func(config string) *workspace) {
	t.Helper()
	out, err := exec.CommandContext(ctx, exe, "-version").Output() //nolint:gosec // G204: the binary this test unzipped
	if err != nil || string(out) != emulatorName+" "+version+"\n" {
		t.Fatalf("%s -version: %q, %v; want %q", emulatorName, out, err, emulatorName+" "+version+"\n")
	}

	seedFile := filepath.Join(repoRoot(t), "examples", "emulator", "seed.json")
	cmd := exec.CommandContext(ctx, exe, "-seed", seedFile, "-clock", "2026-11-28T12:00:00Z", "-clock-held", "-quiet") //nolint:gosec // G204: the binary this test unzipped
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	ready, err := bufio.NewReader(stdout).ReadString('\n')
	m := regexp.MustCompile(`^cloud-emulator ready: url=(http://127\.0\.0\.1:\d+) region=(\S+) access_key_id=(\S+) version=(\S+)\n$`).FindStringSubmatch(ready)
	if err != nil || m == nil || m[4] != version {
		t.Fatalf("ready line %q (%v), want one naming version %s; stderr:\n%s", ready, err, version, stderr.String())
	}
	url, region, keyID := m[1], m[2], m[3]

	// The default secret is documented (internal/emulator/README.md).
	tf := newTF(fmt.Sprintf(`terraform {
  required_providers {
    cloud = {
      source  = "cloudlabs/cloud"
      version = "= %s"
    }
  }
}

provider "cloud" {
  region     = %q
  access_key = %q
  secret_key = "emulator-secret-access-key-0123456789"
  endpoints = {
    identity = %q
    search   = %q
    models   = %q
  }
}

data "cloud_search_domain_change_progress" "catalog" {
  domain_name = "catalog"
}

output "catalog_change" {
  value = {
    status  = data.cloud_search_domain_change_progress.catalog.status
    pending = data.cloud_search_domain_change_progress.catalog.pending_properties
  }
}
`, version, region, keyID, url, url, url))
	if out, err := tf.run(ctx, "init", "-input=false", "-no-color"); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
	if out, err := tf.run(ctx, "plan", "-input=false", "-no-color", "-out=tfplan"); err != nil {
		t.Fatalf("terraform plan against the released emulator: %v\n%s", err, out)
	}
	shown, err := tf.run(ctx, "show", "-json", "tfplan")
	if err != nil {
		t.Fatalf("terraform show: %v\n%s", err, shown)
	}
	var plan struct {
		PlannedValues struct {
			Outputs map[string]struct {
				Value struct {
					Status  string   `json:"status"`
					Pending []string `json:"pending"`
				} `json:"value"`
			} `json:"outputs"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal([]byte(shown), &plan); err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, shown)
	}
	// The seed started a change of catalog's instance type; the clock is
	// held at its submission, so it is still pending.
	got := plan.PlannedValues.Outputs["catalog_change"].Value
	if got.Status != "PENDING" || strings.Join(got.Pending, ",") != "ClusterConfig.InstanceType" {
		t.Errorf("the seeded change as the plan read it: %+v; want PENDING, pending ClusterConfig.InstanceType", got)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) || err != nil {
			t.Errorf("after SIGTERM: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Errorf("still running 30s after SIGTERM")
	}
}
