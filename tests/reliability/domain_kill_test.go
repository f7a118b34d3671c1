package reliability

import (
	"strings"
	"syscall"
	"testing"
	"time"

	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// killProvider sends SIGKILL to the provider process Terraform (pid) runs,
// as an out-of-memory killer or a crashed runner would, and returns its
// pid.
func killProvider(t *testing.T, pid int) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if pids := providerPIDs(pid); len(pids) > 0 {
			if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
				t.Fatalf("kill -9 %d: %v", pids[0], err)
			}
			return pids[0]
		}
	}
	t.Fatalf("no provider process under terraform (pid %d)", pid)
	return 0
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// followDeadline bounds how long a test waits for the provider to follow a
// change on a held clock: far beyond a loaded machine's plan and apply.
const followDeadline = 2 * time.Minute

// TestKill_domainChangeWait: the provider is killed (SIGKILL) while apply
// follows a blue/green change. Terraform never hears back, so the state
// keeps the old values; the next plan must say the change is running and
// not plan it again, and the next plain apply must adopt the running change
// (not send it a second time and fail with "A change is already in
// progress"). Both for a change of a managed domain and for an adoption
// (create) killed mid-wait.
func TestKill_domainChangeWait(t *testing.T) {
	for _, tc := range []struct {
		name   string
		create bool
	}{{"update", false}, {"create", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			needProc(t)
			e, w := newEmu(t), newWorkdir(t)
			if err := e.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: time.Hour, Dynamic: time.Second}); err != nil {
				t.Fatal(err)
			}
			sent := 0
			if !tc.create {
				w.write(domainConfig(e, acceptOffPeak+"\n  snapshot_options = { automated_snapshot_start_hour = 4 }"))
				if out, err := w.apply(); err != nil {
					t.Fatalf("first apply: %v\n%s", err, out)
				}
				sent = 1
			}
			w.write(domainConfig(e, acceptOffPeak+"\n  snapshot_options = { automated_snapshot_start_hour = 4 }\n  cluster_config = { instance_type = \"r6g.xlarge.search\" }"))
			before := e.Answered("DescribeDomainChangeProgress", false)
			run := w.startApply()
			waitFor(t, "the apply to send the change and follow it", func() bool {
				return e.Answered("UpdateDomainConfig", false) > sent && e.Answered("DescribeDomainChangeProgress", false) > before
			})
			killed := killProvider(t, run.cmd.Process.Pid)
			err := <-run.done
			out := run.out.String()
			if err == nil {
				t.Fatalf("apply exited 0 with its provider killed:\n%s", out)
			}
			t.Logf("provider %d killed; apply said:\n%s", killed, tail(out, 12))

			// The plan says the change is running and plans nothing of it.
			mark := len(e.Calls())
			plan, _, err := w.plan()
			if err != nil {
				t.Fatalf("plan after the kill: %v\n%s", err, plan)
			}
			flat := strings.Join(strings.Fields(plan), " ")
			for _, want := range []string{"Search Domain Change Still Running", "nothing is sent again"} {
				if !strings.Contains(flat, want) {
					t.Errorf("the plan does not say %q:\n%s", want, plan)
				}
			}
			if strings.Contains(flat, `instance_type = "r6g.large.search" -> "r6g.xlarge.search"`) {
				t.Errorf("the plan plans the running change again:\n%s", plan)
			}
			for _, c := range e.Calls()[mark:] {
				if c.Operation == "UpdateDomainConfig" && !c.DryRun {
					t.Errorf("the plan sent a real UpdateDomainConfig")
				}
			}

			// The next plain apply follows the running change to its end.
			out, err = applyFollowingHeldChange(t, e, w)
			if err != nil {
				t.Fatalf("the apply after the kill: %v\n%s", err, out)
			}
			if n := e.Answered("UpdateDomainConfig", false); n != sent+1 {
				t.Fatalf("real UpdateDomainConfig calls = %d, want %d: the change was sent again", n, sent+1)
			}
			st := w.state()["cloud_search_domain_config.d"]
			if st == nil || st["config_change_status"] != "Completed" {
				t.Fatalf("state after the next apply: %v", st)
			}
			if got := st["cluster_config"].(map[string]any)["instance_type"]; got != "r6g.xlarge.search" {
				t.Fatalf("state holds instance_type %v", got)
			}
			if out, changes, err := w.plan(); err != nil || changes {
				t.Fatalf("plan after the adopted change completed is not empty (err %v):\n%s", err, out)
			}
			addNote("kill -9 of the provider during a domain change wait (%s): next plan showed the running change and planned nothing of it; next apply adopted it; real UpdateDomainConfig calls = %d (the change sent once)", tc.name, sent+1)
		})
	}
}
