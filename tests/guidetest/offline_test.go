package guidetest_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

const offlineGuide = "testing-modules-offline"

// The guide's shell blocks, run in order in one shell as a reader pastes
// them, the download block from a copy of the release (the emulator built
// as the release builds it, zipped and summed as goreleaser does) on
// loopback: the emulator is fetched and checked, the seeded emulator starts, the module's
// run blocks pass, opa refuses the plan of the blue/green verdict with the
// message the guide shows, and the emulator stops cleanly.
func TestAccGuideOffline_shell(t *testing.T) {
	precheck(t)
	blocks := guideBlocks(t, offlineGuide)
	download := only(t, blocks, "shell", "Download the emulator of the provider version the module uses")
	version := regexp.MustCompile(`(?m)^version=(\S+)$`).FindStringSubmatch(download.text)
	if version == nil {
		t.Fatalf("the download block sets no version=:\n%s", download.text)
	}
	s := newOfflineSandbox(t, blocks, version[1])

	// Every block runs; the download block's from a copy of the release
	// on loopback.
	var script strings.Builder
	var shells []block
	for _, b := range blocks {
		if b.lang == "shell" {
			if b.name() == download.name() {
				b.text = s.fromLocalRelease(t, b.text)
			}
			shells = append(shells, b)
		}
	}
	for i, b := range shells {
		f := filepath.Join(s.work, fmt.Sprintf("block%d.sh", i))
		writeFile(t, f, b.text)
		// As pasted into an interactive shell: a failing command does not
		// end the session.
		fmt.Fprintf(&script, "rc=0; source %q > %q 2>&1 || rc=$?; echo $rc > %q\n", f, f+".out", f+".rc")
	}
	s.bash(t, s.module, script.String())

	result := func(name string) (int, string) {
		t.Helper()
		for i, b := range shells {
			if b.name() == name {
				f := filepath.Join(s.work, fmt.Sprintf("block%d.sh", i))
				rc, out := readFile(t, f+".rc"), noColor(readFile(t, f+".out"))
				var code int
				if _, err := fmt.Sscan(rc, &code); err != nil {
					t.Fatalf("block %q: no exit status (%v); output:\n%s", name, err, out)
				}
				return code, out
			}
		}
		t.Fatalf("the guide has no shell block %q", name)
		return 0, ""
	}
	if code, out := result(download.name()); code != 0 || !strings.Contains(out, ": OK") {
		t.Fatalf("the download block: status %d, want 0 and the zip's checksum OK:\n%s", code, out)
	}
	if code, out := result("Start the emulator, seeded, with its clock held"); code != 0 {
		t.Fatalf("starting the emulator: status %d\n%s", code, out)
	}
	if log := readFile(t, filepath.Join(s.module, "emulator.log")); !strings.HasPrefix(log, "cloud-emulator ready: url=http://127.0.0.1:") {
		t.Errorf("the emulator's output does not start with its ready line:\n%s", log)
	}
	if code, out := result("Run the module's tests"); code != 0 || !strings.Contains(out, "Success! 3 passed, 0 failed.") {
		t.Fatalf("terraform test: status %d, want 0 and 3 runs passed:\n%s", code, out)
	}
	code, out := result("Plan the orders change and review it as the pipeline does")
	want := strings.TrimSpace(only(t, blocks, "text", "").text)
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("opa eval of the blue/green plan: status %d, want 1 and the denial the guide shows (%s):\n%s", code, want, out)
	}
	if code, out := result("Stop the emulator"); code != 0 {
		t.Fatalf("stopping the emulator: status %d, want 0 (a clean exit on SIGTERM):\n%s", code, out)
	}
}

