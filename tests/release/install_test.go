package release_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

const project = "terraform-provider-cloud"

// TestAccInstallFromMirror installs the provider the way a team with a
// provider mirror does: it builds a snapshot release for this platform with
// the project's .goreleaser.yml (signing SHA256SUMS with a throwaway GPG key
// through the configuration's own signs step), verifies the signature, lays
// the zip out as a filesystem mirror and runs a real `terraform init` from
// it (no dev_overrides, nothing else reachable), with a lock file that
// pins the zip's checksum from the signed SHA256SUMS, as one made from the
// Registry does. The lock file must then record the package's h1: hash too,
// and a plan against the emulator must run the installed binary.
func TestAccInstallFromMirror(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the install test drives the Terraform CLI")
	}
	acctest.PreCheck(t)
	cli := os.Getenv("TF_ACC_TERRAFORM_PATH")
	for _, tool := range []string{"go", "git", "gpg"} {
		requireTool(t, tool)
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	work := t.TempDir()

	rel := buildSnapshot(ctx, t, work)
	sums := rel.verifiedSums(ctx, t)

	zipSum := sums[rel.zipName()]
	if zipSum == "" {
		t.Fatalf("SHA256SUMS lists no %s:\n%v", rel.zipName(), sums)
	}
	if got := fileSHA256(t, rel.zipPath()); got != zipSum {
		t.Fatalf("%s: SHA256SUMS says %s, the file's SHA-256 is %s", rel.zipName(), zipSum, got)
	}
	// The Registry reads the protocol version from the manifest, which
	// SHA256SUMS must cover.
	if manifest := project + "_" + rel.Version + "_manifest.json"; sums[manifest] == "" {
		t.Fatalf("SHA256SUMS lists no %s:\n%v", manifest, sums)
	}
	h1, err := dirhash.HashZip(rel.zipPath(), dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	zh := "zh:" + zipSum

	host := "registry.terraform.io"
	if acctest.IsOpenTofu(cli) {
		host = "registry.opentofu.org" // where OpenTofu resolves cloudlabs/cloud
	}
	source := host + "/cloudlabs/cloud"
	mirror := filepath.Join(work, "mirror")
	copyFile(t, rel.zipPath(), filepath.Join(mirror, filepath.FromSlash(source), rel.zipName()))
	cliConfig := filepath.Join(work, "mirror.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = [%q]
  }
}
`, mirror, source))

	emu := acctest.NewEmulator(t)
	config := fmt.Sprintf(`terraform {
  required_providers {
    cloud = {
      source  = "cloudlabs/cloud"
      version = "= %s"
    }
  }
}
%s
resource "cloud_identity_user" "app" {
  user_name = "installed-from-mirror"
}
`, rel.Version, emu.ProviderConfig())
	lock := func(hashes ...string) string {
		return fmt.Sprintf("provider %q {\n  version     = %q\n  constraints = %q\n  hashes = [\n    %s,\n  ]\n}\n",
			source, rel.Version, rel.Version, `"`+strings.Join(hashes, `",\n    "`)+`"`)
	}

	t.Run("init refuses a zip that is not the signed one", func(t *testing.T) {
		tf := newWorkspace(t, cliConfig, config)
		writeFile(t, filepath.Join(tf.dir, ".terraform.lock.hcl"), lock("zh:"+strings.Repeat("0", 64)))
		out, err := tf.run(ctx, "init", "-input=false", "-no-color")
		mismatch := acctest.ErrorRe(regexp.QuoteMeta("the current package for "+source+" "+rel.Version) + " doesn't match any of the checksums previously recorded")
		if err == nil || !mismatch.MatchString(out) {
			t.Fatalf("terraform init with a lock file whose zh: is not the zip's: err = %v, want the checksum mismatch; output:\n%s", err, out)
		}
	})

	t.Run("init installs the release and plans against the emulator", func(t *testing.T) {
		tf := newWorkspace(t, cliConfig, config)
		writeFile(t, filepath.Join(tf.dir, ".terraform.lock.hcl"), lock(zh))
		if out, err := tf.run(ctx, "init", "-input=false", "-no-color"); err != nil {
			t.Fatalf("terraform init: %v\n%s", err, out)
		}
		got := lockedHashes(t, filepath.Join(tf.dir, ".terraform.lock.hcl"), source)
		if want := []string{h1, zh}; !slices.Equal(got, want) {
			t.Fatalf(".terraform.lock.hcl records %v for %s, want the package's %s and SHA256SUMS's %s", got, source, h1, zh)
		}
		installed := filepath.Join(tf.dir, ".terraform", "providers", filepath.FromSlash(source), rel.Version,
			runtime.GOOS+"_"+runtime.GOARCH, project+"_v"+rel.Version)
		if _, err := os.Stat(installed); err != nil {
			t.Fatalf("the release's binary is not where init installs it: %v", err)
		}

		emu.ClearCalls()
		if out, err := tf.run(ctx, "plan", "-input=false", "-no-color", "-out=tfplan"); err != nil {
			t.Fatalf("terraform plan: %v\n%s", err, out)
		}
		out, err := tf.run(ctx, "show", "-json", "tfplan")
		if err != nil {
			t.Fatalf("terraform show: %v\n%s", err, out)
		}
		var plan struct {
			ResourceChanges []struct {
				Address string `json:"address"`
				Change  struct {
					Actions []string `json:"actions"`
				} `json:"change"`
			} `json:"resource_changes"`
		}
		if err := json.Unmarshal([]byte(out), &plan); err != nil {
			t.Fatalf("terraform show -json: %v\n%s", err, out)
		}
		if len(plan.ResourceChanges) != 1 || plan.ResourceChanges[0].Address != "cloud_identity_user.app" ||
			!slices.Equal(plan.ResourceChanges[0].Change.Actions, []string{"create"}) {
			t.Fatalf("the plan's resource changes are %+v, want cloud_identity_user.app created", plan.ResourceChanges)
		}
		// The installed provider talked to the emulator, and a plan writes
		// nothing.
		if n := emu.Answered("GetCallerIdentity", false); n == 0 {
			t.Fatalf("the emulator saw no GetCallerIdentity during the plan: %+v", emu.Calls())
		}
		emu.ExpectCalls(t, "CreateUser", 0, "a plan writes nothing")
	})

	t.Run("the emulator's archive is verified, unzipped, and serves a plan from a seed", func(t *testing.T) {
		exe := installEmulator(t, rel, sums, filepath.Join(work, "downloads"))
		testReleasedEmulator(ctx, t, exe, rel.Version, func(config string) *workspace {
			tf := newWorkspace(t, cliConfig, config)
			writeFile(t, filepath.Join(tf.dir, ".terraform.lock.hcl"), lock(zh))
			return tf
		})
	})
}

// snapshot is a release built into dist.
type snapshot struct {
	dist    string
	gnupg   string
	Version string `json:"version"`
}

func (s *snapshot) zipName() string {
	return fmt.Sprintf("%s_%s_%s_%s.zip", project, s.Version, runtime.GOOS, runtime.GOARCH)
}

func (s *snapshot) zipPath() string { return filepath.Join(s.dist, s.zipName()) }

// buildSnapshot makes a throwaway signing key and runs `goreleaser release
// --snapshot` with the project's configuration, its builds narrowed to
// this platform and its dist in work. The before hooks (go mod tidy) are
// skipped: a test does not rewrite the module's files.
func buildSnapshot(ctx context.Context, t *testing.T, work string) *snapshot {
	t.Helper()
	root := repoRoot(t)
	s := &snapshot{dist: filepath.Join(work, "dist"), gnupg: filepath.Join(work, "gnupg")}
	fingerprint := throwawayKey(ctx, t, s.gnupg)

	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf(".goreleaser.yml: %v", err)
	}
	builds, _ := cfg["builds"].([]any)
	if len(builds) == 0 {
		t.Fatal(".goreleaser.yml has no builds")
	}
	for _, b := range builds {
		build, ok := b.(map[string]any)
		if !ok {
			t.Fatalf(".goreleaser.yml: a build is %T, not a mapping", b)
		}
		if !slices.Contains(anyStrings(build["goos"]), runtime.GOOS) || !slices.Contains(anyStrings(build["goarch"]), runtime.GOARCH) {
			t.Fatalf(".goreleaser.yml does not build for %s/%s (goos %v, goarch %v)", runtime.GOOS, runtime.GOARCH, build["goos"], build["goarch"])
		}
		build["goos"], build["goarch"] = []string{runtime.GOOS}, []string{runtime.GOARCH}
	}
	cfg["dist"] = s.dist
	narrowed, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(work, "goreleaser.yml")
	writeFile(t, cfgPath, string(narrowed))

	cmd := exec.CommandContext(ctx, "go", "tool", "-modfile=tools/go.mod", "goreleaser", "release", //nolint:gosec // G204: fixed arguments and a path of this test
		"--snapshot", "--skip=before", "--parallelism=2", "--config", cfgPath)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GNUPGHOME="+s.gnupg, "GPG_FINGERPRINT="+fingerprint)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser release --snapshot: %v\n%s", err, out)
	}
	t.Logf("goreleaser release --snapshot for %s/%s took %s", runtime.GOOS, runtime.GOARCH, time.Since(start).Round(time.Second))

	meta, err := os.ReadFile(filepath.Join(s.dist, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(meta, s); err != nil || s.Version == "" {
		t.Fatalf("dist/metadata.json: no version (%v): %s", err, meta)
	}
	return s
}

// throwawayKey makes an RSA signing key (the kind the Registry accepts)
// without a passphrase in a new GNUPGHOME and returns its fingerprint.
func throwawayKey(ctx context.Context, t *testing.T, home string) string {
	t.Helper()
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The agent gpg started for this home.
		_ = exec.Command("gpgconf", "--homedir", home, "--kill", "all").Run() //nolint:gosec,noctx // G204: this test's own directory; cleanup has no context
	})
	gpg(ctx, t, home, "--passphrase", "", "--pinentry-mode", "loopback",
		"--quick-generate-key", "Release test <release-test@example.invalid>", "rsa2048", "sign", "1d")
	for line := range strings.Lines(gpg(ctx, t, home, "--with-colons", "--list-secret-keys")) {
		if f := strings.Split(line, ":"); f[0] == "fpr" && len(f) > 9 {
			return f[9]
		}
	}
	t.Fatal("gpg listed no fingerprint for the key it made")
	return ""
}

