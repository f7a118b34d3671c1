package reliability

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestInterleavings_planNeverLies runs plans, saved-plan applies and a
// colleague's out-of-band changes (dynamic and blue/green, started before
// our apply and during it, the latter held by a delay fault) in random
// order, and checks the provider's promise on the emulator's record of
// UpdateDomainConfig requests: every real change the provider sent is a
// request that a dry run of its own (a plan's, or apply's re-check)
// analysed just before, with the same verdict, and none is blue/green
// while allow_blue_green = false. The seed is printed; INTERLEAVE_SEED
// repeats a run, INTERLEAVE_RUNS sets how many interleavings (default 4).
func TestInterleavings_planNeverLies(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("INTERLEAVE_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("INTERLEAVE_SEED: %v", err)
		}
		seed = v
	}
	runs := 4
	if s := os.Getenv("INTERLEAVE_RUNS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > 100 {
			t.Fatalf("INTERLEAVE_RUNS must be 1..100, not %q", s)
		}
		runs = v
	}
	const steps = 7
	t.Logf("seed %d (INTERLEAVE_SEED=%d repeats it), %d interleavings of %d steps", seed, seed, runs, steps)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var sent, violations int
	var log []string
	for i := range runs {
		s, v, l := interleaving(t, rng, i, steps)
		sent += s
		violations += v
		log = append(log, l)
	}
	t.Logf("interleavings:\n%s", strings.Join(log, "\n"))
	addRow("Plan never lies: random interleavings", []string{"seed", "interleavings", "steps each", "real changes sent by the provider", "violations"},
		strconv.FormatUint(seed, 10), strconv.Itoa(runs), strconv.Itoa(steps), strconv.Itoa(sent), strconv.Itoa(violations))
	if violations > 0 {
		t.Errorf("%d violations of the invariant (seed %d)", violations, seed)
	}
}

// interleaving runs one random sequence on an emulator of its own and
// returns how many real changes the provider sent, how many broke the
// invariant, and the sequence for the log.
func interleaving(t *testing.T, rng *rand.Rand, n, steps int) (sent, violations int, trace string) {
	t.Helper()
	e, w := newEmu(t), newWorkdir(t)
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: 700 * time.Millisecond, Dynamic: 700 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	colleague := colleagueClient(t, e)
	bodies := []string{
		// Dynamic alone.
		"snapshot_options = { automated_snapshot_start_hour = %d }",
		// Dynamic, and an instance type that a colleague's blue/green
		// change makes a blue/green revert (twice as likely).
		"snapshot_options = { automated_snapshot_start_hour = %d }\n  cluster_config = { instance_type = \"r6g.large.search\" }",
		"snapshot_options = { automated_snapshot_start_hour = %d }\n  cluster_config = { instance_type = \"r6g.large.search\" }",
	}
	config := func() string {
		body := fmt.Sprintf(bodies[rng.IntN(len(bodies))], rng.IntN(24))
		return domainConfig(e, "allow_blue_green = false\n  "+acceptOffPeak+"\n  "+body)
	}
	var ops []string
	haveplan := false
	for range steps {
		switch op := rng.IntN(5); {
		case op == 0 || !haveplan && op == 1:
			w.write(config())
			out, err := w.run("plan", "-input=false", "-out=tfplan")
			haveplan = err == nil
			ops = append(ops, "plan"+okMark(err, out))
		case op == 1:
			out, err := w.run("apply", "-input=false", "tfplan")
			haveplan = false
			ops = append(ops, "apply"+okMark(err, out))
		case op == 2:
			colleagueChange(t, e, colleague, rng, true)
			ops = append(ops, "colleague-dynamic")
		case op == 3:
			colleagueChange(t, e, colleague, rng, false)
			ops = append(ops, "colleague-blue/green")
		case op == 4 && haveplan:
			// A colleague's change lands while our real UpdateDomainConfig
			// is held by a delay fault.
			if err := e.InjectFault(emulator.Fault{Service: "search", Operation: "UpdateDomainConfig", DryRun: "exclude", Kind: emulator.FaultDelay, Delay: time.Second}); err != nil {
				t.Fatal(err)
			}
			type result struct {
				out string
				err error
			}
			done := make(chan result, 1)
			go func() {
				out, err := w.run("apply", "-input=false", "tfplan")
				done <- result{out, err}
			}()
			dynamic := rng.IntN(2) == 0
			var res result
		wait:
			for {
				select {
				case res = <-done:
					break wait
				case <-time.After(50 * time.Millisecond):
					if faultHit(e) {
						colleagueChange(t, e, colleague, rng, dynamic)
						res = <-done
						break wait
					}
				}
			}
			e.ClearFaults()
			haveplan = false
			ops = append(ops, fmt.Sprintf("apply-with-colleague-during(dynamic=%v)%s", dynamic, okMark(res.err, res.out)))
		default:
			ops = append(ops, "wait")
			time.Sleep(500 * time.Millisecond)
		}
	}
	sent, problems := checkInvariant(e.Search.UpdateRecords(), e.AccessKeyID())
	for _, p := range problems {
		t.Errorf("interleaving %d (%s): %s", n, strings.Join(ops, ", "), p)
	}
	return sent, len(problems), fmt.Sprintf("  %d: %s (%d real changes sent)", n, strings.Join(ops, ", "), sent)
}

