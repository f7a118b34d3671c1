package reliability

import (
	"regexp"
	"strings"
	"testing"
	"time"

	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// The plan's words for a dry run it cannot run yet, and for a colleague's
// change found running: each says what apply will do.
func TestPlanOutput_deferredAndRunningTexts(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: 200 * time.Millisecond, Dynamic: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	expect := func(what, out string, patterns ...string) {
		t.Helper()
		flat := strings.Join(strings.Fields(out), " ")
		for _, p := range patterns {
			if !regexp.MustCompile(p).MatchString(flat) {
				t.Errorf("%s: the plan output does not match %q:\n%s", what, p, out)
			}
		}
	}

	// A principal created in the same apply: unknown at plan.
	w.write(domainConfig(e, `access_policies = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Principal = { CLOUD = terraform_data.reader.output }, Action = "search:*", Resource = "*" }]
  })
}
resource "terraform_data" "reader" {
  input = "arn:cloud:identity::123456789012:user/reader"`))
	out, changes, err := w.plan()
	if err != nil || !changes {
		t.Fatalf("plan with an unknown value (changes %v): %v\n%s", changes, err, out)
	}
	expect("unknown value", out,
		`Warning: Dry Run Deferred to Apply`,
		`known only after apply, so the plan cannot run a dry run`,
		`Apply dry-runs the change before sending it and stops without sending anything if the service's verdict is a blue/green deployment while allow_blue_green is false`,
	)
	if strings.Contains(out, "DescribeDryRunProgress") || strings.Contains(out, "has no dry run") {
		t.Errorf("the first plan of the domain reports a failing DescribeDryRunProgress:\n%s", out)
	}
	if out, err := w.apply(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}

	// A colleague's change runs (an hour long) while ours differs.
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: time.Hour, Dynamic: time.Hour}); err != nil {
		t.Fatal(err)
	}
	colleagueChange(t, e, colleagueClient(t, e), nil, true)
	w.write(domainConfig(e, `snapshot_options = { automated_snapshot_start_hour = 13 }`))
	if out, err := w.run("apply", "-refresh-only", "-auto-approve", "-input=false"); err != nil {
		t.Fatalf("refresh: %v\n%s", err, out)
	}
	out, _, err = w.plan()
	if err != nil {
		t.Fatalf("plan while a colleague's change runs: %v\n%s", err, out)
	}
	expect("colleague's running change", out,
		`Warning: Search Domain Change Still Running`,
		`Apply follows it to its end before anything else`,
		`what still differs is sent only after apply dry-runs it again and the service's verdict is the one this plan shows`,
	)
	if strings.Contains(strings.Join(strings.Fields(out), " "), "nothing is sent") {
		t.Errorf("the plan says nothing is sent, but ours differs and will be:\n%s", out)
	}
	addNote("plan texts: an unknown principal defers the dry run with a warning naming what apply checks; a colleague's running change is announced with what apply will send")
}
