package search_test

import (
	"archive/zip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search"
)

// A note in the data directory is only a saving: whatever it names, apply
// sends a change only after a dry run the service shows analysed exactly
// that request, on the domain as it is. Here the reviewed plan deferred
// its dry run (instance_count is known only at apply), a colleague
// dry-ran another change of the domain (snapshot hour 7), and a note
// naming the colleague's dry run is planted under the name the plan at
// apply looks for (computable from the saved plan and the request). Apply
// must dry-run our change afresh, see the blue/green deployment that
// allow_blue_green = false refuses, and send nothing.
func TestAccDomainConfig_plantedNoteNamingAColleaguesDryRun(t *testing.T) {
	t.Parallel()
	emu := newDomainEmulator(t)
	// In the off-peak window the service would take a blue/green change.
	emu.ClockToOffPeak()
	ctx, ws := dryRunWorkspace(t, emu)
	body := func(count int) string {
		return fmt.Sprintf(`  allow_blue_green = false
  cluster_config = { instance_count = terraform_data.count.output }
}

resource "terraform_data" "count" {
  input = %d`, count)
	}
	write(t, ws, emu, body(3))
	run(ctx, t, ws, "apply", "-auto-approve")
	write(t, ws, emu, body(6))
	run(ctx, t, ws, "plan", "-out=tfplan")

	// The colleague's dry run, completed.
	out, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{DomainName: "demo", DryRun: new(true), DryRunMode: new(searchclient.DryRunModeVerbose),
		Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 7}}})
	if err != nil {
		t.Fatalf("the colleague's dry run: %v", err)
	}
	emu.Clock().Advance(time.Second)
	theirs := searchclient.Deref(out.DryRunProgressStatus.DryRunId)

	ours := &searchclient.UpdateDomainConfigInput{DomainName: "demo", Sections: map[string]any{"ClusterConfig": map[string]any{"InstanceCount": 6}}}
	plantNote(t, ws.Dir, search.NoteName(emu.URL, emu.Region(), ours, savedPlanRead(t, filepath.Join(ws.Dir, "tfplan"))), theirs)

	sent, dryRunsBefore := sentUpdates(emu), emu.DryRuns()
	_, output, err := ws.RunOutput(ctx, "apply", "tfplan")
	if err == nil {
		t.Fatalf("apply of the saved plan succeeded, want it stopped by allow_blue_green = false:\n%s", output)
	}
	if !strings.Contains(output, "Blue/Green Deployment Not Allowed") {
		t.Errorf("apply failed without the blue/green refusal:\n%s", output)
	}
	if n := sentUpdates(emu) - sent; n != 0 {
		t.Errorf("apply sent %d real UpdateDomainConfig, want none", n)
	}
	if n := emu.DryRuns() - dryRunsBefore; n < 1 {
		t.Errorf("apply made no dry run of its own, want one: it took the colleague's dry run %s for ours", theirs)
	}
	for _, rec := range emu.Search.UpdateRecords() {
		if !rec.DryRun && strings.Contains(rec.Request, "InstanceCount") && strings.Contains(rec.Request, "6") {
			t.Errorf("the service received our change as a real update: %+v", rec)
		}
	}
}

