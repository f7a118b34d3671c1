package reliability

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// concurrentRuns is how many Terraform runs share one emulator.
const concurrentRuns = 8

// TestLoad_concurrentRuns: N Terraform runs in separate working directories
// against one emulator, each creating users, policy attachments and keys,
// then destroying them. Nothing is lost or created twice.
func TestLoad_concurrentRuns(t *testing.T) {
	e := newEmu(t)
	const usersPerRun = 2
	config := func(run int) string {
		var b strings.Builder
		b.WriteString(e.providerBlock(""))
		for u := 0; u < usersPerRun; u++ {
			fmt.Fprintf(&b, `
resource "cloud_identity_user" "u%[2]d" {
  user_name = "load-%[1]d-%[2]d"
}

resource "cloud_identity_user_policy_attachment" "a%[2]d" {
  user_name  = cloud_identity_user.u%[2]d.user_name
  policy_arn = %[3]q
}

resource "cloud_identity_service_specific_credential" "k%[2]d" {
  user_name           = cloud_identity_user.u%[2]d.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
}
`, run, u, limitedAccess)
		}
		return b.String()
	}
	dirs := make([]*workdir, concurrentRuns)
	for i := range dirs {
		dirs[i] = newWorkdir(t)
		dirs[i].write(config(i))
	}
	all := func(what string, f func(w *workdir) (string, error)) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		errs := make([]string, concurrentRuns)
		for i, w := range dirs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if out, err := f(w); err != nil {
					errs[i] = fmt.Sprintf("run %d %s: %v\n%s", i, what, err, tail(out, 30))
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Error(e)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
		return time.Since(start).Round(time.Millisecond)
	}

	applied := all("apply", (*workdir).apply)
	// lost counts what a run created but the state or the emulator does not
	// hold, twice what either holds more than once, left what destroy
	// left: the report says each as it was.
	var keyIDs []string
	var lost, twice, left int
	for i, w := range dirs {
		st := w.state()
		if len(st) != 3*usersPerRun {
			t.Errorf("run %d: state holds %d resources, want %d", i, len(st), 3*usersPerRun)
			if len(st) < 3*usersPerRun {
				lost += 3*usersPerRun - len(st)
			} else {
				twice += len(st) - 3*usersPerRun
			}
		}
		for u := 0; u < usersPerRun; u++ {
			name := fmt.Sprintf("load-%d-%d", i, u)
			ids := e.Identity.CredentialIDs(name)
			if len(ids) != 1 {
				t.Errorf("user %s holds keys %v, want 1", name, ids)
				if len(ids) == 0 {
					lost++
				} else {
					twice += len(ids) - 1
				}
				continue
			}
			k := st[fmt.Sprintf("cloud_identity_service_specific_credential.k%d", u)]
			keyLost := false
			if k == nil || k["service_specific_credential_id"] != ids[0] {
				t.Errorf("run %d: state key of %s is %v, the emulator's %s", i, name, k, ids[0])
				keyLost = true
			}
			if v, _ := k["service_api_key_value"].(string); v == "" {
				t.Errorf("run %d: the key of %s has no value in state", i, name)
				keyLost = true
			}
			if keyLost {
				lost++
			}
			if p := e.Identity.AttachedPolicyArns(name); len(p) != 1 {
				t.Errorf("user %s has policies %v, want 1", name, p)
				if len(p) == 0 {
					lost++
				} else {
					twice += len(p) - 1
				}
			}
			keyIDs = append(keyIDs, ids[0])
		}
	}
	var users []string
	for _, n := range e.Identity.UserNames() {
		if strings.HasPrefix(n, "load-") {
			users = append(users, n)
		}
	}
	sort.Strings(users)
	if len(users) != concurrentRuns*usersPerRun {
		t.Fatalf("the emulator holds %d load users, want %d: %v", len(users), concurrentRuns*usersPerRun, users)
	}
	sort.Strings(keyIDs)
	for i := 1; i < len(keyIDs); i++ {
		if keyIDs[i] == keyIDs[i-1] {
			t.Fatalf("key id %s given twice", keyIDs[i])
		}
	}
	planned := all("plan", func(w *workdir) (string, error) {
		out, changes, err := w.plan()
		if err == nil && changes {
			return out, fmt.Errorf("plan after apply is not empty")
		}
		return out, err
	})
	destroyed := all("destroy", (*workdir).destroy)
	for _, n := range e.Identity.UserNames() {
		if strings.HasPrefix(n, "load-") {
			t.Errorf("user %s is left after destroy", n)
			left++
		}
	}
	addNote("concurrent runs: %d Terraform runs against one emulator created %d users, %d attachments, %d keys (apply %s, plan %s, destroy %s); %s",
		concurrentRuns, len(users), len(users), len(keyIDs), applied, planned, destroyed, loadVerdict(lost, twice, left, t.Failed()))
}

// loadVerdict is the report's word on a load run: what was lost, held
// twice or left after destroy, and a failure it does not count otherwise.
func loadVerdict(lost, twice, left int, failed bool) string {
	parts := []string{"none lost", "none twice", "all destroyed"}
	if lost > 0 {
		parts[0] = fmt.Sprintf("%d lost", lost)
	}
	if twice > 0 {
		parts[1] = fmt.Sprintf("%d twice", twice)
	}
	if left > 0 {
		parts[2] = fmt.Sprintf("%d left after destroy", left)
	}
	s := strings.Join(parts, ", ")
	if failed && lost == 0 && twice == 0 && left == 0 {
		s += "; FAILED (see the test's errors)"
	}
	return s
}

// The report says what was lost, never "none lost" after a loss.
func TestLoadVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lost, twice, left int
		failed            bool
		want              string
	}{
		{0, 0, 0, false, "none lost, none twice, all destroyed"},
		{2, 0, 0, true, "2 lost, none twice, all destroyed"},
		{0, 1, 3, true, "none lost, 1 twice, 3 left after destroy"},
		{0, 0, 0, true, "none lost, none twice, all destroyed; FAILED (see the test's errors)"},
	} {
		if got := loadVerdict(tc.lost, tc.twice, tc.left, tc.failed); got != tc.want {
			t.Errorf("loadVerdict(%d, %d, %d, %v) = %q, want %q", tc.lost, tc.twice, tc.left, tc.failed, got, tc.want)
		}
	}
}
