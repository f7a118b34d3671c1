package reliability

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// Two configurations on one user, every interleaving that matters: A
// creates its key (the calls of an uninterrupted run, enumerated as in
// TestCrashPoints); before each of A's calls, configuration B acts on the
// same user: imports A's key (planned and saved there, applied after A),
// creates its own key, recovers its own interrupted create, or destroys
// its key. Then A goes on (a pause) or is killed there and recovers with
// its next apply. Invariants: never two states holding one key; no
// configuration deletes or resets a key another holds (every state's key
// value still works); every key of the user is in a state; when a key is
// held elsewhere the plan or the apply says which and stops.

var interleaveHead = []string{"A's CALL", "B ACTS", "THEN A", "OUTCOME"}

const interleaveTable = "two configurations: B acts before A's call k"

// bAction is what B does on A's user while A waits before one of its calls.
type bAction struct {
	name string
	// prepare runs before A's write; act while A is held; after once A
	// is done. act returns false when it does not apply at this point
	// (there is no key of A's to import yet).
	prepare func(t *testing.T, e *emu, b *workdir)
	act     func(t *testing.T, e *emu, b *workdir, it *bStep) bool
	after   func(t *testing.T, e *emu, b *workdir, it *bStep) []string
}

// bStep is what one cell learned on its way.
type bStep struct {
	imported string // the key B's saved plan imports
	planOut  string // B's plan of the import
}

func bKey(e *emu) string { return twoConfigs(e, "crash", 30) }

func bActions() []bAction {
	return []bAction{
		{name: "imports A's key (plan saved, applied after A)",
			act: func(t *testing.T, e *emu, b *workdir, it *bStep) bool {
				t.Helper()
				ids := e.Identity.CredentialIDs("crash")
				if len(ids) != 1 {
					return false
				}
				it.imported = ids[0]
				b.write(bKey(e) + fmt.Sprintf("\nimport {\n  to = %s\n  id = \"crash/%s\"\n}\n", keyAddr, ids[0]))
				out, err := b.run("plan", "-input=false", "-out=tfplan")
				it.planOut = out
				if err != nil && !saysHeldElsewhere(out, ids[0]) {
					t.Errorf("B's plan of the import failed without naming the key held elsewhere: %s", errorSummaries(out))
				}
				return true
			},
			after: func(t *testing.T, e *emu, b *workdir, it *bStep) []string {
				t.Helper()
				out, err := b.run("apply", "-input=false", "tfplan")
				if err != nil && !saysHeldElsewhere(out+it.planOut, it.imported) {
					return []string{"B's apply of the saved import failed without naming the key held elsewhere: " + shorten(errorSummaries(out), 200)}
				}
				return nil
			}},
		{name: "creates its own key",
			act: func(t *testing.T, e *emu, b *workdir, _ *bStep) bool {
				t.Helper()
				b.write(bKey(e))
				if out, err := b.apply(); err != nil {
					t.Errorf("B's apply: %v\n%s", err, tail(out, 20))
				}
				return true
			}},
		{name: "recovers its own interrupted create",
			prepare: func(t *testing.T, e *emu, b *workdir) {
				t.Helper()
				b.write(bKey(e))
				arm(t, e, emulator.Fault{Operation: "CreateServiceSpecificCredential", Kind: emulator.FaultHoldAnswer})
				run := b.startApply()
				if !awaitHolding(e, run) {
					t.Fatalf("B's create was never held:\n%s", run.out.String())
				}
				killRunner(t, run)
				waitFor(t, "B's held create to be let go", func() bool { return len(e.Faults()) == 0 })
			},
			act: func(t *testing.T, e *emu, b *workdir, _ *bStep) bool {
				t.Helper()
				if out, err := b.apply(); err != nil {
					t.Errorf("B's recovery apply: %v\n%s", err, tail(out, 20))
				}
				return true
			}},
		{name: "destroys its key",
			prepare: func(t *testing.T, e *emu, b *workdir) {
				t.Helper()
				b.write(bKey(e))
				mustApply(t, b, "B's key")
			},
			act: func(t *testing.T, e *emu, b *workdir, _ *bStep) bool {
				t.Helper()
				if out, err := b.destroy(); err != nil {
					t.Errorf("B's destroy: %v\n%s", err, tail(out, 20))
				}
				return true
			}},
	}
}