// plantNote writes a note naming the dry run id under name in the
// workspace's notes directory, as someone with access to it could.
func plantNote(t *testing.T, dir, name, id string) {
	t.Helper()
	notes := filepath.Join(dir, ".terraform", search.NotesDir)
	if err := os.MkdirAll(notes, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"id": id, "mode": searchclient.DryRunModeVerbose, "created": time.Now()})
	if err := os.WriteFile(filepath.Join(notes, name), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// savedPlanRead is the domain's read record (private state domain_read,
// raw) in the prior state of the saved plan at path.
func savedPlanRead(t *testing.T, path string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	f, err := zr.Open("tfstate")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Private string `json:"private"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		if r.Type != "cloud_search_domain_config" || len(r.Instances) == 0 {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(r.Instances[0].Private)
		if err != nil {
			t.Fatal(err)
		}
		var keys map[string][]byte
		if err := json.Unmarshal(raw, &keys); err != nil {
			t.Fatalf("private state %s: %v", raw, err)
		}
		return keys["domain_read"]
	}
	t.Fatal("no cloud_search_domain_config in the saved plan's state")
	return nil
}

// The notes' directory and its files, whatever someone made of them, cost
// at most a fresh dry run: no link is followed, no file outside the
// provider's own notes is removed, a big note is not read, and a
// directory others may write is not used, with one warning.
func TestAccDomainConfig_notesDirectoryHazards(t *testing.T) {
	hour := func(h int) string {
		return fmt.Sprintf("  snapshot_options = { automated_snapshot_start_hour = %d }", h)
	}
	// planned is a workspace whose domain was adopted, with a saved plan
	// of a change: its dry run, and the note naming it.
	planned := func(t *testing.T) (*acctest.Emulator, context.Context, *tfrun.Workspace, string) {
		t.Helper()
		emu := newDomainEmulator(t)
		ctx, ws := dryRunWorkspace(t, emu)
		write(t, ws, emu, hour(1))
		run(ctx, t, ws, "apply", "-auto-approve")
		write(t, ws, emu, hour(2))
		run(ctx, t, ws, "plan", "-out=tfplan")
		return emu, ctx, ws, filepath.Join(ws.Dir, ".terraform", search.NotesDir)
	}
	// theNote is the one note in dir.
	theNote := func(t *testing.T, dir string) string {
		t.Helper()
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) != 1 {
			t.Fatalf("the notes directory holds %v (%v), want the plan's one note", entries, err)
		}
		return filepath.Join(dir, entries[0].Name())
	}
	// applyAfresh applies the saved plan, which must dry-run the change
	// again (the note is not used) and send exactly what it dry-ran.
	applyAfresh := func(t *testing.T, emu *acctest.Emulator, ctx context.Context, ws *tfrun.Workspace) string {
		t.Helper()
		before := emu.DryRuns()
		_, output, err := ws.RunOutput(ctx, "apply", "tfplan")
		if err != nil {
			t.Fatal(err)
		}
		wantDryRuns(t, emu, before, 1, "the apply of a saved plan whose note is not usable")
		wantEverySendChecked(t, emu)
		return output
	}
	wantOneWarning := func(t *testing.T, output string) {
		t.Helper()
		if n := strings.Count(output, "Unsafe Dry Run Notes Directory Ignored"); n != 1 {
			t.Errorf("the output warns %d times of the unsafe notes directory, want once:\n%s", n, output)
		}
	}

	t.Run("note is a link to /dev/zero", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws, dir := planned(t)
		note := theNote(t, dir)
		if err := os.Remove(note); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", note); err != nil {
			t.Fatal(err)
		}
		applyAfresh(t, emu, ctx, ws)
	})
	t.Run("note of 50 MB", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws, dir := planned(t)
		note := theNote(t, dir)
		b, err := os.ReadFile(note)
		if err != nil {
			t.Fatal(err)
		}
		// The note as the plan wrote it, then 50 MB of spaces: valid JSON.
		b = append(b, make([]byte, 50<<20)...)
		for i := len(b) - 50<<20; i < len(b); i++ {
			b[i] = ' '
		}
		if err := os.WriteFile(note, b, 0o600); err != nil {
			t.Fatal(err)
		}
		applyAfresh(t, emu, ctx, ws)
	})
	t.Run("world-writable notes directory", func(t *testing.T) {
		t.Parallel()
		emu, ctx, ws, dir := planned(t)
		if err := os.Chmod(dir, 0o777); err != nil { //nolint:gosec // G302: the hazard under test
			t.Fatal(err)
		}
		wantOneWarning(t, applyAfresh(t, emu, ctx, ws))
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("the notes directory holds %v, want the plan's note, untouched", entries)
		}
	})
	t.Run("notes directory is a link", func(t *testing.T) {
		t.Parallel()
		emu := newDomainEmulator(t)
		ctx, ws := dryRunWorkspace(t, emu)
		write(t, ws, emu, hour(1))
		run(ctx, t, ws, "apply", "-auto-approve")
		// The link points at a directory of someone's old files, one of
		// them named as a note.
		target := t.TempDir()
		old := time.Now().Add(-2 * time.Hour)
		precious := []string{filepath.Join(target, "precious.txt"), filepath.Join(target, strings.Repeat("ab", 32))}
		for _, f := range precious {
			if err := os.WriteFile(f, []byte("keep"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(f, old, old); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(ws.Dir, ".terraform", search.NotesDir)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, dir); err != nil {
			t.Fatal(err)
		}
		write(t, ws, emu, hour(2))
		_, output, err := ws.RunOutput(ctx, "plan", "-out=tfplan")
		if err != nil {
			t.Fatal(err)
		}
		wantOneWarning(t, output)
		for _, f := range precious {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("a plan removed %s from the directory the notes' link points to: %v", f, err)
			}
		}
		if entries, _ := os.ReadDir(target); len(entries) != len(precious) {
			t.Errorf("a plan wrote into the directory the notes' link points to: %v", entries)
		}
		applyAfresh(t, emu, ctx, ws)
	})
}
