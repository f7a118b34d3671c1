package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// testVersion is the version the test binary is stamped with, as a
// release stamps it.
const testVersion = "9.8.7-test"

// binary is the cloud-emulator TestMain built, as make build builds it.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cloud-emulator-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "cloud-emulator")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version="+testVersion, "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		_ = os.RemoveAll(dir)
		panic("building cloud-emulator: " + err.Error())
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// started is a running cloud-emulator.
type started struct {
	cmd    *exec.Cmd
	ready  string        // the ready line
	url    string        // from the ready line
	stdout *bufio.Reader // what follows the ready line
	stderr *emulatortest.LockedBuffer
}

// readyLine is the one line cloud-emulator prints on stdout once it serves.
var readyLine = regexp.MustCompile(`^cloud-emulator ready: url=(http://127\.0\.0\.1:\d+|http://0\.0\.0\.0:\d+) region=us-east-1 access_key_id=EMULATORACCESSKEY01 version=` + regexp.QuoteMeta(testVersion) + `\n$`)

// startBinary runs cloud-emulator with args and waits for its ready line.
func startBinary(t *testing.T, args ...string) *started {
	t.Helper()
	cmd := exec.Command(binary, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &started{cmd: cmd, stdout: bufio.NewReader(out), stderr: &emulatortest.LockedBuffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	line := make(chan string, 1)
	go func() {
		l, _ := s.stdout.ReadString('\n')
		line <- l
	}()
	select {
	case s.ready = <-line:
	case <-time.After(60 * time.Second):
		t.Fatalf("no ready line in 60s; stderr:\n%s", s.stderr)
	}
	m := readyLine.FindStringSubmatch(s.ready)
	if m == nil {
		t.Fatalf("ready line %q does not match %s; stderr:\n%s", s.ready, readyLine, s.stderr)
	}
	s.url = m[1]
	return s
}

// stop sends sig and returns the exit code and what stdout held after the
// ready line.
func (s *started) stop(t *testing.T, sig os.Signal) (int, string) {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(s.stdout)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), string(rest)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(rest)
	case <-time.After(30 * time.Second):
		t.Fatalf("still running 30s after %s", sig)
	}
	return -1, ""
}

// runToEnd runs cloud-emulator with args until it exits by itself.
func runToEnd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String(), errOut.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

func clientConfig() client.Config {
	return client.Config{
		Region:      emulator.DefaultRegion,
		Credentials: client.Credentials{AccessKeyID: emulator.DefaultAccessKeyID, SecretAccessKey: emulator.DefaultSecretAccessKey},
		MaxRetries:  -1,
	}
}

