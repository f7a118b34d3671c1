package reliability

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// The long-term key's create and reset, hit by lost answers, timeouts and
// a kill -9 of the provider process, through the real CLI and binary. After
// each, the emulator holds exactly one key for the user (no orphan, no
// duplicate), the state holds it, and the state's value is the key's
// current value.

var keysHead = []string{"PATH", "FAULT", "APPLIES", "KEYS", "CREATES SENT", "RESETS SENT", "TOOK"}

// killProviderDuring runs `terraform apply`, holds the first request of op
// in the emulator (a delay fault), and once the emulator has it sends
// SIGKILL to the CLI's provider process. It returns the apply's output and
// how long the kill took to end the apply. The held request then goes on,
// as a service's would: the emulator applies it when the connection drops.
func killProviderDuring(t *testing.T, e *emu, w *workdir, op string) (string, time.Duration) {
	t.Helper()
	return killDuring(t, e, w, op, false)
}

// awaitExit waits for process pid to end.
func awaitExit(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("provider %d still runs a minute after terraform was killed", pid)
		}
	}
}

// TestKeys_lostCreateAnswer: the service creates the key and the answer is
// lost; the same apply finds the key and adopts it.
func TestKeys_lostCreateAnswer(t *testing.T) {
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	w.write(keysConfig(e, "lost-create", "1", ""))
	arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultLostResponse})
	out, took := timedApply(t, w, "the apply with a lost create answer")
	id, _ := oneWorkingKey(t, e, w, "lost-create")
	saysAdopted(t, out, id)
	if c, r := e.Sent("CreateServiceSpecificCredential"), e.Sent("ResetServiceSpecificCredential"); c != 1 || r != 1 {
		t.Fatalf("creates sent %d, resets %d; want 1 create (adopted, not repeated) and 1 reset (for its value)", c, r)
	}
	settled(t, e, w)
	addRow("keys: fault -> keys in the service", keysHead, "create", "lost_response", "1", "1", "1", "1", took.Round(100*time.Millisecond).String())
}

// TestKeys_timedOutCreate: the create's answer takes longer than
// http_timeout; the key lands after the provider gave up on the answer,
// and the same apply adopts it.
func TestKeys_timedOutCreate(t *testing.T) {
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	w.write(keysConfig(e, "slow-create", "1", ""))
	arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultDelay, Delay: delayFault})
	_, took := timedApply(t, w, "the apply with a timed-out create")
	oneWorkingKey(t, e, w, "slow-create")
	if c := e.Sent("CreateServiceSpecificCredential"); c != 1 {
		t.Fatalf("creates sent %d, want 1", c)
	}
	settled(t, e, w)
	addRow("keys: fault -> keys in the service", keysHead, "create", fmt.Sprintf("delay %s > http_timeout %s", delayFault, attemptTimeout), "1", "1", "1",
		strconv.Itoa(e.Sent("ResetServiceSpecificCredential")), took.Round(100*time.Millisecond).String())
}

// TestKeys_killDuringCreate: the provider, or terraform itself, is killed
// (SIGKILL) while the create is in flight; the service creates the key
// anyway. The next plain apply adopts it instead of creating a second.
func TestKeys_killDuringCreate(t *testing.T) {
	needProc(t)
	for _, cli := range []bool{false, true} {
		name := "kill -9 of the provider"
		if cli {
			name = "kill -9 of terraform"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEmu(t)
			w := newWorkdir(t)
			user := "killed-create"
			if cli {
				user = "killed-cli"
				userFirst(t, e, w, user)
			}
			w.write(keysConfig(e, user, "1", ""))
			_, killTook := killDuring(t, e, w, "CreateServiceSpecificCredential", cli)
			if ids := e.Identity.CredentialIDs(user); len(ids) != 1 {
				t.Fatalf("after the kill the user holds keys %v, want the 1 the create made", ids)
			}
			orphan := e.Identity.CredentialIDs(user)[0]
			if st := w.state()[keyAddr]; st != nil {
				t.Fatalf("the killed apply saved the key in state: %v", st["service_specific_credential_id"])
			}
			out, took := timedApply(t, w, "the plain apply after the kill")
			id, _ := oneWorkingKey(t, e, w, user)
			if id != orphan {
				t.Fatalf("state holds key %s, want the orphan %s adopted", id, orphan)
			}
			saysAdopted(t, out, id)
			if c := e.Sent("CreateServiceSpecificCredential"); c != 1 {
				t.Fatalf("creates sent %d, want 1 (the killed one)", c)
			}
			settled(t, e, w)
			addRow("keys: fault -> keys in the service", keysHead, "create", name, "2", "1", "1",
				strconv.Itoa(e.Sent("ResetServiceSpecificCredential")), took.Round(100*time.Millisecond).String())
			addNote("%s during a key create: the run ended %s after the kill; the next plain apply adopted orphan %s in %s; keys counted: 1", name, killTook.Round(time.Millisecond), orphan, took.Round(100*time.Millisecond))
		})
	}
}

