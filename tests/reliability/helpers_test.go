package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// bundleConfig is a user with the managed policy and a key, as a team
// would give a service its model runtime key.
func bundleConfig(e *emu, user, extra string) string {
	return e.providerBlock(extra) + fmt.Sprintf(`
resource "cloud_identity_user" "u" {
  user_name     = %q
  force_destroy = true
}

resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = cloud_identity_user.u.user_name
  policy_arn = %q
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  credential_age_days = 30
}
`, user, limitedAccess)
}

// apiClient is an identity client with the emulator's credentials, as a
// user at a console has.
func apiClient(t *testing.T, e *emu) *identityclient.Client {
	t.Helper()
	c, err := identityclient.New(client.Config{Region: e.Region(), Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()}}, e.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// apiUser reads a user as any API client would; nil when there is none.
func apiUser(t *testing.T, e *emu, name string) *identityclient.User {
	t.Helper()
	u, err := apiClient(t, e).GetUser(context.Background(), name)
	if err != nil {
		return nil
	}
	return u
}

// userRecord is the record of a user create the user carries, "" for none.
func userRecord(e *emu, user string) string {
	if v, ok := e.Identity.UserTags(user)["terraform-cloud:creating-user"]; ok {
		return "creating-user=" + v
	}
	return ""
}

// converged checks that the emulator holds the bundle exactly once, the
// state holds all of it, with the user whose id is wantID, and the next plan
// is empty with no record of a create left on a user.
func converged(t *testing.T, e *emu, w *workdir, user, wantID string) {
	t.Helper()
	if n := countFold(e.Identity.UserNames(), user); n != 1 {
		t.Fatalf("%d users named %s in the emulator, want 1", n, user)
	}
	if p := e.Identity.AttachedPolicyArns(user); len(p) != 1 {
		t.Fatalf("user %s has policies %v, want 1", user, p)
	}
	st := w.state()
	for _, a := range []string{userAddr, "cloud_identity_user_policy_attachment.a", keyAddr} {
		if st[a] == nil {
			t.Fatalf("the state lacks %s", a)
		}
	}
	if got := st[userAddr]["user_id"]; got != wantID {
		t.Fatalf("the state holds user id %v, want %s (the user the killed run made)", got, wantID)
	}
	oneWorkingKey(t, e, w, user)
	settled(t, e, w)
}

// destroyed checks that a destroy removes everything, the adopted user
// included.
func destroyed(t *testing.T, e *emu, w *workdir) {
	t.Helper()
	if out, err := w.destroy(); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}
	if names := e.Identity.UserNames(); len(names) != 0 {
		t.Fatalf("users left after destroy: %v", names)
	}
}

const keyAddr = "cloud_identity_service_specific_credential.k"

// keysConfig is a user and one key; extra goes into the key's block.
func keysConfig(e *emu, user, trigger, extra string) string {
	return e.providerBlock("") + fmt.Sprintf(`
resource "cloud_identity_user" "u" {
  user_name     = %q
  force_destroy = true
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  credential_age_days = 30
  reset_triggers      = { rotation = %q }
%s}
`, user, trigger, extra)
}

func arm(t *testing.T, e *emu, f emulator.Fault) {
	t.Helper()
	if f.Service == "" {
		f.Service = "identity"
	}
	if err := e.InjectFault(f); err != nil {
		t.Fatal(err)
	}
}

// oneWorkingKey checks that user holds exactly one key, the one in state,
// and that the state's value is that key's current value; it returns the
// key's id and value.
func oneWorkingKey(t *testing.T, e *emu, w *workdir, user string) (id, value string) {
	t.Helper()
	ids := e.Identity.CredentialIDs(user)
	if len(ids) != 1 {
		t.Fatalf("user %s holds keys %v, want exactly 1 (an orphan or a duplicate)", user, ids)
	}
	st := w.state()[keyAddr]
	if st == nil {
		t.Fatalf("the state lost %s", keyAddr)
	}
	id, _ = st["service_specific_credential_id"].(string)
	value, _ = st["service_api_key_value"].(string)
	if id != ids[0] {
		t.Fatalf("the state holds key %q, the service %s", id, ids[0])
	}
	info, ok := e.Identity.LookupServiceAPIKey(value)
	if !ok || info.CredentialID != id || info.Status != "Active" {
		t.Fatalf("the state's service_api_key_value is not the current value of key %s (found %v, %+v)", id, ok, info)
	}
	return id, value
}

// settled checks that a plan after recovery is empty and that no user in
// the service still carries the record of a create in flight.
func settled(t *testing.T, e *emu, w *workdir) {
	t.Helper()
	if out, changes, err := w.plan(); err != nil || changes {
		t.Fatalf("plan after recovery is not empty (err %v):\n%s", err, out)
	}
	if left := pendingRecords(e); len(left) != 0 {
		t.Fatalf("records of creates left on users: %v", left)
	}
}