// saysHeldElsewhere reports whether out names key id as held by another
// configuration.
func saysHeldElsewhere(out, id string) bool {
	flat := strings.ToLower(strings.Join(strings.Fields(out), " "))
	return strings.Contains(flat, strings.ToLower(id)) && strings.Contains(flat, "held")
}

// twoStatesHeld checks the invariants on A (in a) and B (in b).
func twoStatesHeld(t *testing.T, e *emu, a, b *workdir) []string {
	t.Helper()
	var bad []string
	held := map[string]string{}
	heldFlag := map[string]any{}
	for name, w := range map[string]*workdir{"A": a, "B": b} {
		st := w.state()[keyAddr]
		if st == nil {
			continue
		}
		id, _ := st["service_specific_credential_id"].(string)
		if other, ok := held[id]; ok {
			bad = append(bad, fmt.Sprintf("the states of %s and %s both hold key %s (held: %v and %v)", other, name, id, heldFlag[other], st["held"]))
		}
		heldFlag[name] = st["held"]
		held[id] = name
		if !slices.Contains(e.Identity.CredentialIDs("crash"), id) {
			bad = append(bad, fmt.Sprintf("%s's key %s was deleted", name, id))
			continue
		}
		if value, _ := st["service_api_key_value"].(string); value != "" {
			if code, _ := converse(t, e, value); code != 200 {
				bad = append(bad, fmt.Sprintf("%s's key value is refused at the runtime (%d): reset or deleted by the other", name, code))
			}
		}
	}
	for _, id := range e.Identity.CredentialIDs("crash") {
		if _, ok := held[id]; !ok {
			bad = append(bad, "key "+id+" is in no state")
		}
	}
	if a.state()[keyAddr] == nil {
		bad = append(bad, "A's state holds no key")
	}
	if out, changes, err := a.plan(); err != nil || changes {
		bad = append(bad, "A's plan after is not empty: "+shorten(errorSummaries(out)+planSummary(out), 200))
	}
	return bad
}

func TestCrashInterleavings(t *testing.T) {
	needProc(t)
	for _, act := range bActions() {
		if !crashAll() && !inFastInterleavings(crashCall{op: "TagUser"}, act.name, "killed, its call applied") {
			continue // no cell of it in the fast subset
		}
		t.Run(act.name, func(t *testing.T) {
			t.Parallel()
			calls := enumerateA(t, act)
			t.Logf("A's key create after B's preparation: %d calls: %v", len(calls), calls)
			for k, c := range calls {
				for _, then := range []string{"goes on", "killed, its call applied", "killed before its call"} {
					if !crashAll() && !inFastInterleavings(c, act.name, then) {
						continue
					}
					t.Run(fmt.Sprintf("%d %s, A %s", k+1, c, then), func(t *testing.T) {
						t.Parallel()
						outcome := interleaveTrial(t, c, act, then)
						if outcome == "" {
							return
						}
						addRow(interleaveTable, interleaveHead, fmt.Sprintf("%02d %s", k+1, c), act.name, then, outcome)
					})
				}
			}
		})
	}
}

// startA applies A's user, runs B's preparation, and writes A's key.
func startA(t *testing.T, e *emu, a, b *workdir, act bAction) {
	t.Helper()
	a.write(keyConfig(e, "crash", true, ""))
	mustApply(t, a, "A's user")
	if act.prepare != nil {
		act.prepare(t, e, b)
	}
	a.write(keyConfig(e, "crash", true, "  reset_triggers = { rotation = \"1\" }\n"))
}