// verifiedSums checks SHA256SUMS's signature with the throwaway key and
// returns its entries, file name to SHA-256.
func (s *snapshot) verifiedSums(ctx context.Context, t *testing.T) map[string]string {
	t.Helper()
	sumsPath := filepath.Join(s.dist, project+"_"+s.Version+"_SHA256SUMS")
	sig := sumsPath + ".sig"
	if _, err := os.Stat(sig); err != nil {
		t.Fatalf("the release has no signature of SHA256SUMS: %v", err)
	}
	gpg(ctx, t, s.gnupg, "--verify", sig, sumsPath)

	f, err := os.Open(sumsPath) //nolint:gosec // G304: the release this test built
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: malformed line %q", sc.Text())
		}
		sums[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

func gpg(ctx context.Context, t *testing.T, home string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "gpg", append([]string{"--batch", "--homedir", home}, args...)...) //nolint:gosec // G204: fixed arguments and this test's own files
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("gpg %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// workspace is a working directory whose CLI runs see only the mirror
// (acctest.NewInstallWorkspace).
type workspace struct {
	ws  *tfrun.Workspace
	dir string
}

func newWorkspace(t *testing.T, cliConfig, config string) *workspace {
	t.Helper()
	ws := acctest.NewInstallWorkspace(t, cliConfig)
	writeFile(t, filepath.Join(ws.Dir, "main.tf"), config)
	return &workspace{ws: ws, dir: ws.Dir}
}

// run runs one command and returns its stdout, and on failure its stderr
// after it.
func (w *workspace) run(ctx context.Context, args ...string) (string, error) {
	stdout, stderr, err := w.ws.Streams(ctx, args...)
	if err != nil {
		return string(stdout) + string(stderr), err
	}
	return string(stdout), nil
}

var lockHash = regexp.MustCompile(`"((?:h1|zh):[^"]+)"`)

// lockedHashes returns the hashes the lock file records for source, sorted.
func lockedHashes(t *testing.T, path, source string) []string {
	t.Helper()
	b, err := os.ReadFile(path) //nolint:gosec // G304: the test's own working directory
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), fmt.Sprintf("provider %q {", source))
	if !ok {
		t.Fatalf(".terraform.lock.hcl has no block for %s:\n%s", source, b)
	}
	block, _, _ = strings.Cut(block, "\n}")
	var hashes []string
	for _, m := range lockHash.FindAllStringSubmatch(block, -1) {
		hashes = append(hashes, m[1])
	}
	slices.Sort(hashes)
	return hashes
}

// requireTool fails the test under CI when a tool is missing, and skips it
// elsewhere.
func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not on PATH; CI must run the install test", name)
	}
	t.Skipf("%s is not on PATH", name)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path) //nolint:gosec // G304: the release this test built
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from) //nolint:gosec // G304: the release this test built
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o750); err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(b))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
