package reliability

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// Two configurations and one key: nothing ever resets, adopts or deletes a
// key that another configuration holds, and never do two states hold one.

// importConfig is a second configuration, B, importing key id of user.
func importConfig(e *emu, user, id string) string {
	return e.providerBlock("") + fmt.Sprintf(`
import {
  to = cloud_identity_service_specific_credential.k
  id = "%s/%s"
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = %q
  credential_age_days = 30
}
`, user, id, user)
}

// TestKeys_importRacesAdoption: A's key create is killed with the key
// made. While A's create could still be answered, B's plan of an import of
// that key stops, naming the record; once it is over, B plans the import
// (held false -> true, nothing written); A's next apply adopts it (reset
// and mark); B applies its saved
// plan. B stops, saying which configuration's tag holds the key, and
// writes nothing; its refresh and its destroy stop the same way, so A's
// key keeps working.
func TestKeys_importRacesAdoption(t *testing.T) {
	needProc(t)
	t.Parallel()
	e := newEmu(t)
	a := newWorkdir(t)
	user := "two-configs"
	userFirst(t, e, a, user)
	a.write(keysConfig(e, user, "1", ""))
	killDuring(t, e, a, "CreateServiceSpecificCredential", true)
	ids := e.Identity.CredentialIDs(user)
	if len(ids) != 1 {
		t.Fatalf("after the kill the user holds keys %v, want the 1 the create made", ids)
	}
	orphan := ids[0]

	b := newWorkdir(t)
	b.write(importConfig(e, user, orphan))
	out, err := b.run("plan", "-input=false", "-out=tfplan")
	if flat := strings.Join(strings.Fields(out), " "); err == nil || !strings.Contains(flat, "Imported Key Held by Another Configuration") ||
		!strings.Contains(flat, orphan) || !strings.Contains(flat, "still in flight") {
		t.Fatalf("B's plan of an import of the key of a create still in flight did not stop naming it (err %v):\n%s", err, out)
	}
	if st := b.state(); st[keyAddr] != nil {
		t.Fatalf("B's refused plan left the key in its state: %v", st[keyAddr])
	}
	// An hour on, A's create is over: its key is an orphan that A's next
	// apply or B's import may take.
	e.Clock().Advance(time.Hour)
	if out, err := b.run("plan", "-input=false", "-out=tfplan"); err != nil {
		t.Fatalf("B's plan of the import: %v\n%s", err, out)
	} else if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "held = false -> true") {
		t.Fatalf("B's plan does not plan the mark of the imported key:\n%s", out)
	}

	mustApply(t, a, "A's apply after the kill")
	id, value := oneWorkingKey(t, e, a, user)
	if id != orphan {
		t.Fatalf("A holds key %s, want the interrupted create's %s adopted", id, orphan)
	}
	tagsBefore := e.Identity.UserTags(user)

	out, err = b.run("apply", "-input=false", "tfplan")
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil || !strings.Contains(flat, "Imported Key Held by Another Configuration") || !strings.Contains(flat, orphan) {
		t.Fatalf("B's apply of its saved import plan did not stop on A's mark (err %v):\n%s", err, out)
	}
	if after := e.Identity.UserTags(user); fmt.Sprint(after) != fmt.Sprint(tagsBefore) {
		t.Fatalf("B's apply rewrote the user's tags:\nbefore %v\nafter  %v", tagsBefore, after)
	}
	if out, _, err := b.plan(); err == nil || !strings.Contains(out, "Imported Key Held by Another Configuration") {
		t.Fatalf("B's next plan does not stop on A's mark (err %v):\n%s", err, out)
	}
	if out, err := b.destroy(); err == nil {
		t.Fatalf("B's destroy went through:\n%s", out)
	}
	if got, v := oneWorkingKey(t, e, a, user); got != id || v != value {
		t.Fatalf("A's key %s changed under B: now %s", id, got)
	}
	settled(t, e, a)
}