// The guide's GitHub Actions job, step by step as the runner runs it: the
// job's environment, GITHUB_ENV and GITHUB_PATH, each run script in bash
// -eo pipefail. The checkout is the guide's module; setup-terraform is the
// CLI under test; the download step fetches from a copy of the release on
// loopback.
func TestAccGuideOffline_ci(t *testing.T) {
	precheck(t)
	blocks := guideBlocks(t, offlineGuide)
	var wf struct {
		Jobs map[string]struct {
			Env   map[string]string
			Steps []struct {
				Name, Uses, Run, If string
				With                map[string]any
			}
		}
	}
	if err := yaml.Unmarshal([]byte(only(t, blocks, "yaml", ".github/workflows/module-tests.yml").text), &wf); err != nil {
		t.Fatalf("the workflow is not YAML: %v", err)
	}
	job, ok := wf.Jobs["terraform-test"]
	if !ok || job.Env["PROVIDER_VERSION"] == "" {
		t.Fatal("the workflow has no job terraform-test with PROVIDER_VERSION")
	}
	s := newOfflineSandbox(t, blocks, job.Env["PROVIDER_VERSION"])

	runnerTemp := filepath.Join(s.work, "runner-temp")
	githubEnv, githubPath := filepath.Join(s.work, "github-env"), filepath.Join(s.work, "github-path")
	for _, d := range []string{runnerTemp} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, githubEnv, "")
	writeFile(t, githubPath, "")
	ran := map[string]string{}
	for i, step := range job.Steps {
		switch {
		case step.Uses == "actions/checkout@v4":
			continue // the sandbox's module
		case step.Uses == "hashicorp/setup-terraform@v3":
			if step.With["terraform_wrapper"] != false {
				t.Fatal("setup-terraform's wrapper is on: terraform's output would be wrapped")
			}
			continue // the CLI under test is on PATH as terraform
		case step.Uses != "":
			t.Fatalf("step %d uses %s, which this test does not stand in for", i, step.Uses)
		case step.If == "failure()":
			continue
		case step.Name == "Download the emulator":
			step.Run = s.fromLocalRelease(t, step.Run)
		}
		env := []string{"RUNNER_TEMP=" + runnerTemp, "GITHUB_ENV=" + githubEnv, "GITHUB_PATH=" + githubPath}
		for k, v := range job.Env {
			env = append(env, k+"="+v)
		}
		env = append(env, lines(t, githubEnv)...)
		path := append(lines(t, githubPath), s.path)
		env = append(env, "PATH="+strings.Join(path, string(os.PathListSeparator)))
		name := step.Name
		if name == "" {
			name = step.Run
		}
		ran[name] = noColor(s.bashEnv(t, s.module, env, step.Run))
	}
	if out := ran["terraform test"]; !strings.Contains(out, "Success! 3 passed, 0 failed.") {
		t.Fatalf("the terraform test step did not pass the guide's 3 runs:\n%s", out)
	}
}

// The guide's Terraform blocks are as terraform fmt writes them, and its
// seed file is JSON.
func TestAccGuideOffline_formatted(t *testing.T) {
	precheck(t)
	t.Parallel()
	blocks := guideBlocks(t, offlineGuide)
	dir := t.TempDir()
	for _, b := range blocks {
		if b.lang == "terraform" {
			writeFile(t, filepath.Join(dir, filepath.Base(b.name())), b.text)
		}
	}
	cmd := exec.CommandContext(t.Context(), os.Getenv("TF_ACC_TERRAFORM_PATH"), "fmt", "-check", "-diff", "-no-color", dir) //nolint:gosec // G204: the CLI the test runner chose
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform fmt -check of the guide's blocks: %v\n%s", err, out)
	}
	if !json.Valid([]byte(only(t, blocks, "json", "").text)) {
		t.Fatal("the guide's seed file is not JSON")
	}
}

// offlineSandbox is a reader's machine: the guide's module with its tests,
// seed and policy; terraform (the CLI under test) and opa on PATH; the
// provider installed by terraform init from a mirror of its release build;
// a HOME of its own.
type offlineSandbox struct {
	work, module, home, path, emulator, version string
	env                                         []string
}

