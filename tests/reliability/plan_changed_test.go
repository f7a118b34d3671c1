package reliability

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestPlanOutput_domainChangedSincePlan reads what a user sees when a
// colleague makes exactly our change between our plan and its apply: the
// apply of the saved plan stops with the provider's own error naming the
// new verdict, never Terraform's "inconsistent final plan ... bug in the
// provider", and sends nothing. A plan made with -refresh=false then says
// the same in words that hold for it; a plan with refresh finds nothing to
// do.
func TestPlanOutput_domainChangedSincePlan(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: 200 * time.Millisecond, Dynamic: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	sentCount := func() (n int) {
		for _, r := range e.Search.UpdateRecords() {
			if !r.DryRun {
				n++
			}
		}
		return n
	}
	stopped := func(what, out string, err error, patterns ...string) {
		t.Helper()
		flat := strings.Join(strings.Fields(out), " ")
		if err == nil {
			t.Errorf("%s succeeded, want the provider's error:\n%s", what, out)
		}
		for _, bad := range []string{"inconsistent final plan", "bug in the provider"} {
			if strings.Contains(flat, bad) {
				t.Errorf("%s: the output says %q:\n%s", what, bad, out)
			}
		}
		for _, p := range patterns {
			if !regexp.MustCompile(p).MatchString(flat) {
				t.Errorf("%s: the output does not match %q:\n%s", what, p, out)
			}
		}
	}

	w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 1 }"))
	if out, err := w.apply(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 8 }"))
	if out, err := w.run("plan", "-input=false", "-out=tfplan"); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	// Each colleague's call has its own bound: the CLI runs between them
	// may take long on a loaded machine.
	colleagueCtx := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		t.Cleanup(cancel)
		return ctx
	}
	if _, err := colleagueClient(t, e).UpdateDomainConfig(colleagueCtx(), &searchclient.UpdateDomainConfigInput{DomainName: "demo", Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 8}}}); err != nil {
		t.Fatalf("the colleague's change: %v", err)
	}
	e.Clock().Advance(time.Second) // their change (0.2 s) completes
	before := sentCount()

	out, err := w.run("apply", "-input=false", "tfplan")
	stopped("apply of the saved plan", out, err,
		`Error: Search Domain Changed Since the Plan`,
		`it changed snapshot_options, which this change sets`,
		`now says deployment type none, no validation failures \(the domain already has what this change sets`,
		`Nothing was sent\. Run terraform plan again`)
	if n := sentCount() - before; n != 0 {
		t.Errorf("the apply sent %d real UpdateDomainConfig, want 0", n)
	}

	// The state is still the first apply's: without a refresh the plan
	// compares with the domain as that apply left it, and says so.
	out, err = w.run("plan", "-input=false", "-refresh=false")
	stopped("plan -refresh=false", out, err,
		`Error: Search Domain Changed Since the Plan`,
		`for a plan made with -refresh=false, at the last apply or refresh`,
		`Run terraform plan again, with refresh \(the default\)`)

	// (-detailed-exitcode is not read: see TestPlanOutput_showsTheDryRun.)
	if out, _, err := w.plan(); err != nil || !strings.Contains(out, "No changes.") {
		t.Errorf("plan with refresh: %v\n%s", err, out)
	}

	// After an apply, a colleague's change to a section our next change
	// does not set: a plan made with -refresh=false compares the sections
	// with what that apply recorded, finds ours as it left them, and plans.
	w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 9 }"))
	if out, err := w.apply(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if _, err := colleagueClient(t, e).UpdateDomainConfig(colleagueCtx(), &searchclient.UpdateDomainConfigInput{DomainName: "demo", Sections: map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}}}); err != nil {
		t.Fatalf("the colleague's change: %v", err)
	}
	e.Clock().Advance(time.Second)
	w.write(domainConfig(e, "snapshot_options = { automated_snapshot_start_hour = 10 }"))
	if out, err := w.run("plan", "-input=false", "-refresh=false"); err != nil || !strings.Contains(out, "deployment type dynamic") {
		t.Errorf("plan -refresh=false after a colleague's change elsewhere: %v\n%s", err, out)
	}
}
