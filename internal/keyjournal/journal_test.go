package keyjournal

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var scope = Scope{Endpoint: "http://127.0.0.1:8080", Region: "us-east-1", UserName: "Alice", ServiceName: "models.cloud.example"}

func open(t *testing.T, instance string) *Journal {
	t.Helper()
	j, err := Open(t.TempDir(), instance)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// sibling is a journal in the same directory for another provider instance.
func sibling(j *Journal, instance string) *Journal {
	k := newJournal(instance)
	k.dir, k.now, k.alive = j.dir, j.now, j.alive
	return k
}

func TestStale(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	j := newJournal("self")
	j.now = func() time.Time { return now }
	deadPID := j.self.PID + 1
	j.alive = func(o Owner) bool { return o.PID != deadPID }
	other := func(mut func(*Entry)) Entry {
		e := Entry{ID: "e", Owner: Owner{Instance: "other", PID: j.self.PID + 2, Host: j.self.Host}, Started: now.Add(-time.Minute), Deadline: now.Add(time.Minute), State: Pending}
		mut(&e)
		return e
	}
	tests := []struct {
		name string
		e    Entry
		want bool
	}{
		{"pending of a live process", other(func(*Entry) {}), false},
		{"pending of a dead process", other(func(e *Entry) { e.PID = deadPID }), true},
		{"created of a dead process", other(func(e *Entry) { e.PID, e.State, e.KeyID = deadPID, Created, "K" }), true},
		{"confirmed of a dead process", other(func(e *Entry) { e.PID, e.State, e.KeyID = deadPID, Confirmed, "K" }), false},
		{"our own pending", other(func(e *Entry) { e.Owner = j.self }), false},
		{"another instance of our pid", other(func(e *Entry) { e.PID = j.self.PID }), true},
		{"another host before its deadline", other(func(e *Entry) { e.Host = "elsewhere" }), false},
		{"another host after its deadline", other(func(e *Entry) { e.Host, e.Deadline = "elsewhere", now.Add(-time.Second) }), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := j.Stale(tt.e); got != tt.want {
				t.Errorf("Stale = %v, want %v", got, tt.want)
			}
		})
	}
	var nilJournal *Journal
	if nilJournal.Stale(other(func(e *Entry) { e.PID = deadPID })) {
		t.Error("a nil journal called an entry stale")
	}
}

func TestProcessAlive(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("process checks are exercised on Linux")
	}
	self := newJournal("x").self
	if !processAlive(self) {
		t.Fatal("our own process is not alive")
	}
	if self.ProcStart == "" {
		t.Fatal("no start time for our own process")
	}
	reused := self
	reused.ProcStart = "1"
	if processAlive(reused) {
		t.Error("a process with our pid but another start time counts as alive (pid reuse)")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if processAlive(Owner{PID: cmd.Process.Pid, ProcStart: "1"}) {
		t.Errorf("exited process %d counts as alive", cmd.Process.Pid)
	}
	if processAlive(Owner{PID: 0}) {
		t.Error("pid 0 counts as alive")
	}

	// A killed process that its parent has not reaped yet is a zombie,
	// which signal 0 still reaches.
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	owner := Owner{PID: sleeper.Process.Pid, ProcStart: procStart(sleeper.Process.Pid)}
	if !processAlive(owner) {
		t.Error("a running child counts as dead")
	}
	_ = sleeper.Process.Kill()
	deadline := time.Now().Add(5 * time.Second)
	for processAlive(owner) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if processAlive(owner) {
		t.Error("a killed, unreaped child counts as alive")
	}
	_ = sleeper.Wait()
}