func newOfflineSandbox(t *testing.T, blocks []block, version string) *offlineSandbox {
	t.Helper()
	work := t.TempDir()
	s := &offlineSandbox{work: work, module: filepath.Join(work, "module"), home: filepath.Join(work, "home"), version: version}
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.Getenv("TF_ACC_TERRAFORM_PATH"), filepath.Join(bin, "terraform")); err != nil {
		t.Fatal(err)
	}
	acctest.GoBuild(t, filepath.Join(bin, "opa"), "github.com/open-policy-agent/opa") // go tool opa
	s.emulator = acctest.BuildReleasedEmulator(t, work, version)
	rc := acctest.ProviderMirror(t, work, version)

	for _, b := range blocks {
		if b.lang == "terraform" {
			writeFile(t, filepath.Join(s.module, b.name()), b.text)
		}
	}
	writeFile(t, filepath.Join(s.module, "tests", "emulator-seed.json"), only(t, blocks, "json", "").text)
	writeFile(t, filepath.Join(s.module, "policy", "plan.rego"), readFile(t, filepath.Join(acctest.RepoRoot(t), "examples", "policy", "plan.rego")))

	s.path = strings.Join([]string{filepath.Join(s.home, ".local", "bin"), bin, os.Getenv("PATH")}, string(os.PathListSeparator))
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "CLOUD_") && !strings.HasPrefix(k, "TF_") && k != "HOME" && k != "PATH" {
			s.env = append(s.env, kv)
		}
	}
	s.env = append(s.env, "HOME="+s.home, "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1")
	return s
}

// guideReleases is where the guide downloads releases from.
const guideReleases = "https://github.com/cloudlabs/terraform-provider-cloud/releases/download/"

// fromLocalRelease returns script with guideReleases replaced by a server
// on loopback that holds, for the sandbox's version, what the release
// holds for the emulator on linux_amd64 (the guide's platform; the binary
// is this machine's): its zip (the binary, README.md and LICENSE, as
// goreleaser packs them) and the SHA256SUMS that lists it.
func (s *offlineSandbox) fromLocalRelease(t *testing.T, script string) string {
	t.Helper()
	if !strings.Contains(script, guideReleases) {
		t.Fatalf("the download script does not fetch from %s:\n%s", guideReleases, script)
	}
	dir := filepath.Join(s.work, "release", "v"+s.version)
	zipName := "cloud-emulator_" + s.version + "_linux_amd64.zip"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	root := acctest.RepoRoot(t)
	for name, from := range map[string]string{"cloud-emulator": s.emulator, "README.md": filepath.Join(root, "README.md"), "LICENSE": filepath.Join(root, "LICENSE")} {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(readFile(t, from))); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, zipName), buf.String())
	sum := sha256.Sum256(buf.Bytes())
	writeFile(t, filepath.Join(dir, "terraform-provider-cloud_"+s.version+"_SHA256SUMS"), hex.EncodeToString(sum[:])+"  "+zipName+"\n")
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(s.work, "release"))))
	t.Cleanup(srv.Close)
	return strings.ReplaceAll(script, guideReleases, srv.URL+"/")
}

func (s *offlineSandbox) bash(t *testing.T, dir, script string) string {
	t.Helper()
	return s.bashEnv(t, dir, []string{"PATH=" + s.path}, script)
}

// bashEnv runs script as GitHub Actions runs a step's (bash --noprofile
// --norc -eo pipefail) in a process group of its own, which is ended with
// the test: what the script starts in the background lives until then.
func (s *offlineSandbox) bashEnv(t *testing.T, dir string, env []string, script string) string {
	t.Helper()
	f := filepath.Join(s.work, fmt.Sprintf("script-%d.sh", time.Now().UnixNano()))
	writeFile(t, f, script)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-eo", "pipefail", f) //nolint:gosec // G204: the guide's script
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, s.env...), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGTERM) })
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v running:\n%s\noutput:\n%s", err, script, out.String())
	}
	return out.String()
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name) //nolint:gosec // G304: the test's own files
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noColor is out without the terminal's colour codes (terraform test
// colours its summary; the guide's commands leave colour on, as a reader's
// terminal shows it).
func noColor(out string) string {
	return regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out, "")
}

// lines are the lines of a GITHUB_ENV or GITHUB_PATH file.
func lines(t *testing.T, name string) []string {
	t.Helper()
	var ls []string
	sc := bufio.NewScanner(strings.NewReader(readFile(t, name)))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}
