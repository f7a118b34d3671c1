package reliability

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// Every crash point of every write path, enumerated: for each path, an
// uninterrupted run lists the calls its apply makes (the emulator's request
// log, so a new call is covered without a change here); then, for each call
// k and each of its two crash points (before the service has call k; after
// the service applied it, its answer held), a trial stops the apply there
// with SIGKILL of terraform and its provider at once (the runner died),
// runs the next plain apply in the same directory or on a fresh runner, and
// checks the promises on the emulator.

var crashHead = []string{"PATH", "K", "CALL", "CRASH POINT", "NEXT APPLY", "OUTCOME"}

// crashTable names the report's table; the fast subset and the whole write
// to the same one.
const crashTable = "crash points: path x call x point -> next apply"

// crashPath is one write path: prepare brings the emulator and w to just
// before the write (earlier applies, the bystander) and writes the
// configuration whose apply is the write; check asserts its promises after
// the recovery apply.
type crashPath struct {
	name    string
	user    string
	prepare func(t *testing.T, e *emu, w *workdir) *bystander
	check   func(t *testing.T, e *emu, w *workdir, by *bystander) []string
}

// crashCall is call k of a path's apply: the n-th request (from 0) of its
// operation, dry run or real, in the run.
type crashCall struct {
	service, op string
	dryRun      bool
	n           int
}

func (c crashCall) String() string {
	s := c.service + ":" + c.op
	if c.dryRun {
		s += " (dry run)"
	}
	if c.n > 0 {
		s += " #" + strconv.Itoa(c.n+1)
	}
	return s
}

// crashPoints are the two points of a call a kill can fall on.
var crashPoints = []struct {
	name string
	kind emulator.FaultKind
}{
	{"before the service has it", emulator.FaultHoldBefore},
	{"applied, answer held", emulator.FaultHoldAnswer},
}

// keyConfig is the configuration the identity paths write: a user, the
// managed policy attached when attach, and when key is not "" a key whose
// block holds key's arguments.
func keyConfig(e *emu, user string, attach bool, key string) string {
	s := e.providerBlock("") + fmt.Sprintf(`
resource "cloud_identity_user" "u" {
  user_name     = %q
  force_destroy = true
}
`, user)
	if attach {
		s += fmt.Sprintf(`
resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = cloud_identity_user.u.user_name
  policy_arn = %q
}
`, limitedAccess)
	}
	if key != "" {
		s += fmt.Sprintf(`
resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  credential_age_days = 30
%s}
`, key)
	}
	return s
}

// bystander is another configuration, in a directory of its own, holding
// a key the crashed configuration must never touch.
type bystander struct {
	w         *workdir
	user      string
	id, value string
}

// newBystander applies, in a directory of its own, a key for user (and the
// user and its policy when own).
func newBystander(t *testing.T, e *emu, user string, own bool) *bystander {
	t.Helper()
	b := &bystander{w: newWorkdir(t), user: user}
	if own {
		b.w.write(keyConfig(e, user, true, "  reset_triggers = { rotation = \"b\" }\n"))
	} else {
		b.w.write(twoConfigs(e, user, 30))
	}
	mustApply(t, b.w, "the bystander's apply")
	st := b.w.state()[keyAddr]
	b.id, _ = st["service_specific_credential_id"].(string)
	b.value, _ = st["service_api_key_value"].(string)
	return b
}

// untouched lists how the bystander's key was touched: gone, its value
// refused at the runtime, or its plan no longer empty.
func (b *bystander) untouched(t *testing.T, e *emu) []string {
	t.Helper()
	var bad []string
	if !slices.Contains(e.Identity.CredentialIDs(b.user), b.id) {
		bad = append(bad, "the other configuration's key "+b.id+" was deleted")
	}
	if code, _ := converse(t, e, b.value); code != http.StatusOK {
		bad = append(bad, fmt.Sprintf("the other configuration's key value is refused at the runtime (%d)", code))
	}
	if out, changes, err := b.w.plan(); err != nil || changes {
		bad = append(bad, "the other configuration's plan is not empty: "+shorten(errorSummaries(out)+planSummary(out), 200))
	}
	return bad
}

