package reliability

import (
	"regexp"
	"strings"
	"testing"
	"time"

	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestPlanOutput_showsTheDryRun reads the plain `terraform plan` output a
// reviewer reads: every plan of a change gives the dry run's verdict (the
// deployment type and the failures, even when the diff hides them as
// unchanged after a change of the same type), the adoption plan shows the
// property that changes as its value now and after, and a refresh after an
// apply reports no drift.
func TestPlanOutput_showsTheDryRun(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	// Whether a blue/green change gets ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK
	// depends on the time of day. The service's clock is put at the next
	// 12:00 UTC, outside the default window (00:00 UTC for 10 hours), so
	// the verdict checked below is the same whenever the test runs.
	now := e.Clock().Now()
	noon := now.Truncate(24 * time.Hour).Add(12 * time.Hour)
	if noon.Before(now) {
		noon = noon.Add(24 * time.Hour)
	}
	e.Clock().Advance(noon.Sub(now))
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: 200 * time.Millisecond, Dynamic: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	expect := func(what, out string, patterns ...string) {
		t.Helper()
		// Terraform wraps diagnostics at 80 columns: match on words.
		flat := strings.Join(strings.Fields(out), " ")
		for _, p := range patterns {
			if !regexp.MustCompile(p).MatchString(flat) {
				t.Errorf("%s: the plan output does not match %q:\n%s", what, p, out)
			}
		}
	}

	// Adoption: the one property that changes, now and after.
	w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 5 }"))
	out, _, err := w.plan()
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	expect("adoption plan", out,
		`\+ dry_run\s+= \{`,
		`\+ deployment_type\s+= "dynamic"`,
		`\+ mode\s+= "Verbose"`,
		// The values now move with other people's changes, so the plan
		// leaves modifying_properties to apply and its warning shows them.
		`\+ modifying_properties\s+= \(known after apply\)`,
		`SnapshotOptions\.AutomatedSnapshotStartHour: "0" -> "5"`,
	)
	if out, err := w.apply(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}

	// After the apply, a refresh reports no drift: the state keeps the
	// applied change's dry run. The words are checked: with Terraform 1.11,
	// -detailed-exitcode exits 2 here although the plan says "No changes",
	// as it does for every resource of this provider that has a Sensitive
	// attribute (the key too, and before this change as well).
	if out, err := w.run("plan", "-refresh-only", "-input=false"); err != nil || !strings.Contains(out, "No changes.") || strings.Contains(out, "changed outside of Terraform") {
		t.Errorf("plan -refresh-only after apply reports drift or failed (%v):\n%s", err, out)
	}

	// A second dynamic change: the diff hides what equals the last dry run,
	// and the plan's warning gives the whole verdict.
	w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 6 }"))
	out, changes, err := w.plan()
	if err != nil || !changes {
		t.Fatalf("plan of the second change (changes %v): %v\n%s", changes, err, out)
	}
	expect("second dynamic change", out,
		`~ automated_snapshot_start_hour = 5 -> 6`,
		`~ dry_run\s+= \{`,
		`Warning: Dry Run of the Change to Domain "demo": dynamic`,
		`\(Verbose\) of the change to domain "demo": deployment type dynamic; no validation failures\.`,
		`SnapshotOptions\.AutomatedSnapshotStartHour: "5" -> "6"`,
	)
	if out, err := w.apply(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}

	// A blue/green change with an accepted Advisory: both in the plan.
	w.write(domainConfig(e, `snapshot_options = { automated_snapshot_start_hour = 6 }
  cluster_config = { dedicated_master_enabled = false }
  accepted_warnings = ["ADV_NO_DEDICATED_MASTERS", "ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"]`))
	out, _, err = w.plan()
	if err != nil {
		t.Fatalf("plan of the blue/green change: %v\n%s", err, out)
	}
	expect("blue/green change", out,
		`deployment_type\s+= (?:"dynamic" -> )?"blue/green"`,
		`\+ code\s+= "ADV_NO_DEDICATED_MASTERS"`,
		`\+ severity\s+= "Advisory"`,
		// One warning with the whole verdict: Terraform folds warnings
		// that share a title, which hid the second accepted code.
		`Warning: Dry Run of the Change to Domain "demo": blue/green`,
		`deployment type blue/green; validation failures:`,
		`- ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK \(Advisory, accepted in accepted_warnings`,
		`- ADV_NO_DEDICATED_MASTERS \(Advisory, accepted in accepted_warnings`,
	)
	if strings.Contains(out, "similar warning") || strings.Count(out, "Warning: Dry Run") != 1 {
		t.Errorf("the blue/green plan folds or repeats warnings; want exactly one:\n%s", out)
	}
	addNote("plan output: the adoption plan shows SnapshotOptions.AutomatedSnapshotStartHour 0 -> 5; a refresh-only plan after apply reports no changes; a second dynamic change's plan warns with the whole verdict (dynamic, no failures, 5 -> 6); a blue/green change shows its deployment type and accepted Advisory")
}