// killWhileMarking runs `terraform apply` in w and kills terraform (cli)
// or its provider while the TagUser that turns the key create's record
// into the key's mark is in flight; the service applies it. The create is
// held a moment so that the mark's TagUser can be held on its own.
func killWhileMarking(t *testing.T, e *emu, w *workdir, cli bool) {
	t.Helper()
	arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultDelay, Delay: time.Second})
	run := w.startApply()
	armed := func(what string) {
		for deadline := time.Now().Add(time.Minute); len(e.Faults()) != 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the apply never sent %s:\n%s", what, run.out.String())
			}
		}
	}
	armed("CreateServiceSpecificCredential")
	arm(t, e, emulator.Fault{Operation: "TagUser", Kind: emulator.FaultDelay, Delay: 2 * time.Minute})
	armed("the TagUser of the mark")
	killApply(t, run, cli, "the kill")
	awaitLanded(t, e, "TagUser", "the kill")
}

// TestKeys_killWhileMarking: kill -9 of terraform or of the provider while
// the key's mark is written (the service writes it) leaves a marked key
// that no state holds, since Terraform never saw the create's answer; and
// nothing on the service tells it from a key another configuration's
// state holds. The next apply, on a fresh runner, names it and says what
// to do; after a second such kill, the create refused for the key limit
// names both keys and their marks.
func TestKeys_killWhileMarking(t *testing.T) {
	needProc(t)
	for _, cli := range []bool{false, true} {
		how := "kill -9 of the provider"
		if cli {
			how = "kill -9 of terraform"
		}
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			e := newEmu(t)
			w := newWorkdir(t)
			user := "marking"
			userFirst(t, e, w, user)
			w.write(keysConfig(e, user, "1", ""))
			killWhileMarking(t, e, w, cli)
			first := e.Identity.CredentialIDs(user)
			if len(first) != 1 || w.state()[keyAddr] != nil {
				t.Fatalf("after the kill: keys %v, state holds the key: %v; want 1 key in no state", first, w.state()[keyAddr] != nil)
			}

			// The second such kill: its apply names the first key.
			killWhileMarking(t, e, w, cli)
			both := e.Identity.CredentialIDs(user)
			if len(both) != 2 {
				t.Fatalf("after the second kill the user holds keys %v, want 2", both)
			}

			f := freshRunner(t, w)
			out, err := f.apply()
			flat := strings.Join(strings.Fields(out), " ")
			if err == nil || !strings.Contains(flat, "already holds the most keys") {
				t.Fatalf("the apply with both slots full did not stop on the key limit (err %v):\n%s", err, out)
			}
			for _, id := range both {
				if !strings.Contains(flat, id) {
					t.Errorf("the key-limit error does not name key %s:\n%s", id, out)
				}
			}
			if !strings.Contains(flat, "terraform import") || !strings.Contains(flat, "held by nobody") {
				t.Errorf("the key-limit error does not say what to do with the keys nobody holds:\n%s", out)
			}
		})
	}
}

// TestKeys_nextApplyNamesAKeyMarkedAndUnsaved: after one kill while the
// mark is written, the next apply on a fresh runner creates a key and
// warns, naming the marked key no state holds and the import to take it.
func TestKeys_nextApplyNamesAKeyMarkedAndUnsaved(t *testing.T) {
	needProc(t)
	t.Parallel()
	e := newEmu(t)
	w := newWorkdir(t)
	user := "marking-once"
	userFirst(t, e, w, user)
	w.write(keysConfig(e, user, "1", ""))
	killWhileMarking(t, e, w, true)
	ids := e.Identity.CredentialIDs(user)
	if len(ids) != 1 {
		t.Fatalf("after the kill the user holds keys %v, want 1", ids)
	}
	f := freshRunner(t, w)
	out := mustApply(t, f, "the apply on a fresh runner after the kill")
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Keys Possibly Held by No State") || !strings.Contains(flat, ids[0]) || !strings.Contains(flat, "delete it") {
		t.Fatalf("the apply after the kill does not name key %s, marked and in no state:\n%s", ids[0], out)
	}
}