// adminJSON calls the admin API and decodes its answer into out.
func adminJSON(t *testing.T, method, url, body string, out any) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, errOut := runToEnd(t, "-version")
	if code != 0 || out != "cloud-emulator "+testVersion+"\n" || errOut != "" {
		t.Errorf("-version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// testSeed is a seed with a user, its keys, a domain and a fault.
const testSeed = `{
  "format_version": 1,
  "users": [{
    "name": "billing-app", "path": "/apps/", "tags": {"team": "billing"},
    "policies": ["arn:cloud:identity::cloud:policy/ModelsLimitedAccess"],
    "keys": [
      {"status": "Inactive", "age_days": 80, "credential_age_days": 90},
      {"age_days": 10, "credential_age_days": 90}
    ]
  }],
  "domains": [{"name": "orders", "config": {"OffPeakWindowOptions": {"Enabled": true, "OffPeakWindow": {"WindowStartTime": {"Hours": 0, "Minutes": 0}}}}}],
  "faults": [{"kind": "verdict", "domain": "orders", "deployment_type": "blue/green", "times": -1}]
}`

// The emulator started as a module's test starts it: the seed, the clock
// held at a given time and a fault from a flag are what the APIs show; a
// reset puts that start back; SIGTERM ends it with exit 0, and stdout held
// the ready line only.
func TestSeededStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seedFile, urlFile := filepath.Join(dir, "seed.json"), filepath.Join(dir, "url")
	if err := os.WriteFile(seedFile, []byte(testSeed), 0o600); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	s := startBinary(t, "-seed", seedFile, "-clock", at.Format(time.RFC3339), "-clock-held", "-url-file", urlFile,
		"-fault", "kind=throttle,service=identity,operation=GetUser,times=1")
	if b, err := os.ReadFile(urlFile); err != nil || string(b) != s.url+"\n" {
		t.Errorf("url file: %q, %v; want %s", b, err, s.url)
	}
	ctx := context.Background()
	ids, err := identityclient.New(clientConfig(), s.url)
	if err != nil {
		t.Fatal(err)
	}
	// The fault from the flag, then the seeded user.
	if _, err := ids.GetUser(ctx, "billing-app"); !errors.Is(err, client.ErrThrottled) {
		t.Errorf("first GetUser: %v; want the -fault's throttling", err)
	}
	u, err := ids.GetUser(ctx, "billing-app")
	if err != nil {
		t.Fatal(err)
	}
	if u.Path != "/apps/" || len(u.Tags) != 1 || u.Tags[0].Key != "team" || u.Tags[0].Value != "billing" {
		t.Errorf("seeded user: path %s, tags %v", u.Path, u.Tags)
	}
	keys, err := ids.ListServiceSpecificCredentials(ctx, "billing-app", "")
	if err != nil {
		t.Fatal(err)
	}
	day := 24 * time.Hour
	if len(keys.Credentials) != 2 ||
		keys.Credentials[0].Status != "Inactive" || !keys.Credentials[0].CreateDate.Equal(at.Add(-80*day)) || !keys.Credentials[0].ExpirationDate.Equal(at.Add(10*day)) ||
		keys.Credentials[1].Status != "Active" || !keys.Credentials[1].ExpirationDate.Equal(at.Add(80*day)) {
		t.Errorf("seeded keys: %+v", keys.Credentials)
	}
	// The clock stands at -clock (the service's Date says so too).
	if !keys.ServerTime.Equal(at) {
		t.Errorf("the service's clock: %s, want %s", keys.ServerTime, at)
	}

	// The seed's fault: the domain's dry runs say blue/green, and the
	// findings follow (12:00 is outside its 00:00-10:00 off-peak window).
	search, err := searchclient.New(clientConfig(), s.url)
	if err != nil {
		t.Fatal(err)
	}
	dry, verbose := true, "Verbose"
	out, err := search.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{
		DomainName: "orders", DryRun: &dry, DryRunMode: &verbose,
		Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 3}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if *out.DryRunResults.DeploymentType != "blue/green" {
		t.Errorf("dry run verdict: %s, want the seeded blue/green", *out.DryRunResults.DeploymentType)
	}
	// The dry run completes only when the held clock is moved.
	if *out.DryRunProgressStatus.DryRunStatus == "completed" {
		t.Errorf("a Verbose dry run completed with the clock held")
	}
	adminJSON(t, http.MethodPost, s.url+"/_admin/clock", `{"advance": "2s"}`, nil)
	progress, err := search.DescribeDryRunProgress(ctx, searchclient.DescribeDryRunProgressInput{DomainName: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	if st := progress.DryRunProgressStatus; *st.DryRunStatus != "completed" || len(st.ValidationFailures) != 1 || *st.ValidationFailures[0].Code != "ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK" {
		t.Errorf("after the clock's advance: %s, %+v", *st.DryRunStatus, st.ValidationFailures)
	}

	// A reset puts the start back: the seeded state (not the demo data),
	// the clock where -clock put it, held.
	adminJSON(t, http.MethodPost, s.url+"/_admin/reset", "", nil)
	var clock struct {
		Now  time.Time `json:"now"`
		Held bool      `json:"held"`
	}
	adminJSON(t, http.MethodGet, s.url+"/_admin/clock", "", &clock)
	if !clock.Now.Equal(at) || !clock.Held {
		t.Errorf("clock after a reset: %s held %v; want %s held", clock.Now, clock.Held, at)
	}
	var domains struct{ Domains []string }
	adminJSON(t, http.MethodGet, s.url+"/_admin/search/domains", "", &domains)
	if strings.Join(domains.Domains, ",") != "orders" {
		t.Errorf("domains after a reset: %v; want the seeded orders only", domains.Domains)
	}
	if _, err := ids.GetUser(ctx, "billing-app"); !errors.Is(err, client.ErrThrottled) {
		t.Errorf("GetUser after a reset: %v; want the -fault's throttling again", err)
	}

	code, rest := s.stop(t, syscall.SIGTERM)
	if code != 0 {
		t.Errorf("exit %d after SIGTERM; stderr:\n%s", code, s.stderr)
	}
	if rest != "" {
		t.Errorf("stdout after the ready line: %q; request lines go to stderr", rest)
	}
	if !strings.Contains(s.stderr.String(), "identity GetUser") {
		t.Errorf("no request line on stderr:\n%s", s.stderr)
	}
}

// SIGINT (Ctrl-C) ends it cleanly too, and -quiet prints no request line.
func TestInterruptQuiet(t *testing.T) {
	t.Parallel()
	s := startBinary(t, "-quiet")
	adminJSON(t, http.MethodGet, s.url+"/_admin/health", "", nil)
	if code, rest := s.stop(t, os.Interrupt); code != 0 || rest != "" {
		t.Errorf("SIGINT: exit %d, stdout after the ready line %q", code, rest)
	}
	if s.stderr.String() != "" {
		t.Errorf("-quiet printed:\n%s", s.stderr)
	}
}

// A bad seed or fault is refused with its path before anything listens:
// no ready line, no URL file, exit 1.
func TestBadStartRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seedFile, urlFile := filepath.Join(dir, "fixture.json"), filepath.Join(dir, "url")
	bad := `{"format_version": 1, "users": [{"name": "a"}, {"name": "b"}, {"name": "c", "keys": [{"status": "Enabled", "credential_age_days": 30}]}]}`
	if err := os.WriteFile(seedFile, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-seed", seedFile}, `cloud-emulator: fixture.json: users[2].keys[0].status: "Enabled" is not Active or Inactive` + "\n"},
		{[]string{"-seed", filepath.Join(dir, "missing.json")}, "cloud-emulator: open " + filepath.Join(dir, "missing.json") + ": no such file or directory\n"},
		{[]string{"-fault", "kind=throttle,times=x"}, `cloud-emulator: -fault[0].times: expected a whole number, not "x"` + "\n"},
		{[]string{"-fault", "kind=verdict,deployment_type=sideways"}, `cloud-emulator: -fault[0] "kind=verdict,deployment_type=sideways": deployment_type "sideways" is not one of [blue/green dynamic none]` + "\n"},
		{[]string{"-clock", "noon"}, `cloud-emulator: -clock "noon": want an RFC 3339 time such as 2026-01-02T15:04:05Z` + "\n"},
	} {
		code, out, errOut := runToEnd(t, append(tc.args, "-url-file", urlFile)...)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.args, code, out, errOut, tc.want)
		}
		if _, err := os.Stat(urlFile); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: the URL file was written", tc.args)
		}
	}
}

// A non-loopback listen address is refused, unless -allow-non-loopback,
// which warns and then answers requests that name any host.
func TestNonLoopback(t *testing.T) {
	t.Parallel()
	code, out, errOut := runToEnd(t, "-listen", "0.0.0.0:0")
	if code != 1 || out != "" || !strings.Contains(errOut, `-listen "0.0.0.0:0": not a loopback address`) {
		t.Errorf("without the flag: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	s := startBinary(t, "-listen", "0.0.0.0:0", "-allow-non-loopback", "-quiet")
	// The process wrote the warning before the ready line, but its stderr
	// reaches the test through a copying goroutine: wait for it.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(s.stderr.String(), "WARNING: -allow-non-loopback"); {
		if time.Now().After(deadline) {
			t.Fatalf("no warning on stderr: %q", s.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	port := s.url[strings.LastIndex(s.url, ":")+1:]
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://127.0.0.1:"+port+"/_admin/health", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "emulator.ci.internal:" + port // as another container names it
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a request naming another host: %d", resp.StatusCode)
	}
	if code, _ := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}
