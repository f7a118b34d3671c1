package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Teams run Terraform on fresh CI runners and many configurations on one
// machine. The record of a create in flight lives in the identity service,
// so the next apply recovers on a runner with a new HOME, no cache and
// another working-directory path, and a configuration never touches the
// keys another one holds.

var freshHead = []string{"INTERRUPTED BY", "DURING", "NEXT APPLY", "KEYS", "ORPHANS", "DUPLICATES", "CREATES SENT", "STATE VALUE ACCEPTED", "NEXT APPLY TOOK"}

// freshRunner is a new working directory, at another path, with a HOME and
// cache of its own, holding w's configuration and state: the next CI job.
func freshRunner(t *testing.T, w *workdir) *workdir {
	t.Helper()
	f := newWorkdir(t)
	home := t.TempDir()
	f.ws.Env = append(f.ws.Env, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	for _, name := range []string{"main.tf", "terraform.tfstate"} {
		b, err := os.ReadFile(filepath.Join(w.dir, name)) //nolint:gosec // the test's own directory
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(f.dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// interruptDuring holds op in the emulator, then sends SIGINT to terraform
// (a Ctrl-C, a cancelled CI job) and waits for the run to end and the held
// request to land. It returns the run's output.
func interruptDuring(t *testing.T, e *emu, w *workdir, op string) string {
	t.Helper()
	run := startHeld(t, e, w, op)
	if err := run.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	awaitFailed(t, run, "SIGINT")
	awaitLanded(t, e, op, "SIGINT")
	return run.out.String()
}

// TestKeys_freshRunnerAfterInterruptedCreate: kill -9 of terraform or of
// the provider, or SIGINT, while the key create is in flight; the service
// creates the key. The next plain apply, in the same directory or on a
// fresh runner, adopts it: one key, the one in state, working.
func TestKeys_freshRunnerAfterInterruptedCreate(t *testing.T) {
	needProc(t)
	for _, how := range []string{"kill -9 of the provider", "kill -9 of terraform", "SIGINT to terraform"} {
		for _, fresh := range []bool{false, true} {
			next := "same directory"
			if fresh {
				next = "fresh runner"
			}
			t.Run(how+", "+next, func(t *testing.T) {
				t.Parallel()
				e := newEmu(t)
				w := newWorkdir(t)
				user := "runner"
				userFirst(t, e, w, user)
				w.write(keysConfig(e, user, "1", ""))
				switch how {
				case "SIGINT to terraform":
					out := interruptDuring(t, e, w, "CreateServiceSpecificCredential")
					flat := strings.Join(strings.Fields(out), " ")
					if !strings.Contains(flat, "the next apply, on this machine or any other, waits until") {
						t.Errorf("the interrupted apply does not say what the next apply does:\n%s", out)
					}
				default:
					killDuring(t, e, w, "CreateServiceSpecificCredential", how == "kill -9 of terraform")
				}
				ids := e.Identity.CredentialIDs(user)
				if len(ids) != 1 {
					t.Fatalf("after the interruption the user holds keys %v, want the 1 the create made", ids)
				}
				orphan := ids[0]
				if len(pendingRecords(e)) != 1 {
					t.Fatalf("records on the user after the interruption: %v, want the create's", pendingRecords(e))
				}
				if fresh {
					w = freshRunner(t, w)
				}
				applied, took := timedApply(t, w, "the plain apply after the interruption")
				id, _ := oneWorkingKey(t, e, w, user) // 1 key, in state, its value accepted
				if id != orphan {
					t.Fatalf("state holds key %s, want the interrupted create's %s adopted", id, orphan)
				}
				saysAdopted(t, applied, id)
				creates := e.Sent("CreateServiceSpecificCredential")
				if creates != 1 {
					t.Fatalf("creates sent %d, want 1 (the interrupted one, adopted)", creates)
				}
				settled(t, e, w)
				addRow("keys: interrupted create -> next apply", freshHead, how, "CreateServiceSpecificCredential", next,
					"1", "0", "0", strconv.Itoa(creates), "yes", took.Round(100*time.Millisecond).String())
			})
		}
	}
}

// TestKeys_interruptedReset: SIGINT while a reset is in flight; the next
// apply on a fresh runner resets again and stores a working value.
func TestKeys_interruptedReset(t *testing.T) {
	needProc(t)
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	user := "reset-interrupted"
	id, before := keyToReset(t, e, w, user)
	interruptDuring(t, e, w, "ResetServiceSpecificCredential")
	f := freshRunner(t, w)
	_, took := timedApply(t, f, "the apply on a fresh runner after SIGINT")
	sameKeyNewValue(t, e, f, user, id, before)
	settled(t, e, f)
	addRow("keys: interrupted create -> next apply", freshHead, "SIGINT to terraform", "ResetServiceSpecificCredential", "fresh runner",
		"1", "0", "0", strconv.Itoa(e.Sent("CreateServiceSpecificCredential")), "yes", took.Round(100*time.Millisecond).String())
}

// TestUsers_freshRunnerAfterInterruptedCreate: SIGINT while CreateUser is
// in flight; the next apply on a fresh runner adopts the user.
func TestUsers_freshRunnerAfterInterruptedCreate(t *testing.T) {
	needProc(t)
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	user := "user-interrupted"
	w.write(bundleConfig(e, user, ""))
	interruptDuring(t, e, w, "CreateUser")
	orphan := apiUser(t, e, user)
	if orphan == nil || userRecord(e, user) == "" {
		t.Fatalf("after SIGINT: user %+v with record %q, want the user the create made, carrying its record", orphan, userRecord(e, user))
	}
	f := freshRunner(t, w)
	out, took := timedApply(t, f, "the apply on a fresh runner after SIGINT")
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "Warning: Identity User Adopted") {
		t.Errorf("the apply does not say that it adopted the user:\n%s", out)
	}
	converged(t, e, f, user, orphan.UserID)
	addRow("keys: interrupted create -> next apply", freshHead, "SIGINT to terraform", "CreateUser", "fresh runner",
		strconv.Itoa(len(e.Identity.CredentialIDs(user))), "0", "0", strconv.Itoa(e.Sent("CreateServiceSpecificCredential")), "yes", took.Round(100*time.Millisecond).String())
}

// twoConfigs is a key for user in its own directory; age sets its
// credential_age_days.
func twoConfigs(e *emu, user string, age int) string {
	return e.providerBlock("") + fmt.Sprintf(`
resource "cloud_identity_service_specific_credential" "k" {
  user_name           = %q
  credential_age_days = %d
}
`, user, age)
}

// TestKeys_twoConfigurationsOneUser: directory A holds the production key
// of user team-bot, directory B a batch key of the same user. Plain
// applies, concurrent and in sequence, and B's destroy never touch A's
// key.
func TestKeys_twoConfigurationsOneUser(t *testing.T) {
	t.Parallel()
	e := newEmu(t)
	const user = "team-bot"
	base := newWorkdir(t)
	base.write(e.providerBlock("") + fmt.Sprintf("resource \"cloud_identity_user\" \"u\" {\n  user_name = %q\n}\n", user))
	mustApply(t, base, "the user")

	a, b := newWorkdir(t), newWorkdir(t)
	a.write(twoConfigs(e, user, 30))
	b.write(twoConfigs(e, user, 7))
	rounds := 0
	check := func(what string) {
		t.Helper()
		rounds++
		ids := e.Identity.CredentialIDs(user)
		if len(ids) != 2 {
			t.Fatalf("%s: user holds keys %v, want A's and B's", what, ids)
		}
		for name, w := range map[string]*workdir{"A": a, "B": b} {
			st := w.state()[keyAddr]
			id, _ := st["service_specific_credential_id"].(string)
			value, _ := st["service_api_key_value"].(string)
			if info, ok := e.Identity.LookupServiceAPIKey(value); !ok || info.CredentialID != id || info.Status != "Active" {
				t.Fatalf("%s: %s's key %s: its value in state is refused", what, name, id)
			}
			if out, changes, err := w.plan(); err != nil || changes {
				t.Fatalf("%s: %s's plan is not empty (err %v):\n%s", what, name, err, out)
			}
		}
		if left := pendingRecords(e); len(left) != 0 {
			t.Fatalf("%s: records left: %v", what, left)
		}
	}

	// Concurrently, from nothing.
	var wg sync.WaitGroup
	outs := make([]string, 2)
	errs := make([]error, 2)
	for i, w := range []*workdir{a, b} {
		wg.Go(func() { outs[i], errs[i] = w.apply() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("concurrent apply %d: %v\n%s", i, err, outs[i])
		}
	}
	check("after concurrent applies")
	aID, _ := a.state()[keyAddr]["service_specific_credential_id"].(string)
	aValue, _ := a.state()[keyAddr]["service_api_key_value"].(string)

	// In sequence: B destroyed and applied again, three times.
	for i := range 3 {
		if out, err := b.destroy(); err != nil {
			t.Fatalf("destroy of B (round %d): %v\n%s", i, err, out)
		}
		mustApply(t, b, "B again")
		check(fmt.Sprintf("after B's sequential apply %d", i+1))
	}
	if id, _ := a.state()[keyAddr]["service_specific_credential_id"].(string); id != aID {
		t.Fatalf("A's key changed from %s to %s", aID, id)
	}
	if info, ok := e.Identity.LookupServiceAPIKey(aValue); !ok || info.CredentialID != aID {
		t.Fatal("A's value was changed by B's runs")
	}
	resets, deletesOfA := 0, 0
	if !slices.Contains(e.Identity.CredentialIDs(user), aID) {
		deletesOfA = 1
	}
	for _, c := range e.Calls() {
		if c.Operation == "ResetServiceSpecificCredential" {
			resets++
		}
	}
	if resets != 0 {
		t.Fatalf("%d resets sent: a key was adopted", resets)
	}
	addRow("keys: two configurations, one user", []string{"RUNS OF B", "KEYS", "A's KEY RESET", "A's KEY DELETED", "A's VALUE ACCEPTED", "B's VALUE ACCEPTED"},
		fmt.Sprintf("1 concurrent with A, 3 in sequence (destroy + apply); %d checks", rounds), "2", strconv.Itoa(resets), strconv.Itoa(deletesOfA), "yes", "yes")
}