// checkInvariant checks the records of one domain: each real change ours
// sent follows a dry run of ours of the same request, the last such before
// it, with the same verdict; none is blue/green (our configurations all
// set allow_blue_green = false).
func checkInvariant(records []emusearch.UpdateRecord, ours string) (sent int, problems []string) {
	for i, r := range records {
		if r.DryRun || r.AccessKeyID != ours {
			continue
		}
		sent++
		if r.DeploymentType == "blue/green" {
			problems = append(problems, fmt.Sprintf("request %d: a blue/green change was sent with allow_blue_green = false", r.Seq))
		}
		var dry *emusearch.UpdateRecord
		for j := i - 1; j >= 0; j-- {
			if d := records[j]; d.DryRun && d.AccessKeyID == ours && d.Request == r.Request {
				dry = &records[j]
				break
			}
		}
		switch {
		case dry == nil:
			problems = append(problems, fmt.Sprintf("request %d: a real change no dry run of ours analysed", r.Seq))
		case dry.DeploymentType != r.DeploymentType:
			problems = append(problems, fmt.Sprintf("request %d: sent as %s, but its last dry run (%d) said %s", r.Seq, r.DeploymentType, dry.Seq, dry.DeploymentType))
		case dry.Mode == "Verbose" && !slices.Equal(dry.Findings, r.Findings):
			problems = append(problems, fmt.Sprintf("request %d: sent with findings %v, but its last dry run (%d) found %v", r.Seq, r.Findings, dry.Seq, dry.Findings))
		}
	}
	return sent, problems
}

// The invariant check itself: it finds what it is meant to find.
func TestInterleavings_checkFindsViolations(t *testing.T) {
	t.Parallel()
	rec := func(seq int, dry bool, who, req, kind string, findings ...string) emusearch.UpdateRecord {
		mode := ""
		if dry {
			mode = "Verbose"
		}
		return emusearch.UpdateRecord{Seq: seq, DryRun: dry, Mode: mode, AccessKeyID: who, Request: req, DeploymentType: kind, Findings: append([]string{}, findings...)}
	}
	for _, tc := range []struct {
		name    string
		records []emusearch.UpdateRecord
		want    int
	}{
		{"reviewed", []emusearch.UpdateRecord{rec(1, true, "us", "a", "dynamic"), rec(2, false, "us", "a", "dynamic")}, 0},
		{"colleague's changes are theirs", []emusearch.UpdateRecord{rec(1, false, "them", "b", "blue/green")}, 0},
		{"never dry-run", []emusearch.UpdateRecord{rec(1, true, "us", "a", "dynamic"), rec(2, false, "us", "b", "dynamic")}, 1},
		{"a colleague's dry run does not count", []emusearch.UpdateRecord{rec(1, true, "them", "a", "dynamic"), rec(2, false, "us", "a", "dynamic")}, 1},
		{"verdict changed", []emusearch.UpdateRecord{rec(1, true, "us", "a", "dynamic"), rec(2, false, "us", "a", "blue/green")}, 2},
		{"new finding", []emusearch.UpdateRecord{rec(1, true, "us", "a", "dynamic"), rec(2, false, "us", "a", "dynamic", "ADV_X (Advisory)")}, 1},
		{"the last dry run counts", []emusearch.UpdateRecord{rec(1, true, "us", "a", "dynamic"), rec(2, true, "us", "a", "none"), rec(3, false, "us", "a", "dynamic")}, 1},
	} {
		if _, got := checkInvariant(tc.records, "us"); len(got) != tc.want {
			t.Errorf("%s: %d problems %v, want %d", tc.name, len(got), got, tc.want)
		}
	}
}

func okMark(err error, out string) string {
	if err == nil {
		return ""
	}
	// The first error's title, to see in the log why the step stopped.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Error: ") {
			return "[" + strings.TrimPrefix(line, "Error: ") + "]"
		}
	}
	return "[failed]"
}

func faultHit(e *emu) bool {
	for _, f := range e.Faults() {
		if f.Hits > 0 {
			return true
		}
	}
	return false
}