// converse calls the model runtime with key as its bearer key; it returns
// the status and the body.
func converse(t *testing.T, e *emu, key string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.URL+"/model/crash-check/converse",
		strings.NewReader(`{"messages":[{"role":"user","content":[{"text":"still there?"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var body bytes.Buffer
	_, _ = body.ReadFrom(resp.Body)
	return resp.StatusCode, body.String()
}

func planSummary(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Plan:") {
			return l
		}
	}
	return ""
}

// identityHeld checks the identity paths' promises: one user, the one in
// state; every key of the user is in the state or the bystander's (none
// orphaned, none duplicated); the state's key value is the key's and the
// runtime answers it as its status says; the policy attached when wanted;
// no record of a create left; the plan empty; the bystander untouched.
func identityHeld(wantKey, attach bool) func(t *testing.T, e *emu, w *workdir, by *bystander) []string {
	return func(t *testing.T, e *emu, w *workdir, by *bystander) []string {
		t.Helper()
		user := "crash"
		var bad []string
		if n := countFold(e.Identity.UserNames(), user); n != 1 {
			return []string{fmt.Sprintf("%d users named %s", n, user)}
		}
		st := w.state()
		if u := apiUser(t, e, user); st[userAddr] == nil || u == nil || st[userAddr]["user_id"] != u.UserID {
			bad = append(bad, "the state does not hold the service's user")
		}
		var mine []string
		for _, id := range e.Identity.CredentialIDs(user) {
			if by == nil || id != by.id {
				mine = append(mine, id)
			}
		}
		k := st[keyAddr]
		switch {
		case !wantKey && len(mine) != 0:
			bad = append(bad, fmt.Sprintf("keys %v left after the key's delete", mine))
		case wantKey && k == nil:
			bad = append(bad, fmt.Sprintf("the state holds no key; the user holds %v", mine))
		case wantKey && len(mine) != 1:
			bad = append(bad, fmt.Sprintf("the user holds keys %v besides the other configuration's, want 1 (an orphan or a duplicate)", mine))
		case wantKey:
			id, _ := k["service_specific_credential_id"].(string)
			value, _ := k["service_api_key_value"].(string)
			status, _ := k["status"].(string)
			if id != mine[0] {
				bad = append(bad, fmt.Sprintf("the state holds key %s, the service %s", id, mine[0]))
			}
			want := http.StatusOK
			if status != "Active" {
				want = http.StatusForbidden
			}
			if code, body := converse(t, e, value); code != want || (want == http.StatusForbidden && !strings.Contains(body, status)) {
				bad = append(bad, fmt.Sprintf("the runtime answers the state's %s key value with %d, want %d", status, code, want))
			}
			if info, ok := e.Identity.LookupServiceAPIKey(value); !ok || info.CredentialID != id {
				bad = append(bad, "the state's key value is not the key's")
			}
		}
		if got := e.Identity.AttachedPolicyArns(user); attach != (len(got) == 1) {
			bad = append(bad, fmt.Sprintf("policies %v attached", got))
		}
		if left := pendingRecords(e); len(left) != 0 {
			bad = append(bad, fmt.Sprintf("records of creates left: %v", left))
		}
		if out, changes, err := w.plan(); err != nil || changes {
			bad = append(bad, "the plan after is not empty: "+shorten(errorSummaries(out)+planSummary(out), 300))
		}
		if by != nil {
			bad = append(bad, by.untouched(t, e)...)
		}
		return bad
	}
}

// crashPaths are the write paths, each from the state its prepare leaves.
func crashPaths() []crashPath {
	const user = "crash"
	key := func(extra string) string { return "  reset_triggers = { rotation = \"1\" }\n" + extra }
	// withKey applies the user, its policy and its key (key's arguments),
	// adds the bystander's key on the same user, and writes next.
	withKey := func(attach bool, first, next string) func(t *testing.T, e *emu, w *workdir) *bystander {
		return func(t *testing.T, e *emu, w *workdir) *bystander {
			t.Helper()
			w.write(keyConfig(e, user, attach, first))
			mustApply(t, w, "the apply before the write")
			// A renewal that creates before it destroys needs the
			// user's second key slot: the bystander has a user of its own.
			byUser, own := user, false
			if strings.Contains(next, "create_before_destroy") {
				byUser, own = "bystander", true
			}
			by := newBystander(t, e, byUser, own)
			w.write(keyConfig(e, user, true, next))
			return by
		}
	}
	renew := "  renew_before_days = 7\n  lifecycle {\n    create_before_destroy = true\n  }\n"
	return []crashPath{
		{name: "user create", user: user, prepare: func(t *testing.T, e *emu, w *workdir) *bystander {
			t.Helper()
			by := newBystander(t, e, "bystander", true)
			w.write(keyConfig(e, user, true, key("")))
			return by
		}, check: identityHeld(true, true)},
		{name: "key create", user: user, prepare: func(t *testing.T, e *emu, w *workdir) *bystander {
			t.Helper()
			w.write(keyConfig(e, user, true, ""))
			mustApply(t, w, "the apply of the user")
			by := newBystander(t, e, user, false)
			w.write(keyConfig(e, user, true, key("")))
			return by
		}, check: identityHeld(true, true)},
		{name: "key reset", user: user, prepare: withKey(true, key(""), "  reset_triggers = { rotation = \"2\" }\n"), check: identityHeld(true, true)},
		{name: "key renewal", user: user, prepare: func(t *testing.T, e *emu, w *workdir) *bystander {
			t.Helper()
			by := withKey(true, key(renew), key(renew))(t, e, w)
			// 24 days later: 6 days left, within renew_before_days.
			e.Clock().Advance(24 * 24 * time.Hour)
			return by
		}, check: identityHeld(true, true)},
		{name: "key status change", user: user, prepare: withKey(true, key(""), key("  status = \"Inactive\"\n")), check: identityHeld(true, true)},
		{name: "key delete", user: user, prepare: withKey(true, key(""), ""), check: identityHeld(false, true)},
		{name: "policy attachment", user: user, prepare: withKey(false, key(""), key("")), check: identityHeld(true, true)},
		{name: "domain change", prepare: func(t *testing.T, e *emu, w *workdir) *bystander {
			t.Helper()
			if err := e.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: 300 * time.Millisecond, Dynamic: 300 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 4 }"))
			mustApply(t, w, "the apply before the change")
			by := newBystander(t, e, "bystander", true)
			w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 5 }"))
			return by
		}, check: domainHeld},
	}
}

// domainHeld checks the domain path: the domain has the configured hour,
// the change was sent once (what was sent before the crash is never sent
// again), the state holds it, the plan is empty.
func domainHeld(t *testing.T, e *emu, w *workdir, by *bystander) []string {
	t.Helper()
	var bad []string
	if d, ok := e.Search.Domain(emusearch.DemoDomainName); !ok || d.SnapshotOptions == nil || d.SnapshotOptions.AutomatedSnapshotStartHour == nil || *d.SnapshotOptions.AutomatedSnapshotStartHour != 5 {
		bad = append(bad, "the domain does not have the configured snapshot hour")
	}
	sent := 0
	for _, r := range e.Search.UpdateRecords() {
		if !r.DryRun {
			sent++
		}
	}
	if sent != 2 {
		bad = append(bad, fmt.Sprintf("%d real changes sent, want 2 (the first apply's and the change, once)", sent))
	}
	st := w.state()["cloud_search_domain_config.d"]
	if so, _ := st["snapshot_options"].(map[string]any); so == nil || fmt.Sprint(so["automated_snapshot_start_hour"]) != "5" {
		bad = append(bad, fmt.Sprintf("the state holds snapshot_options %v", st["snapshot_options"]))
	}
	if out, changes, err := w.plan(); err != nil || changes {
		bad = append(bad, "the plan after is not empty: "+shorten(errorSummaries(out)+planSummary(out), 300))
	}
	return append(bad, by.untouched(t, e)...)
}

// enumerate runs p uninterrupted on an emulator of its own and lists the
// calls of the write's apply from the emulator's request log. A call the
// same as the one before it is a poll of the same thing (the progress of a
// dry run or a change): its crash points are the first one's.
func enumerate(t *testing.T, p crashPath) []crashCall {
	t.Helper()
	e, w := newEmu(t), newWorkdir(t)
	by := p.prepare(t, e, w)
	mark := len(e.Calls())
	mustApply(t, w, "the uninterrupted write")
	log := e.Calls()[mark:]
	if bad := p.check(t, e, w, by); len(bad) != 0 {
		t.Fatalf("the uninterrupted %s does not hold: %s", p.name, strings.Join(bad, "; "))
	}
	return callsOf(log)
}

// callsOf lists the calls of log as crash cells: call k is the n-th
// request of its operation; a call the same as the one before it is a poll
// and shares the first one's cells.
func callsOf(log []emulator.Call) []crashCall {
	var calls []crashCall
	seen := map[crashCall]int{}
	var last emulator.Call
	for i, c := range log {
		if i > 0 && c.Service == last.Service && c.Operation == last.Operation && c.DryRun == last.DryRun {
			continue
		}
		last = c
		k := crashCall{service: c.Service, op: c.Operation, dryRun: c.DryRun}
		n := seen[k]
		seen[k]++
		k.n = n
		calls = append(calls, k)
	}
	return calls
}

// crashCells runs every cell of p that want keeps (k from 1, the point and
// whether the next apply runs on a fresh runner).
func crashCells(t *testing.T, p crashPath, want func(k int, c crashCall, point int, fresh bool) bool) {
	calls := enumerate(t, p)
	t.Logf("%s: %d calls: %v", p.name, len(calls), calls)
	for k, c := range calls {
		for pi, point := range crashPoints {
			for _, fresh := range []bool{false, true} {
				if !want(k+1, c, pi, fresh) {
					continue
				}
				next := "same directory"
				if fresh {
					next = "fresh runner"
				}
				t.Run(fmt.Sprintf("%d %s %s, %s", k+1, c, point.name, next), func(t *testing.T) {
					t.Parallel()
					outcome := crashTrial(t, p, c, point.kind, fresh)
					addRow(crashTable, crashHead, p.name, fmt.Sprintf("%02d", k+1), c.String(), point.name, next, outcome)
				})
			}
		}
	}
}

// crashTrial stops p's write at call c's point with SIGKILL, runs the next
// apply, checks the promises and returns the outcome for the table.
func crashTrial(t *testing.T, p crashPath, c crashCall, kind emulator.FaultKind, fresh bool) string {
	t.Helper()
	e, w := newEmu(t), newWorkdir(t)
	by := p.prepare(t, e, w)
	dry := "exclude"
	if c.dryRun {
		dry = "only"
	}
	if err := e.InjectFault(emulator.Fault{Service: c.service, Operation: c.op, DryRun: dry, Kind: kind, Skip: c.n}); err != nil {
		t.Fatal(err)
	}
	run := w.startApply()
	if !awaitHolding(e, run) {
		return notReached(t, c, run)
	}
	killRunner(t, run)
	for deadline := time.Now().Add(time.Minute); len(e.Faults()) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the held %s was never let go after the kill", c)
		}
	}
	if fresh {
		w = freshRunner(t, w)
	}
	var l lost
	if p.user != "" {
		var held []string
		if by != nil {
			held = append(held, by.id)
		}
		l = lostBy(t, e, w, p.user, held...)
	}
	out, err := w.apply()
	outcome := "ok"
	var bad []string
	if !l.none() {
		out, outcome, bad, err = l.followAdvice(t, e, w, out, err)
	}
	switch {
	case len(bad) != 0:
	case err != nil:
		bad = append(bad, "the next apply failed: "+shorten(errorSummaries(out), 300))
	default:
		bad = p.check(t, e, w, by)
	}
	if len(bad) != 0 {
		t.Errorf("%s, crash at %s (%s): %s\n%s", p.name, c, kind, strings.Join(bad, "; "), tail(out, 30))
		return "FAIL: " + strings.Join(bad, "; ")
	}
	return outcome
}

// notReached is the outcome of a cell whose call the run never made: a
// repeat of a call (a poll, whose count follows the service's pace) this
// run made fewer times has no such cell; any other is a failure.
func notReached(t *testing.T, c crashCall, run *background) string {
	t.Helper()
	if c.n > 0 {
		return "n/a: this run made " + c.op + " fewer times"
	}
	t.Errorf("the apply never made call %s:\n%s", c, tail(run.out.String(), 20))
	return "FAIL: call not reached"
}

// awaitHolding waits until the emulator holds the faulted call, or the run
// ends without making it.
func awaitHolding(e *emu, run *background) bool {
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if f := e.Faults(); len(f) == 1 && f[0].Holding {
			return true
		}
		select {
		case err := <-run.done:
			run.done <- err
			if f := e.Faults(); len(f) == 1 && f[0].Holding {
				return true
			}
			return false
		default:
		}
	}
	return false
}

// killRunner sends SIGKILL to terraform and its provider at once, as a
// runner that dies does, and waits for both to end.
func killRunner(t *testing.T, run *background) {
	t.Helper()
	pids := providerPIDs(run.cmd.Process.Pid)
	for _, pid := range append([]int{run.cmd.Process.Pid}, pids...) {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
			t.Fatalf("kill -9 %d: %v", pid, err)
		}
	}
	if err := <-run.done; err == nil {
		t.Fatalf("the killed apply exited 0:\n%s", run.out.String())
	}
	for _, pid := range pids {
		awaitExit(t, pid)
	}
}

// crashAll is set by make test-crash (RELIABILITY_CRASH=all): every cell
// runs; make test runs the fast subset (inFastSubset).
func crashAll() bool { return os.Getenv("RELIABILITY_CRASH") == "all" }

func TestCrashPoints(t *testing.T) {
	needProc(t)
	for _, p := range crashPaths() {
		if !crashAll() && fastWrites[p.name] == "" {
			continue // no cell of it in the fast subset
		}
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			crashCells(t, p, func(k int, c crashCall, point int, fresh bool) bool {
				return crashAll() || inFastSubset(p.name, c, point, fresh)
			})
		})
	}
}

// fastWrites is, for each path in make test's fast subset, its write: the
// call that changes what the configuration holds.
var fastWrites = map[string]string{
	"user create":       "CreateUser",
	"key create":        "CreateServiceSpecificCredential",
	"key reset":         "ResetServiceSpecificCredential",
	"key renewal":       "CreateServiceSpecificCredential",
	"key status change": "UpdateServiceSpecificCredential",
	"key delete":        "DeleteServiceSpecificCredential",
	"policy attachment": "AttachUserPolicy",
	"domain change":     "UpdateDomainConfig",
}

// inFastSubset keeps, in make test, the two crash points of each path's
// write with the next apply on a fresh runner (the harder of the two next
// applies), and one cell at the floor: the key create's mark applied and
// its answer held (the key marked and never saved, named by the next
// apply); make test-crash runs every cell.
func inFastSubset(path string, c crashCall, point int, fresh bool) bool {
	if !fresh || c.dryRun {
		return false
	}
	if path == "key create" && c.op == "TagUser" && c.n == 1 {
		return crashPoints[point].kind == emulator.FaultHoldAnswer
	}
	return c.n == 0 && fastWrites[path] == c.op
}
