package reliability

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// Every fault the emulator can inject.
var faultKinds = []emulator.FaultKind{
	emulator.FaultError, emulator.FaultThrottle, emulator.FaultDrop, emulator.FaultDelay, emulator.FaultLostResponse,
}

var faultHead = []string{"RESOURCE", "PHASE", "OPERATION", "FAULT", "OUTCOME"}

// target is one operation a fault is armed on.
type target struct {
	service, op string
	dryRun      string // "", "only" or "exclude"
	// errs is the summary of the error this operation's failure gives;
	// other errors of the same run are another operation's.
	errs string
}

func (tg target) name() string {
	switch tg.dryRun {
	case "only":
		return tg.op + " (plan-time dry run)"
	case "exclude":
		return tg.op + " (apply)"
	}
	return tg.op
}

// lifecycle runs phases against one emulator with one fault kind.
type lifecycle struct {
	t        *testing.T
	e        *emu
	w        *workdir
	kind     emulator.FaultKind
	resource string
	// recover follows what an error told the user to do, if anything.
	recover func(out string)
}

// phase arms kind on every target, then runs action until it converges
// (at most 4 runs), and records for each target what the run that hit it
// did. converged decides whether a run's outcome is the end state.
func (l *lifecycle) phase(name string, targets []target, action func() (string, error)) {
	t := l.t
	t.Helper()
	l.e.ClearFaults()
	for _, tg := range targets {
		f := emulator.Fault{Service: tg.service, Operation: tg.op, Kind: l.kind, DryRun: tg.dryRun, Times: 1}
		if l.kind == emulator.FaultDelay {
			f.Delay = delayFault
		}
		if err := l.e.InjectFault(f); err != nil {
			t.Fatal(err)
		}
	}
	type hit struct {
		run int
		err string
	}
	hits := map[string]*hit{}
	converged := 0
	for run := 1; run <= 4 && converged == 0; run++ {
		mark := len(l.e.Calls())
		out, err := action()
		for _, c := range l.e.Calls()[mark:] {
			if c.Fault == "" {
				continue
			}
			for _, tg := range targets {
				if tg.op == c.Operation && (tg.dryRun == "" || (tg.dryRun == "only") == c.DryRun) && hits[tg.name()] == nil {
					hits[tg.name()] = &hit{run: run}
					if err != nil {
						hits[tg.name()].err = ownErrors(errorSummaries(out), tg.errs)
					}
				}
			}
		}
		if err != nil {
			t.Logf("%s/%s run %d stopped:\n%s", name, l.kind, run, tail(out, 40))
			if l.recover != nil {
				l.recover(out)
			}
			continue
		}
		converged = run
	}
	if converged == 0 {
		t.Fatalf("phase %s with fault %s did not converge in 4 runs", name, l.kind)
	}
	for _, tg := range targets {
		h := hits[tg.name()]
		var outcome string
		switch {
		case h == nil:
			outcome = "not called in this phase"
		case h.err == "":
			outcome = fmt.Sprintf("survived in run %d (retried or recovered), converged on run %d", h.run, converged)
		default:
			outcome = fmt.Sprintf("run %d stopped with %q; converged on run %d", h.run, shorten(h.err, 90), converged)
		}
		addRow("faults: operation x fault -> outcome", faultHead, l.resource, name, tg.name(), string(l.kind), outcome)
	}
	l.e.ClearFaults()
}

// ownErrors keeps the summaries (joined with "; ") that match re.
func ownErrors(summaries, re string) string {
	if summaries == "" || re == "" {
		return summaries
	}
	var own []string
	for _, s := range strings.Split(summaries, "; ") {
		if regexp.MustCompile(re).MatchString(s) {
			own = append(own, s)
		}
	}
	return strings.Join(own, "; ")
}

func identityConfig(e *emu, user, status, trigger string) string {
	return e.providerBlock("") + fmt.Sprintf(`
resource "cloud_identity_user" "u" {
  user_name = %q
}

resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = cloud_identity_user.u.user_name
  policy_arn = %q
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
  status              = %q
  reset_triggers      = { rotation = %q }
}
`, user, limitedAccess, status, trigger)
}

var importHint = regexp.MustCompile(`terraform import <address> ([\w+=,.@-]+/[A-Z0-9]+)`)