// TestKeys_twoFaultsInARow: before, two interrupted creates left two
// orphans and every later apply failed with LimitExceeded. Now each run
// first resolves what the last one left.
func TestKeys_twoFaultsInARow(t *testing.T) {
	t.Run("kill during create, then kill during its recovery", func(t *testing.T) {
		needProc(t)
		t.Parallel()
		e := newEmu(t)
		w := newWorkdir(t)
		user := "twice-killed"
		w.write(keysConfig(e, user, "1", ""))
		killProviderDuring(t, e, w, "CreateServiceSpecificCredential")
		orphan := e.Identity.CredentialIDs(user)[0]
		// The second run finds the orphan and is killed while resetting it.
		killProviderDuring(t, e, w, "ResetServiceSpecificCredential")
		if ids := e.Identity.CredentialIDs(user); len(ids) != 1 {
			t.Fatalf("after two kills the user holds keys %v, want 1", ids)
		}
		_, took := timedApply(t, w, "the plain apply after two kills")
		if id, _ := oneWorkingKey(t, e, w, user); id != orphan {
			t.Fatalf("state holds key %s, want the orphan %s", id, orphan)
		}
		if c := e.Sent("CreateServiceSpecificCredential"); c != 1 {
			t.Fatalf("creates sent %d, want 1", c)
		}
		settled(t, e, w)
		addRow("keys: fault -> keys in the service", keysHead, "create, then its recovery", "kill -9, kill -9", "3", "1", "1",
			strconv.Itoa(e.Sent("ResetServiceSpecificCredential")), took.Round(100*time.Millisecond).String())
	})
	t.Run("lost create answer twice", func(t *testing.T) {
		t.Parallel()
		e := newEmu(t)
		w := newWorkdir(t)
		user := "twice-lost"
		w.write(keysConfig(e, user, "1", ""))
		// The first apply loses the answer and cannot list the keys to
		// find the key; a second lost answer waits for the next create.
		arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultLostResponse, Times: 2})
		arm(t, e, emulator.Fault{Operation: "ListServiceSpecificCredentials", Kind: emulator.FaultError, Times: 40})
		out, err := w.apply()
		if err == nil {
			t.Fatalf("the first apply succeeded although the key could not be found:\n%s", out)
		}
		if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "the next apply looks for the key again and adopts it") {
			t.Fatalf("the first apply's error does not say what happens next:\n%s", out)
		}
		e.ClearFaults()
		arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultLostResponse})
		_, took := timedApply(t, w, "the second apply")
		oneWorkingKey(t, e, w, user)
		if c := e.Sent("CreateServiceSpecificCredential"); c != 1 {
			t.Fatalf("creates sent %d, want 1: the second apply created again instead of adopting", c)
		}
		if len(e.Faults()) != 1 {
			t.Fatalf("the second lost answer was used: faults left %+v", e.Faults())
		}
		settled(t, e, w)
		addRow("keys: fault -> keys in the service", keysHead, "create, twice", "lost_response (key not found), lost_response armed", "2", "1", "1",
			strconv.Itoa(e.Sent("ResetServiceSpecificCredential")), took.Round(100*time.Millisecond).String())
	})
}

// TestKeys_renewalCreateBeforeDestroy: a renewal with
// create_before_destroy whose create answer is lost: the new key is found
// and adopted, the old key is never taken for it, and the old key is
// deleted after.
func TestKeys_renewalCreateBeforeDestroy(t *testing.T) {
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	user := "renewal"
	w.write(keysConfig(e, user, "1", `  renew_before_days   = 7

  lifecycle {
    create_before_destroy = true
  }
`))
	mustApply(t, w, "the first apply")
	oldID, oldValue := oneWorkingKey(t, e, w, user)
	// 24 days later: 6 days left, within renew_before_days.
	e.Clock().Advance(24 * 24 * time.Hour)
	arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultLostResponse})
	mark := len(e.Calls())
	out, took := timedApply(t, w, "the renewal with a lost create answer")
	if !strings.Contains(out, "Will Be Renewed") {
		t.Fatalf("the apply did not renew:\n%s", out)
	}
	newID, _ := oneWorkingKey(t, e, w, user)
	if newID == oldID {
		t.Fatalf("state still holds the old key %s", oldID)
	}
	if _, ok := e.Identity.LookupServiceAPIKey(oldValue); ok {
		t.Fatal("the old key's value still works after the renewal")
	}
	for _, c := range e.Calls()[mark:] {
		if c.Status == 409 {
			t.Fatalf("the renewal hit a conflict (LimitExceeded?): %+v", c)
		}
	}
	settled(t, e, w)
	addRow("keys: fault -> keys in the service", keysHead, "renewal (create_before_destroy)", "lost_response", "1", "1",
		strconv.Itoa(e.Sent("CreateServiceSpecificCredential")-1), strconv.Itoa(e.Sent("ResetServiceSpecificCredential")), took.Round(100*time.Millisecond).String())
}