// pendingRecords lists the records of creates in flight the users carry,
// as user/tag. A record its create turned into its key's mark (the value
// "held <credential id> <time>") is no longer one.
func pendingRecords(e *emu) []string {
	var out []string
	for _, u := range e.Identity.UserNames() {
		for k, v := range e.Identity.UserTags(u) {
			if strings.HasPrefix(k, "terraform-cloud:creating") && !strings.HasPrefix(v, "held ") {
				out = append(out, u+"/"+k)
			}
		}
	}
	return out
}

// saysAdopted checks that the apply told the user which key it adopted.
func saysAdopted(t *testing.T, out, id string) {
	t.Helper()
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Warning: Identity Service Specific Credential Adopted") || !strings.Contains(flat, id) {
		t.Errorf("the apply does not say that it adopted key %s:\n%s", id, out)
	}
}

// userFirst applies user without its key: terraform killed loses the
// state of everything its apply made, so the user comes from an apply of
// its own.
func userFirst(t *testing.T, e *emu, w *workdir, user string) {
	t.Helper()
	w.write(keysConfig(e, user, "1", "  count = 0\n"))
	mustApply(t, w, "the apply of the user")
}

// timedApply is mustApply, and how long the apply took.
func timedApply(t *testing.T, w *workdir, what string) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	out := mustApply(t, w, what)
	return out, time.Since(start)
}

func mustApply(t *testing.T, w *workdir, what string) string {
	t.Helper()
	out, err := w.apply()
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, out)
	}
	return out
}

// providerPIDs are the provider processes the CLI process parent started:
// its children running the built provider.
func providerPIDs(parent int) []int {
	dirs, _ := os.ReadDir("/proc")
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")) //nolint:gosec // procfs
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(parent) {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe")); err == nil && filepath.Base(exe) == acctest.ProviderBinaryName {
			out = append(out, pid)
		}
	}
	return out
}

// killDuring is killProviderDuring, or with cli set, a SIGKILL of the
// terraform process itself, after which it waits for the orphaned provider
// process to end.
func killDuring(t *testing.T, e *emu, w *workdir, op string, cli bool) (string, time.Duration) {
	t.Helper()
	run := startHeld(t, e, w, op)
	start := time.Now()
	victims, pids := killApply(t, run, cli, "its provider was killed")
	took := time.Since(start)
	awaitLanded(t, e, op, "the kill")
	t.Logf("kill -9 of %v (cli %v; providers %v) during %s ended the run in %s:\n%s", victims, cli, pids, op, took.Round(time.Millisecond), tail(run.out.String(), 12))
	return run.out.String(), took
}

// killApply sends SIGKILL to the provider processes under the running
// apply, or with cli set to terraform itself, and waits for the run to
// fail (after names the kill in its failure); with cli it also waits for
// the orphaned provider to end: it outlives terraform for a moment, and
// the call it was making completes or fails when it goes. It returns the
// processes killed and the providers found.
func killApply(t *testing.T, run *background, cli bool, after string) (victims, pids []int) {
	t.Helper()
	pids = providerPIDs(run.cmd.Process.Pid)
	if len(pids) == 0 {
		t.Fatalf("no provider process under terraform (pid %d)", run.cmd.Process.Pid)
	}
	victims = pids
	if cli {
		victims = []int{run.cmd.Process.Pid}
	}
	for _, pid := range victims {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("kill -9 %d: %v", pid, err)
		}
	}
	awaitFailed(t, run, after)
	if cli {
		awaitExit(t, pids[0])
	}
	return victims, pids
}

// startHeld starts `terraform apply` with the first request of op held in
// the emulator (a delay fault), and returns once the emulator has it.
func startHeld(t *testing.T, e *emu, w *workdir, op string) *background {
	t.Helper()
	arm(t, e, emulator.Fault{Operation: op, Kind: emulator.FaultDelay, Delay: 2 * time.Minute})
	run := w.startApply()
	// A Times: 1 fault leaves the list when it hits.
	for deadline := time.Now().Add(time.Minute); len(e.Faults()) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the apply never sent %s:\n%s", op, run.out.String())
		}
	}
	return run
}