func TestLifecycleOnDisk(t *testing.T) {
	t.Parallel()
	j := open(t, "self")
	e, err := j.Begin(scope, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	path := j.path(scope)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("journal file %s: %v, mode %v; want 0600", path, err, fi)
	}
	if err := j.Set(scope, e.ID, Created, "KEY1", e.Deadline); err != nil {
		t.Fatal(err)
	}
	// Another instance (a later process) reads what this one wrote; the
	// scope folds the user name's case.
	k := sibling(j, "later")
	folded := scope
	folded.UserName = "alice"
	got, err := k.Entries(folded)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{ID: e.ID, Owner: j.self, Started: e.Started, Deadline: e.Deadline, State: Created, KeyID: "KEY1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("entries (-want +got):\n%s", diff)
	}
	if err := k.Confirm(scope, "KEY1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := k.Entries(scope); len(got) != 1 || got[0].State != Confirmed {
		t.Fatalf("after Confirm: %+v", got)
	}
	if err := k.Forget(scope, "KEY1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file of an empty scope stays: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(j.dir, "*"))
	if len(left) != 0 {
		t.Fatalf("files left in the journal directory: %v", left)
	}
}

func TestConfirmClaimsOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	j := open(t, "self")
	// Nothing unresolved: confirming a key with no entry writes nothing.
	if err := j.Confirm(scope, "KEY0"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(j.path(scope)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Confirm wrote a file with nothing to protect: %v", err)
	}
	// With a create unresolved, the key gets a confirmed entry, so that
	// the create's recovery never takes it.
	p, _ := j.Begin(scope, time.Now().Add(time.Minute))
	if err := j.Confirm(scope, "KEY0"); err != nil {
		t.Fatal(err)
	}
	got, _ := j.Entries(scope)
	if len(got) != 2 || got[1].KeyID != "KEY0" || got[1].State != Confirmed || got[0].ID != p.ID {
		t.Fatalf("entries %+v, want the pending one and a confirmed KEY0", got)
	}
	fi, _ := os.Stat(j.path(scope))
	time.Sleep(10 * time.Millisecond)
	if err := j.Confirm(scope, "KEY0"); err != nil {
		t.Fatal(err)
	}
	if fj, _ := os.Stat(j.path(scope)); !fj.ModTime().Equal(fi.ModTime()) {
		t.Error("a Confirm that changes nothing rewrote the file")
	}
}

func TestRetention(t *testing.T) {
	t.Parallel()
	j := open(t, "self")
	now := time.Now()
	j.now = func() time.Time { return now }
	err := j.Update(scope, func([]Entry) []Entry {
		return []Entry{
			{ID: "old", Owner: j.self, Started: now.Add(-Retention - time.Hour), State: Pending},
			{ID: "new", Owner: j.self, Started: now.Add(-Retention + time.Hour), State: Pending},
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := j.Entries(scope)
	if len(got) != 1 || got[0].ID != "new" {
		t.Fatalf("entries %+v, want only the one younger than %s", got, Retention)
	}
}

func TestCorruptFileTolerated(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"truncated":     `{"version":1,"entries":[{"id":"a","sta`,
		"not json":      "\x00\x01garbage",
		"wrong version": `{"version":7,"entries":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			j := open(t, "self")
			if err := os.WriteFile(j.path(scope), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := j.Entries(scope)
			var corrupt *CorruptError
			if len(got) != 0 || !errors.As(err, &corrupt) {
				t.Fatalf("Entries = %v, %v; want none and a CorruptError", got, err)
			}
			// The next write replaces it and reports it once more.
			e, err := j.Begin(scope, time.Now())
			if !errors.As(err, &corrupt) {
				t.Fatalf("Begin over a corrupt file: %v, want a CorruptError", err)
			}
			got, err = j.Entries(scope)
			if err != nil || len(got) != 1 || got[0].ID != e.ID {
				t.Fatalf("after the rewrite: %v, %v", got, err)
			}
		})
	}
}

func TestUpdatesDoNotLoseEntries(t *testing.T) {
	t.Parallel()
	j := open(t, "self")
	const n = 40
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two instances of one process write the same file.
			w := j
			if i%2 == 1 {
				w = sibling(j, "other")
			}
			if _, err := w.Begin(scope, time.Now()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := j.Entries(scope)
	if err != nil || len(got) != n {
		t.Fatalf("%d entries (%v), want %d", len(got), err, n)
	}
	if tmp, _ := filepath.Glob(filepath.Join(j.dir, ".tmp-*")); len(tmp) != 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

func TestMemoryJournal(t *testing.T) {
	t.Parallel()
	s := scope
	s.UserName = "memory-" + NewInstanceID()
	a, b := Memory("a"), Memory("b")
	e, err := a.Begin(s, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := b.Entries(s)
	if len(got) != 1 || got[0].ID != e.ID || !b.Stale(got[0]) {
		t.Fatalf("another instance of this process sees %+v, want the entry, stale", got)
	}
	if err := b.Drop(s, e.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Entries(s); len(got) != 0 {
		t.Fatalf("after Drop: %+v", got)
	}
}

func TestNilJournal(t *testing.T) {
	t.Parallel()
	var j *Journal
	if _, err := j.Begin(scope, time.Now()); err != nil {
		t.Fatal(err)
	}
	if es, err := j.Entries(scope); es != nil || err != nil {
		t.Fatal(es, err)
	}
	if err := j.Confirm(scope, "K"); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesUnusableDir(t *testing.T) {
	t.Parallel()
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(f, "journal"), "x"); err == nil {
		t.Fatal("Open under a regular file succeeded")
	}
	if _, err := Open("", "x"); err == nil {
		t.Fatal("Open of no directory succeeded")
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/journal")
	if d, err := DefaultDir(); err != nil || d != "/somewhere/journal" {
		t.Fatalf("DefaultDir = %q, %v", d, err)
	}
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	t.Setenv("HOME", "/home/u")
	d, err := DefaultDir()
	if runtime.GOOS == "linux" && (err != nil || d != "/cache/terraform-provider-cloud/key-journal") {
		t.Fatalf("DefaultDir = %q, %v", d, err)
	}
}

func TestLockSerialisesAScope(t *testing.T) {
	t.Parallel()
	s := scope
	s.UserName = "lock-" + NewInstanceID()
	unlock := Lock(s)
	got := make(chan struct{})
	go func() {
		u := Lock(s)
		close(got)
		u()
	}()
	select {
	case <-got:
		t.Fatal("a second Lock of the scope did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	other := s
	other.ServiceName = "other.cloud.example"
	Lock(other)() // another scope is not held up
	unlock()
	<-got
}

func TestScopeFiles(t *testing.T) {
	t.Parallel()
	// A key scope keeps the file name it had before scopes had a Kind, so
	// an upgraded provider still finds the entries an older one wrote.
	if got, want := scope.key(), "bf24fe012c5ace6b5b36750616b8b736"; got != want {
		t.Errorf("key scope file %s, want %s (the name journals on disk already use)", got, want)
	}
	user := UserScope(scope.Endpoint, scope.Region, scope.UserName)
	folded := UserScope(scope.Endpoint, scope.Region, "ALICE")
	noService := scope
	noService.ServiceName = ""
	otherRegion := UserScope(scope.Endpoint, "eu-west-1", scope.UserName)
	otherEndpoint := UserScope("http://127.0.0.1:9090", scope.Region, scope.UserName)
	if user.key() != folded.key() {
		t.Error("a user scope does not fold the user name's case")
	}
	for name, s := range map[string]Scope{"the user's keys": scope, "a key scope with no service": noService, "another region": otherRegion, "another endpoint": otherEndpoint} {
		if s.key() == user.key() {
			t.Errorf("the user scope shares its file with %s", name)
		}
	}
}

func TestUserScopeLifecycle(t *testing.T) {
	t.Parallel()
	j := open(t, "self")
	s := UserScope(scope.Endpoint, scope.Region, "Bob")
	e, err := j.Begin(s, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if e.Dir == "" || e.Dir != wd {
		t.Fatalf("entry dir %q, want the working directory %q", e.Dir, wd)
	}
	if err := j.Set(s, e.ID, Created, "AIDAUSERID", e.Deadline); err != nil {
		t.Fatal(err)
	}
	// A later process of the same directory reads the entry, with its
	// owner's directory, and no key scope of the user sees it.
	k := sibling(j, "later")
	got, err := k.Entries(UserScope(scope.Endpoint, scope.Region, "bob"))
	if err != nil || len(got) != 1 || got[0].KeyID != "AIDAUSERID" || got[0].State != Created || got[0].Dir != wd {
		t.Fatalf("entries %+v, %v; want the created one, with its directory", got, err)
	}
	keys := scope
	keys.UserName = "Bob"
	if got, _ := k.Entries(keys); len(got) != 0 {
		t.Fatalf("the user's key scope holds the user's entries: %+v", got)
	}
	b, err := os.ReadFile(j.path(s))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"kind": "user"`) || strings.Contains(string(b), "service_name") {
		t.Errorf("the file does not say it is a user scope:\n%s", b)
	}
	if err := k.Confirm(s, "AIDAUSERID"); err != nil {
		t.Fatal(err)
	}
	if got, _ := k.Entries(s); len(got) != 1 || got[0].State != Confirmed {
		t.Fatalf("after Confirm: %+v", got)
	}
	if err := k.Forget(s, "AIDAUSERID"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(j.path(s)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file of a deleted user stays: %v", err)
	}
}
