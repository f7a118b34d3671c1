package search_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
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
	if got := emu.DryRuns() - before; got != want {
		t.Errorf("%s made %d dry runs, want %d", what, got, want)
	}
}

// wantEverySendChecked checks that each real UpdateDomainConfig the
// emulator took was, just before, dry-run with exactly its request: the
// domain's last dry run before it is of the same request.
func wantEverySendChecked(t *testing.T, emu *acctest.Emulator) {
	t.Helper()
	last := ""
	for _, rec := range emu.Search.UpdateRecords() {
		switch {
		case rec.DryRun:
			last = rec.Request
		case rec.Request != last:
			t.Errorf("change %d was sent with a request the last dry run before it did not analyse: %+v", rec.Seq, rec)
		}
	}
}

// pause is automated_snapshot_pause_options ending on day (of January
// 2030), with accepted_warnings.
func pause(day, accepted string) string {
	return `  automated_snapshot_pause_options = {
    enabled    = true
    start_time = "2030-01-01T02:00:00Z"
    end_time   = "2030-01-0` + day + `T02:00:00Z"
  }
  accepted_warnings = [` + accepted + `]`
}

// colleaguePause is a colleague's dry run of the pause ending on day: the
// same target as pause's, without Enabled (already true), so the service
// finds no ADV_SNAPSHOT_PAUSE_NO_RESTORE in it.
func colleaguePause(t *testing.T, emu *acctest.Emulator, day int, accepted ...string) {
	t.Helper()
	in := &searchclient.UpdateDomainConfigInput{DomainName: "demo", AcceptedWarnings: accepted, DryRun: new(true), DryRunMode: new(searchclient.DryRunModeVerbose),
		Sections: map[string]any{"AutomatedSnapshotPauseOptions": map[string]any{"StartTime": jan2030, "EndTime": jan2030 + (day-1)*86400}}}
	if _, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), in); err != nil {
		t.Fatalf("the colleague's dry run: %v", err)
	}
	emu.Clock().Advance(time.Second) // their dry run (0.3 s) completes
}

const noRestore = `"ADV_SNAPSHOT_PAUSE_NO_RESTORE"`

// jan2030 is 2030-01-01T02:00:00Z in seconds since the epoch.
const jan2030 = 1893463200