// TestFaults_identity: user, policy attachment and key through create,
// refresh, update and destroy, each operation hit by each fault.
func TestFaults_identity(t *testing.T) {
	for _, kind := range faultKinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			e, w := newEmu(t), newWorkdir(t)
			user := "fx-" + strings.ReplaceAll(string(kind), "_", "-")
			l := &lifecycle{t: t, e: e, w: w, kind: kind, resource: "identity user+attachment+key"}
			l.recover = func(out string) {
				// A key created by a request whose answer was lost: the error
				// says to import it (or delete it); import it.
				if m := importHint.FindStringSubmatch(strings.Join(strings.Fields(out), " ")); m != nil {
					if o, err := w.run("import", "-input=false", "cloud_identity_service_specific_credential.k", m[1]); err != nil {
						t.Fatalf("import %s: %v\n%s", m[1], err, o)
					}
					addNote("identity/%s: a key created by a lost CreateServiceSpecificCredential was reported and imported (%s), not created twice", kind, m[1])
				}
			}
			// The stack exists exactly once, in the emulator and in state.
			exists := func(phase, status string) {
				t.Helper()
				if n := countFold(e.Identity.UserNames(), user); n != 1 {
					t.Fatalf("%s: %d users named %s in the emulator, want 1", phase, n, user)
				}
				if ids := e.Identity.CredentialIDs(user); len(ids) != 1 {
					t.Fatalf("%s: user %s holds keys %v, want exactly 1", phase, user, ids)
				}
				if p := e.Identity.AttachedPolicyArns(user); len(p) != 1 {
					t.Fatalf("%s: user %s has policies %v, want 1", phase, user, p)
				}
				st := w.state()
				for _, a := range []string{"cloud_identity_user.u", "cloud_identity_user_policy_attachment.a", "cloud_identity_service_specific_credential.k"} {
					if st[a] == nil {
						t.Fatalf("%s: state lost %s", phase, a)
					}
				}
				if got := st["cloud_identity_service_specific_credential.k"]["status"]; got != status {
					t.Fatalf("%s: key status in state %v, want %s", phase, got, status)
				}
				if out, changes, err := w.plan(); err != nil || changes {
					t.Fatalf("%s: plan after convergence is not empty (err %v):\n%s", phase, err, out)
				}
			}

			w.write(identityConfig(e, user, "Active", "1"))
			l.phase("create", []target{
				{service: "identity", op: "CreateUser", errs: "Identity User$"},
				{service: "identity", op: "AttachUserPolicy", errs: "User Policy"},
				{service: "identity", op: "CreateServiceSpecificCredential", errs: "Create Identity Service Specific Credential"},
			}, w.apply)
			exists("create", "Active")

			l.phase("read", []target{
				{service: "identity", op: "GetUser", errs: "Read Identity User$"},
				{service: "identity", op: "ListAttachedUserPolicies", errs: "Policy Attachment"},
				{service: "identity", op: "ListServiceSpecificCredentials", errs: "Read Identity Service Specific Credential"},
			}, func() (string, error) {
				out, changes, err := w.plan()
				if err == nil && changes {
					t.Fatalf("a refresh hit by %s planned changes:\n%s", kind, out)
				}
				return out, err
			})
			exists("read", "Active")

			w.write(identityConfig(e, user, "Inactive", "2"))
			l.phase("update", []target{
				{service: "identity", op: "UpdateServiceSpecificCredential", errs: "Update Identity Service Specific Credential"},
				{service: "identity", op: "ResetServiceSpecificCredential", errs: "Reset Identity Service Specific Credential"},
			}, w.apply)
			exists("update", "Inactive")

			l.phase("delete", []target{
				{service: "identity", op: "DeleteServiceSpecificCredential", errs: "Delete Identity Service Specific Credential"},
				{service: "identity", op: "DetachUserPolicy", errs: "Policy"},
				{service: "identity", op: "DeleteUser", errs: "Delete Identity User$"},
			}, w.destroy)
			if n := countFold(e.Identity.UserNames(), user); n != 0 {
				t.Fatalf("after destroy %d users named %s remain", n, user)
			}
			if st := w.state(); len(st) != 0 {
				t.Fatalf("after destroy the state still holds %d resources", len(st))
			}
		})
	}
}