// TestKeys_reset: a reset whose answer is lost is repeated within the
// apply; a reset in flight when the provider is killed is done again by
// the next plain apply, so the state never keeps a value the service no
// longer honours.
func TestKeys_reset(t *testing.T) {
	t.Run("lost answer", func(t *testing.T) {
		t.Parallel()
		e := newEmu(t)
		w := newWorkdir(t)
		user := "reset-lost"
		id, before := keyToReset(t, e, w, user)
		arm(t, e, emulator.Fault{Operation: "ResetServiceSpecificCredential", Kind: emulator.FaultLostResponse})
		_, took := timedApply(t, w, "the reset with a lost answer")
		after, value := oneWorkingKey(t, e, w, user)
		if after != id || value == before {
			t.Fatalf("after the reset: key %s value changed %v; want the same key with a new value", after, value != before)
		}
		if r := e.Sent("ResetServiceSpecificCredential"); r != 2 {
			t.Fatalf("resets sent %d, want 2 (the lost one, repeated once)", r)
		}
		settled(t, e, w)
		addRow("keys: fault -> keys in the service", keysHead, "reset", "lost_response", "1", "1", "1", "2", took.Round(100*time.Millisecond).String())
	})
	t.Run("kill during reset", func(t *testing.T) {
		needProc(t)
		t.Parallel()
		e := newEmu(t)
		w := newWorkdir(t)
		user := "reset-killed"
		id, before := keyToReset(t, e, w, user)
		killProviderDuring(t, e, w, "ResetServiceSpecificCredential")
		// The reset landed: the value in state no longer works, and the
		// state still holds the old trigger, so the plan resets again.
		if _, ok := e.Identity.LookupServiceAPIKey(before); ok {
			t.Fatal("the reset held during the kill never landed")
		}
		st := w.state()[keyAddr]
		if trig, _ := st["reset_triggers"].(map[string]any); trig["rotation"] != "1" {
			t.Fatalf("after the kill the state holds reset_triggers %v, want the old ones", st["reset_triggers"])
		}
		if out, changes, err := w.plan(); err != nil || !changes || !strings.Contains(out, "service_api_key_value") {
			t.Fatalf("the plan after the kill does not reset again (changes %v, err %v):\n%s", changes, err, out)
		}
		_, took := timedApply(t, w, "the plain apply after the kill")
		sameKeyNewValue(t, e, w, user, id, before)
		settled(t, e, w)
		addRow("keys: fault -> keys in the service", keysHead, "reset", "kill -9 of the provider", "2", "1", "1",
			strconv.Itoa(e.Sent("ResetServiceSpecificCredential")), took.Round(100*time.Millisecond).String())
	})
}

// TestKeys_secondKeyWithoutRefresh: a key created by a run that ended
// normally is only known to be in a state once a later run reads it. A
// second key for the same user applied with -refresh=false must not take
// the first key for an orphan: the plan confirms it.
func TestKeys_secondKeyWithoutRefresh(t *testing.T) {
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	user := "no-refresh"
	w.write(keysConfig(e, user, "1", ""))
	mustApply(t, w, "the first apply")
	first, firstValue := oneWorkingKey(t, e, w, user)
	w.write(keysConfig(e, user, "1", "") + `
resource "cloud_identity_service_specific_credential" "k2" {
  user_name           = cloud_identity_user.u.user_name
  credential_age_days = 30
}
`)
	if out, err := w.run("apply", "-auto-approve", "-input=false", "-refresh=false"); err != nil {
		t.Fatalf("apply -refresh=false: %v\n%s", err, out)
	}
	ids := e.Identity.CredentialIDs(user)
	st := w.state()
	second, _ := st[keyAddr+"2"]["service_specific_credential_id"].(string)
	secondValue, _ := st[keyAddr+"2"]["service_api_key_value"].(string)
	if len(ids) != 2 || second == first || second == "" {
		t.Fatalf("keys %v, the first %s, the second %q: want two distinct keys", ids, first, second)
	}
	for id, v := range map[string]string{first: firstValue, second: secondValue} {
		if info, ok := e.Identity.LookupServiceAPIKey(v); !ok || info.CredentialID != id {
			t.Fatalf("the state's value of key %s does not work", id)
		}
	}
	if r := e.Sent("ResetServiceSpecificCredential"); r != 0 {
		t.Fatalf("%d resets sent: a key was adopted", r)
	}
	settled(t, e, w)
}