// enumerateA lists the calls of A's key create, uninterrupted, after B's
// preparation (an orphan B left changes what A's create does).
func enumerateA(t *testing.T, act bAction) []crashCall {
	t.Helper()
	e, a, b := newEmu(t), newWorkdir(t), newWorkdir(t)
	startA(t, e, a, b, act)
	mark := len(e.Calls())
	mustApply(t, a, "A's uninterrupted key create")
	return callsOf(e.Calls()[mark:])
}

// interleaveTrial runs one cell; "" when B's action does not apply there.
func interleaveTrial(t *testing.T, c crashCall, act bAction, then string) string {
	t.Helper()
	e, a, b := newEmu(t), newWorkdir(t), newWorkdir(t)
	startA(t, e, a, b, act)
	kind := emulator.FaultHoldBefore
	if then == "killed, its call applied" {
		kind = emulator.FaultHoldAnswer
	}
	dry := "exclude"
	if c.dryRun {
		dry = "only"
	}
	if err := e.InjectFault(emulator.Fault{Service: c.service, Operation: c.op, DryRun: dry, Kind: kind, Skip: c.n}); err != nil {
		t.Fatal(err)
	}
	run := a.startApply()
	if !awaitHolding(e, run) {
		return notReached(t, c, run)
	}
	if then != "goes on" {
		killRunner(t, run)
		waitFor(t, "A's held call to be let go", func() bool { return len(e.Faults()) == 0 })
	}
	it := &bStep{}
	if !act.act(t, e, b, it) {
		if then == "goes on" {
			e.ResumeHeld()
			if err := <-run.done; err != nil {
				t.Logf("A's apply in a cell that does not apply: %v", err)
			}
		}
		return ""
	}
	var bad []string
	note := ""
	if then == "goes on" {
		// B's action may outlast A's http_timeout: A's call then timed out
		// in the network before the service had it, as a slow network
		// does, and A's apply may fail. That is allowed when it says so
		// and the next plain apply converges.
		e.ResumeHeld()
		if err := <-run.done; err != nil {
			note = " (A's apply failed: " + shorten(errorSummaries(run.out.String()), 120) + "; its next apply converged)"
			if out, err := a.apply(); err != nil {
				bad = append(bad, "A's apply failed and so did the next: "+shorten(errorSummaries(out), 200))
			}
		}
	} else {
		a = freshRunner(t, a)
		l := lostBy(t, e, a, "crash", stateKey(b))
		out, err := a.apply()
		if act.after != nil {
			bad = append(bad, act.after(t, e, b, it)...)
		}
		// A key A's killed run marked that B's import then took is held.
		bHolds := stateKey(b)
		l.keys = slices.DeleteFunc(l.keys, func(id string) bool { return id == bHolds })
		if !l.none() {
			var more []string
			out, note, more, err = l.followAdvice(t, e, a, out, err)
			note = " " + note
			bad = append(bad, more...)
		}
		if err != nil {
			bad = append(bad, "A's next apply failed: "+shorten(errorSummaries(out), 200))
		}
	}
	if then == "goes on" && act.after != nil {
		bad = append(bad, act.after(t, e, b, it)...)
	}
	bad = append(bad, twoStatesHeld(t, e, a, b)...)
	if len(bad) != 0 {
		t.Errorf("B %s before A's %s, A %s: %s", act.name, c, then, strings.Join(bad, "; "))
		return "FAIL: " + strings.Join(bad, "; ")
	}
	return "ok" + note
}

// stateKey is the key w's state holds, "" for none.
func stateKey(w *workdir) string {
	id, _ := w.state()[keyAddr]["service_specific_credential_id"].(string)
	return id
}

// inFastInterleavings is the subset make test runs: B creating or
// destroying its own key while A's create record is being written, A
// killed once the service applied it.
func inFastInterleavings(c crashCall, act, then string) bool {
	return c.op == "TagUser" && c.n == 0 && then == "killed, its call applied" &&
		(act == "creates its own key" || act == "destroys its key")
}