// appliedUpdates counts real UpdateDomainConfig requests the service
// applied, whether or not their answer arrived.
func appliedUpdates(e *emu) int {
	n := 0
	for _, c := range e.Calls() {
		if c.Operation != "UpdateDomainConfig" || c.DryRun {
			continue
		}
		switch c.Fault {
		case "", emulator.FaultDelay:
			if c.Status < 300 {
				n++
			}
		case emulator.FaultLostResponse:
			n++
		}
	}
	return n
}

// TestFaults_domainConfig: the plan-time dry run, the apply, its wait and
// refresh of cloud_search_domain_config, each hit by each fault.
func TestFaults_domainConfig(t *testing.T) {
	for _, kind := range faultKinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			e, w := newEmu(t), newWorkdir(t)
			if err := e.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: 300 * time.Millisecond, Dynamic: 200 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			l := &lifecycle{t: t, e: e, w: w, kind: kind, resource: "search domain config"}
			settled := func(phase string, wantUpdates int, check func(map[string]any)) {
				t.Helper()
				if n := appliedUpdates(e); n != wantUpdates {
					t.Fatalf("%s: the service applied %d real UpdateDomainConfig requests, want %d (a change sent twice?)", phase, n, wantUpdates)
				}
				st := w.state()["cloud_search_domain_config.d"]
				if st == nil {
					t.Fatalf("%s: state lost the domain config", phase)
				}
				if s := st["config_change_status"]; s != "Completed" {
					t.Fatalf("%s: config_change_status %v, want Completed", phase, s)
				}
				check(st)
				if out, changes, err := w.plan(); err != nil || changes {
					t.Fatalf("%s: plan after convergence is not empty (err %v):\n%s", phase, err, out)
				}
			}
			apply := []target{
				{service: "search", op: "UpdateDomainConfig", dryRun: "exclude", errs: "Search Domain Config"},
				{service: "search", op: "DescribeDomainChangeProgress", errs: "Search Domain Config|Change"},
			}
			// The plan-time dry run: an honest plan (a warning, dry_run
			// unknown, when it cannot be had) or a clear error.
			dryRun := func(phase string) {
				l.phase(phase, []target{{service: "search", op: "UpdateDomainConfig", dryRun: "only"}}, func() (string, error) {
					out, changes, err := w.plan()
					if err == nil && !changes {
						t.Fatalf("%s: the plan hides the change:\n%s", phase, out)
					}
					return out, err
				})
			}

			w.write(domainConfig(e, `snapshot_options = { automated_snapshot_start_hour = 5 }`))
			dryRun("create: plan")
			l.phase("create", apply, w.apply)
			settled("create", 1, func(st map[string]any) {
				if d, _ := e.Search.Domain("demo"); *d.SnapshotOptions.AutomatedSnapshotStartHour != 5 {
					t.Fatalf("create: the domain's snapshot hour is %d", *d.SnapshotOptions.AutomatedSnapshotStartHour)
				}
			})

			l.phase("read", []target{{service: "search", op: "DescribeDomainConfig"}}, func() (string, error) {
				out, changes, err := w.plan()
				if err == nil && changes {
					t.Fatalf("a refresh hit by %s planned changes:\n%s", kind, out)
				}
				return out, err
			})
			settled("read", 1, func(map[string]any) {})

			// A blue/green change.
			w.write(domainConfig(e, acceptOffPeak+"\n  snapshot_options = { automated_snapshot_start_hour = 5 }\n  cluster_config = { instance_type = \"r6g.xlarge.search\" }"))
			dryRun("update: plan")
			l.phase("update", apply, w.apply)
			settled("update", 2, func(map[string]any) {
				if d, _ := e.Search.Domain("demo"); *d.ClusterConfig.InstanceType != "r6g.xlarge.search" {
					t.Fatalf("update: the domain's instance type is %s", *d.ClusterConfig.InstanceType)
				}
			})

			mark := len(e.Calls())
			if out, err := w.destroy(); err != nil {
				t.Fatalf("destroy: %v\n%s", err, out)
			}
			for _, c := range e.Calls()[mark:] {
				if c.Operation == "UpdateDomainConfig" {
					t.Fatalf("destroy sent %s", c.Operation)
				}
			}
			addRow("faults: operation x fault -> outcome", faultHead, "search domain config", "delete", "(none: delete only stops managing)", string(kind), "no API call to fault; state emptied")
		})
	}
}