// One dry run per reviewed change where Terraform allows it: the plan
// Terraform makes at apply takes the dry run the reviewed plan handed on
// by its id, and Create the one the plan at apply made, instead of running
// another. What must still dry-run does (contributing/design.md).
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
		if n := answeredUpdates(emu); n != 1 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 1", n)
		}
	})
	t.Run("plain apply", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := emu.DryRuns()
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "apply", "-auto-approve")
		wantDryRuns(t, emu, before, 1, "terraform apply of a dynamic change")
		if n := answeredUpdates(emu); n != 2 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 2", n)
		}
	})
	t.Run("saved plan", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := emu.DryRuns()
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		wantDryRuns(t, emu, before, 1, "terraform plan")
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 1, "terraform plan and the apply of its saved plan")
	})
	t.Run("each fresh plan", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := emu.DryRuns()
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
		before := emu.DryRuns()
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		emu.Clock().Advance(time.Hour + time.Minute)
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 2, "a saved plan applied after more than an hour")
	})
	t.Run("colleague's dry run between plan and apply", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := emu.DryRuns()
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
		before := emu.DryRuns()
		write(t, ws, emu, hour("8"))
		run(ctx, t, ws, "plan", "-out=tfplan")
		colleague(t, emu, map[string]any{"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true}})
		emu.Clock().Advance(time.Second) // the change (0.3 s) completes
		run(ctx, t, ws, "apply", "tfplan")
		// The plan's dry run predates their change: the plan at apply runs
		// its own, and the apply sends on it.
		wantDryRuns(t, emu, before, 2, "a saved plan applied after a colleague's change to another section")
		if n := answeredUpdates(emu); n != 3 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 3 (ours twice, the colleague's once)", n)
		}
	})
	t.Run("colleague's change to the same section", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		before := emu.DryRuns()
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
		before := emu.DryRuns()
		write(t, ws, emu, hour("1")+"\n  cluster_config = { instance_type = \"r6g.xlarge.search\" }\n"+acceptOffPeak)
		run(ctx, t, ws, "apply", "-auto-approve")
		// The off-peak rule reads the clock: a blue/green verdict is never
		// reused.
		wantDryRuns(t, emu, before, 2, "terraform apply of a blue/green change")
	})
	// The reviewer's case: a colleague dry-runs the same target as ours
	// with a request whose verdict differs (no Enabled: no
	// ADV_SNAPSHOT_PAUSE_NO_RESTORE) after the read our plan starts from.
	t.Run("colleague's same-target dry run before a plan without refresh", func(t *testing.T) {
		t.Parallel()
		emu := newDomainEmulator(t)
		ctx, ws := dryRunWorkspace(t, emu)
		write(t, ws, emu, pause("2", noRestore))
		run(ctx, t, ws, "apply", "-auto-approve")
		run(ctx, t, ws, "apply", "-refresh-only", "-auto-approve")
		write(t, ws, emu, pause("3", ""))
		colleaguePause(t, emu, 3)
		before := emu.DryRuns()
		_, out, err := ws.RunOutput(ctx, "plan", "-refresh=false", "-out=tfplan")
		// Our plan shows our own verdict, which blocks the change.
		if err == nil || !strings.Contains(out, "ADV_SNAPSHOT_PAUSE_NO_RESTORE") {
			t.Errorf("the plan did not stop on our own verdict (ADV_SNAPSHOT_PAUSE_NO_RESTORE): %v\n%s", err, out)
		}
		wantDryRuns(t, emu, before, 1, "terraform plan -refresh=false after a colleague's dry run")
		if n := answeredUpdates(emu); n != 1 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 1 (the adoption)", n)
		}
	})
	t.Run("colleague's same-target dry run between plan and apply", func(t *testing.T) {
		t.Parallel()
		emu := newDomainEmulator(t)
		ctx, ws := dryRunWorkspace(t, emu)
		write(t, ws, emu, pause("2", noRestore))
		run(ctx, t, ws, "apply", "-auto-approve")
		write(t, ws, emu, pause("3", noRestore))
		before := emu.DryRuns()
		run(ctx, t, ws, "plan", "-out=tfplan")
		colleaguePause(t, emu, 3, "ADV_SNAPSHOT_PAUSE_NO_RESTORE")
		// The latest dry run is theirs: the plan at apply runs its own,
		// finds the reviewed verdict, and the apply sends on it.
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 3, "plan, the colleague's dry run, and the apply")
		if n := answeredUpdates(emu); n != 2 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 2", n)
		}
		wantEverySendChecked(t, emu)
	})
	t.Run("colleague's dry run with an unchanged member between plan and apply", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		write(t, ws, emu, hour("8"))
		before := emu.DryRuns()
		run(ctx, t, ws, "plan", "-out=tfplan")
		// It plans what ours does, and the service adds
		// ADV_DUALSTACK_RECOMMENDED for the unchanged ipv4 it carries.
		colleagueDryRun(t, emu, map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 8}, "IPAddressType": "ipv4"})
		emu.Clock().Advance(time.Second)
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 3, "plan, the colleague's dry run, and the apply")
		if n := answeredUpdates(emu); n != 2 {
			t.Errorf("real UpdateDomainConfig calls = %d, want 2", n)
		}
		wantEverySendChecked(t, emu)
	})
	t.Run("saved plan applied on a fresh runner", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		write(t, ws, emu, hour("8"))
		before := emu.DryRuns()
		run(ctx, t, ws, "plan", "-out=tfplan")
		// A copy of the working directory without its .terraform.
		runner := acctest.NewWorkspace(ctx, t)
		for _, f := range []string{"main.tf", "tfplan", "terraform.tfstate"} {
			b, err := os.ReadFile(filepath.Join(ws.Dir, f))
			if err == nil {
				err = os.WriteFile(filepath.Join(runner.Dir, f), b, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		run(ctx, t, runner, "init", "-backend=false")
		run(ctx, t, runner, "apply", "tfplan")
		wantDryRuns(t, emu, before, 2, "a saved plan applied on a fresh runner")
		wantEverySendChecked(t, emu)
	})
	t.Run("two plans without refresh", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws := adopted(t)
		// A refresh records the read both plans start from (an apply's
		// record has no service clock, so plans after it hand nothing on).
		run(ctx, t, ws, "apply", "-refresh-only", "-auto-approve")
		write(t, ws, emu, hour("8"))
		before := emu.DryRuns()
		run(ctx, t, ws, "plan", "-refresh=false")
		run(ctx, t, ws, "plan", "-refresh=false", "-out=tfplan")
		// Both start from the same read: the second takes the first's dry
		// run (nobody dry-ran since), and the note is gone.
		wantDryRuns(t, emu, before, 1, "two plans with -refresh=false")
		run(ctx, t, ws, "apply", "tfplan")
		wantDryRuns(t, emu, before, 2, "two plans with -refresh=false and the apply of the second")
		wantEverySendChecked(t, emu)
	})
}

// The provider binary, started by Terraform per walk as in real use, hands
// the plan at apply's dry run to Create in memory, and finds the root
// module's data directory (here through -chdir) to hand the reviewed
// plan's dry run on there: a note of the id alone, owner-only, taken by
// the plan at apply.
func TestAccDomainConfig_dryRunHandOffBinary(t *testing.T) {
	acctest.PreCheck(t)
	emu := newDomainEmulator(t)
	// The working directory is a child of the one Terraform runs in.
	parent := acctest.NewBuiltWorkspace(t)
	root := filepath.Join(parent.Dir, "root")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	ws := new(*parent)
	ws.Dir = root
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	write(t, ws, emu, "  snapshot_options = { automated_snapshot_start_hour = 1 }")
	run(ctx, t, parent, "-chdir=root", "apply", "-auto-approve")
	// The plan at apply hands its dry run to Create in its process.
	wantDryRuns(t, emu, 0, 2, "the provider binary's adoption")
	write(t, ws, emu, "  snapshot_options = { automated_snapshot_start_hour = 8 }")
	before := emu.DryRuns()
	run(ctx, t, parent, "-chdir=root", "plan", "-out=tfplan")
	notes, _ := filepath.Glob(filepath.Join(root, ".terraform", "cloud-search-dry-runs", "*"))
	if len(notes) != 1 {
		t.Fatalf("notes after the plan: %v, want one", notes)
	}
	info, err := os.Stat(notes[0])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(notes[0])
	if info.Mode().Perm() != 0o600 || strings.Contains(string(b), "Snapshot") || !strings.Contains(string(b), `"id"`) {
		t.Errorf("the note (mode %v) = %s, want the dry run's id alone, mode 0600", info.Mode().Perm(), b)
	}
	run(ctx, t, parent, "-chdir=root", "apply", "tfplan")
	wantDryRuns(t, emu, before, 1, "the provider binary's plan and the apply of its saved plan")
	if notes, _ := filepath.Glob(filepath.Join(root, ".terraform", "cloud-search-dry-runs", "*")); len(notes) != 0 {
		t.Errorf("notes after the apply: %v, want none (single-use)", notes)
	}
	wantEverySendChecked(t, emu)
}
