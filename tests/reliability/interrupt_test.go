package reliability

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestInterrupt_blueGreenWait: an apply killed (SIGINT, then SIGKILL) while
// it waits on a blue/green change leaves the change in state; the next plan
// shows the wait, and the next apply finishes the same change without
// sending it again.
func TestInterrupt_blueGreenWait(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	// Long stages: the change runs for hours unless the clock is moved.
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: time.Hour, Dynamic: time.Second}); err != nil {
		t.Fatal(err)
	}
	w.write(domainConfig(e, acceptOffPeak+"\n  cluster_config = { instance_type = \"r6g.xlarge.search\" }"))

	run := w.startApply()
	cmd, out, done := run.cmd, run.out, run.done

	// Wait until the change is sent and apply is following its progress.
	deadline := time.Now().Add(time.Minute)
	for e.Answered("UpdateDomainConfig", false) == 0 || e.Answered("DescribeDomainChangeProgress", false) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("apply never sent the change:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second)
	start := time.Now()
	_ = cmd.Process.Signal(os.Interrupt)
	// A CI runner sends SIGKILL a little after SIGINT.
	killed := false
	var exitErr error
	select {
	case exitErr = <-done:
	case <-time.After(2 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		killed = true
		exitErr = <-done
	}
	if exitErr == nil {
		t.Fatalf("the interrupted apply exited 0:\n%s", out.String())
	}
	stopped := time.Since(start).Round(time.Millisecond)
	t.Logf("apply ended %s after SIGINT (SIGKILL sent: %v):\n%s", stopped, killed, tail(out.String(), 30))

	st := w.state()["cloud_search_domain_config.d"]
	if st == nil {
		t.Fatalf("the interrupted apply left no state for the domain config:\n%s", out.String())
	}
	changeID, _ := st["change_id"].(string)
	status, _ := st["config_change_status"].(string)
	if len(changeID) != 36 {
		t.Fatalf("state holds change_id %q, want the change's id", changeID)
	}
	switch status {
	case "Pending", "Initializing", "Validating", "ApplyingChanges":
	default:
		t.Fatalf("state holds config_change_status %q, want a status in flight", status)
	}
	if got := st["cluster_config"].(map[string]any)["instance_type"]; got != "r6g.xlarge.search" {
		t.Fatalf("state holds instance_type %v, want the submitted value", got)
	}

	// The next plan is honest: it shows the wait, not the change again.
	mark := len(e.Calls())
	plan, changes, err := w.plan()
	if err != nil || !changes {
		t.Fatalf("plan after the interruption (changes %v, err %v):\n%s", changes, err, plan)
	}
	flat := strings.Join(strings.Fields(plan), " ")
	for _, want := range []string{"Search Domain Change Still Running", changeID, "nothing is sent again", "config_change_status"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan does not say %q:\n%s", want, plan)
		}
	}
	for _, c := range e.Calls()[mark:] {
		if c.Operation == "UpdateDomainConfig" {
			t.Errorf("the plan after the interruption sent UpdateDomainConfig (dry run %v)", c.DryRun)
		}
	}

	// The next apply follows the change (still running at its plan), which
	// finishes within it, and sends nothing.
	if out, err := applyFollowingHeldChange(t, e, w); err != nil {
		t.Fatalf("the apply after the interruption: %v\n%s", err, out)
	}
	st = w.state()["cloud_search_domain_config.d"]
	if st["change_id"] != changeID || st["config_change_status"] != "Completed" {
		t.Fatalf("after the next apply: change_id %v status %v, want %s Completed", st["change_id"], st["config_change_status"], changeID)
	}
	if n := e.Answered("UpdateDomainConfig", false); n != 1 {
		t.Fatalf("real UpdateDomainConfig calls = %d, want 1: the change was sent again", n)
	}
	if d, _ := e.Search.Domain("demo"); *d.ClusterConfig.InstanceType != "r6g.xlarge.search" {
		t.Fatalf("the domain's instance type is %s", *d.ClusterConfig.InstanceType)
	}
	if out, changes, err := w.plan(); err != nil || changes {
		t.Fatalf("plan after the change completed is not empty (err %v):\n%s", err, out)
	}
	addNote("interrupted apply: SIGINT after the blue/green change was sent, apply exited %s later (SIGKILL needed: %v) with change %s saved as %s; next plan showed the wait, next apply finished it; real UpdateDomainConfig calls = 1", stopped, killed, changeID, status)
}
