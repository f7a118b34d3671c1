package search_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfrun"
)

// dryRunWorkspace is an initialised working directory whose Terraform
// commands (plain ones: apply with its own plan, plan -out and apply of the
// saved plan) reach the provider in this process.
func dryRunWorkspace(t *testing.T, emu *acctest.Emulator) (context.Context, *tfrun.Workspace) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	ws := acctest.NewWorkspace(ctx, t)
	if _, err := ws.Run(ctx, "init", "-backend=false"); err != nil {
		t.Fatal(err)
	}
	return ctx, ws
}

// dryRuns counts the dry runs (UpdateDomainConfig with DryRun) the emulator
// answered.
func dryRuns(emu *acctest.Emulator) int { return emu.CountCalls("UpdateDomainConfig", true) }

// colleagueDryRun dry-runs a change of the demo domain as someone else's
// plan would.
func colleagueDryRun(t *testing.T, emu *acctest.Emulator, sections map[string]any) {
	t.Helper()
	in := &searchclient.UpdateDomainConfigInput{DomainName: "demo", Sections: sections, DryRun: new(true), DryRunMode: new(searchclient.DryRunModeVerbose)}
	if _, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), in); err != nil {
		t.Fatalf("the colleague's dry run: %v", err)
	}
}

// write replaces the workspace's configuration with the demo domain's,
// body inside it.
func write(t *testing.T, ws *tfrun.Workspace, emu *acctest.Emulator, body string) {
	t.Helper()
	if err := ws.Write(emulatortest.RequiredProvidersBlock + domainConfig(emu, body)); err != nil {
		t.Fatal(err)
	}
}

// run runs one command, which must succeed.
func run(ctx context.Context, t *testing.T, ws *tfrun.Workspace, args ...string) {
	t.Helper()
	if _, err := ws.Run(ctx, args...); err != nil {
		t.Fatal(err)
	}
}

// wantDryRuns checks how many dry runs the commands since before made.
func wantDryRuns(t *testing.T, emu *acctest.Emulator, before, want int, what string) {
	t.Helper()
	if got := dryRuns(emu) - before; got != want {
		t.Errorf("%s made %d dry runs, want %d", what, got, want)
	}
}

// One dry run per reviewed change where Terraform allows it: the plan
// Terraform makes at apply finds the reviewed plan's dry run on the
// service instead of running another, and Create finds the one the plan at
// apply made. What must still dry-run does (contributing/design.md).
func TestAccDomainConfig_dryRunsPerApply(t *testing.T) {
	hour := func(h string) string { return "  snapshot_options = { automated_snapshot_start_hour = " + h + " }" }
	// adopted is a workspace whose first apply adopted the demo domain.
	adopted := func(t *testing.T) (*acctest.Emulator, context.Context, *tfrun.Workspace) {
		emu := newDomainEmulator(t)
		ctx, ws := dryRunWorkspace(t, emu)
		write(t, ws, emu, hour("1"))
		run(ctx, t, ws, "apply", "-auto-approve")
		return emu, ctx, ws
	}
	t.Run("adoption", func(t *testing.T) {
		t.Parallel()
		emu := newDomainEmulator(t)
		ctx, ws := dryRunWorkspace(t, emu)
		write(t, ws, emu, hour("1"))
		run(ctx, t, ws, "apply", "-auto-approve")
		// The plan's, and the plan at apply's (a plan at creation has no
		// record of a read to tie the reviewed one to); Create sends on the
		// latter.
		wantDryRuns(t, emu, 0, 2, "terraform apply of an adoption")
		if n := updates(emu); n != 1 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 1", n)
		}
	})
	t.Run("plain apply", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "apply", "-auto-approve")
		wantDryRuns(t, emu, before, 1, "terraform apply of a dynamic change")
		if n := updates(emu); n != 2 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 2", n)
		}
	})
	t.Run("saved plan", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		wantDryRuns(t, emu, before, 1, "terraform plan")
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 1, "terraform plan and the apply of its saved plan")
	})
	t.Run("each fresh plan", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan")
		run(ctx, t, ws, "plan")
		// The second plan's refresh comes after the first plan's dry run:
		// a plan reuses only a dry run made since its own refresh.
		wantDryRuns(t, emu, before, 2, "two plans")
	})
	t.Run("saved plan applied after an hour", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		emu.Clock().Advance(time.Hour + time.Minute)
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 2, "a saved plan applied after more than an hour")
	})
	t.Run("colleague's dry run between plan and apply", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		// The domain's latest dry run is now theirs, of another request.
		colleagueDryRun(t, emu, map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 9}})
		emu.Clock().Advance(time.Second) // their dry run (0.3 s) completes
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 3, "plan, the colleague's dry run, and the apply")
	})
	t.Run("colleague's change to another section", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		colleague(t, emu, map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}})
		emu.Clock().Advance(time.Second) // the change (0.3 s) completes
		run(ctx, t, ws, "apply", "tfplan")
		// The plan's dry run predates their change: the plan at apply runs
		// its own, and the apply sends on it.
		wantDryRuns(t, emu, before, 2, "a saved plan applied after a colleague's change to another section")
		if n := updates(emu); n != 3 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 3 (ours twice, the colleague's once)", n)
		}
	})
	t.Run("colleague's change to the same section", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := dryRuns(emu)
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		colleague(t, emu, map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 5}})
		emu.Clock().Advance(time.Second)
		_, out, err := ws.RunOutput(ctx, "apply", "tfplan")
		if err == nil || !regexp.MustCompile(`Search Domain Changed Since the Plan`).MatchString(strings.Join(strings.Fields(out), " ")) {
			t.Errorf("the apply did not stop with Search Domain Changed Since the Plan: %v\n%s", err, out)
		}
		wantDryRuns(t, emu, before, 2, "a saved plan applied after a colleague's change to the same section")
		wantNothingSentSinceColleague(t, emu)
	})
	t.Run("blue/green", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		emu.ClockToOffPeak()
		before := dryRuns(emu)
		write(t, ws, emu, hour("1")+"\n  cluster_config = { instance_type = \"r6g.xlarge.search\" }\n"+acceptOffPeak)
		run(ctx, t, ws, "apply", "-auto-approve")
		// The off-peak rule reads the clock: a blue/green verdict is never
		// reused.
		wantDryRuns(t, emu, before, 2, "terraform apply of a blue/green change")
	})
}