// awaitFailed waits for run, ended by what happened (after), to exit with
// an error.
func awaitFailed(t *testing.T, run *background, after string) {
	t.Helper()
	select {
	case err := <-run.done:
		if err == nil {
			t.Fatalf("the apply exited 0 after %s:\n%s", after, run.out.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("the apply did not end after %s:\n%s", after, run.out.String())
	}
}

// awaitLanded waits for the request of op that startHeld held to land
// (the service goes on with a request whose caller went away).
func awaitLanded(t *testing.T, e *emu, op, after string) {
	t.Helper()
	landed := func() bool {
		for _, c := range e.Calls() {
			if c.Operation == op && c.Fault == emulator.FaultDelay {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(10 * time.Second); !landed(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the held %s never landed after %s", op, after)
		}
	}
}

func needProc(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("finding the provider process uses /proc")
	}
}

// keyToReset applies user and one key in w, then writes the configuration
// with a new reset trigger; it returns the key's id and value.
func keyToReset(t *testing.T, e *emu, w *workdir, user string) (id, value string) {
	t.Helper()
	w.write(keysConfig(e, user, "1", ""))
	mustApply(t, w, "the first apply")
	id, value = oneWorkingKey(t, e, w, user)
	w.write(keysConfig(e, user, "2", ""))
	return id, value
}

// sameKeyNewValue checks that after the reset's recovery, user holds the
// key id, in state, with a working value other than before.
func sameKeyNewValue(t *testing.T, e *emu, w *workdir, user, id, before string) {
	t.Helper()
	after, value := oneWorkingKey(t, e, w, user)
	if after != id || value == before {
		t.Fatalf("after recovery: key %s (was %s), value changed %v", after, id, value != before)
	}
}

// colleagueClient is a search client with credentials of its own, so the
// records tell the colleague's requests from the provider's.
func colleagueClient(t *testing.T, e *emu) *searchclient.Client {
	t.Helper()
	const id, secret = "COLLEAGUEACCESSKEY01", "colleague-secret-access-key-0123456789"
	e.Credentials().Add(sigv4.Credential{AccessKeyID: id, SecretAccessKey: secret, Principal: "arn:cloud:identity::" + e.Account() + ":user/colleague", Account: e.Account()})
	c, err := searchclient.New(client.Config{Region: e.Region(), Credentials: client.Credentials{AccessKeyID: id, SecretAccessKey: secret}, MaxRetries: -1}, e.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// colleagueChange starts a change as a colleague would: a dynamic one
// (software updates, the snapshot hour) or a blue/green one (the instance
// type). A refusal (a change already running) is part of the game. rng
// nil picks hour 11 for the dynamic change.
func colleagueChange(t *testing.T, e *emu, c *searchclient.Client, rng *rand.Rand, dynamic bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hour := 11
	if rng != nil {
		hour = rng.IntN(24)
	}
	secs := map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": hour}}
	if !dynamic {
		// The other instance type than the domain's.
		next := "r6g.xlarge.search"
		if d, ok := e.Search.Domain("demo"); ok && d.ClusterConfig != nil && d.ClusterConfig.InstanceType != nil && *d.ClusterConfig.InstanceType == next {
			next = "r6g.large.search"
		}
		secs = map[string]any{"ClusterConfig": map[string]any{"InstanceType": next}}
	}
	_, _ = c.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{DomainName: "demo", Sections: secs, AcceptedWarnings: []string{"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"}})
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

const limitedAccess = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"

func countFold(names []string, name string) int {
	n := 0
	for _, s := range names {
		if strings.EqualFold(s, name) {
			n++
		}
	}
	return n
}

const acceptOffPeak = `accepted_warnings = ["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"]`

func domainConfig(e *emu, body string) string {
	return e.providerBlock("") + fmt.Sprintf(`
resource "cloud_search_domain_config" "d" {
  domain_name = "demo"
  %s
}
`, body)
}

// applyFollowingHeldChange runs apply on a held clock, so that its plan
// sees the change running however slow the machine; once apply follows
// the change (its first DescribeDomainChangeProgress), the clock runs an
// hour a second and the change ends within the apply. It fails the test
// when apply ends without following the change, and when apply has not
// followed it within followDeadline (then the clock runs anyway, so that
// the apply ends and the test fails rather than hangs).
func applyFollowingHeldChange(t *testing.T, e *emu, w *workdir) (string, error) {
	t.Helper()
	e.Clock().Hold()
	defer e.Clock().SetSpeed(1)
	before := e.Answered("DescribeDomainChangeProgress", false)
	followed := e.WhenCalled(t, "DescribeDomainChangeProgress", followDeadline, func() { e.Clock().SetSpeed(3600) })
	run := w.startApply()
	select {
	case err := <-run.done:
		if e.Answered("DescribeDomainChangeProgress", false) == before {
			t.Fatalf("apply ended (%v) without following the running change:\n%s", err, run.out.String())
		}
		return run.out.String(), err
	case <-followed:
		err := <-run.done
		return run.out.String(), err
	}
}

var badHead = []string{"CASE", "BLOCK", "ATTRIBUTE", "REFUSED AT", "DIAGNOSTIC"}

type jsonDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Range    *struct {
		Start struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
	Snippet *struct {
		Code string `json:"code"`
	} `json:"snippet"`
}
