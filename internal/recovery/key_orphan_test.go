package recovery

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// t0 is when the interrupted create started, by the service's clock.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 300_000_000, time.UTC)

func pending(id string, started time.Time, window time.Duration) record {
	return record{ID: id, Started: started, Deadline: started.Add(window)}
}

func named(id, key string) record {
	return record{ID: id, Started: t0, Deadline: t0, KeyID: key}
}

// key is a key created at the given time by the service's clock, which
// truncates to the second.
func key(id string, created time.Time) identityclient.ServiceSpecificCredential {
	c := created.Truncate(time.Second)
	return identityclient.ServiceSpecificCredential{ServiceSpecificCredentialID: id, CreateDate: c, ExpirationDate: c.Add(30 * 24 * time.Hour), Status: "Active"}
}

// result is a match as ids: the entry's key id ("" for none) and the
// ambiguous ids.
type result struct {
	Key       string
	Ambiguous []string
}

func results(ms []match) map[string]result {
	out := map[string]result{}
	for _, m := range ms {
		r := result{Ambiguous: m.ambiguous}
		if m.key != nil {
			r.Key = m.key.ServiceSpecificCredentialID
		}
		out[m.entry.ID] = r
	}
	return out
}

func TestMatchKeys(t *testing.T) {
	t.Parallel()
	const window = 10 * time.Second
	day := 24 * time.Hour
	tests := []struct {
		name    string
		marked  []string // ids of keys with a mark
		stale   []record
		keys    []identityclient.ServiceSpecificCredential
		want    map[string]result
		comment string
	}{
		{
			name:  "the key landed during the create",
			stale: []record{pending("p", t0, window)},
			keys:  []identityclient.ServiceSpecificCredential{key("NEW", t0.Add(500*time.Millisecond))},
			want:  map[string]result{"p": {Key: "NEW"}},
		},
		{
			name:    "CreateDate truncated to the second before the start",
			stale:   []record{pending("p", t0, window)},
			keys:    []identityclient.ServiceSpecificCredential{key("NEW", t0)}, // 12:00:00 for a start at 12:00:00.3
			want:    map[string]result{"p": {Key: "NEW"}},
			comment: "second resolution needs the margin",
		},
		{
			name:  "nothing landed",
			stale: []record{pending("p", t0, window)},
			keys:  []identityclient.ServiceSpecificCredential{key("OLD", t0.Add(-time.Hour))},
			want:  map[string]result{"p": {}},
		},
		{
			name:  "a key older than the entry by more than the margin is not the orphan (renewal's old key)",
			stale: []record{pending("p", t0, window)},
			keys: []identityclient.ServiceSpecificCredential{
				key("OLD", t0.Add(-clockMargin-1500*time.Millisecond)), key("NEW", t0.Add(time.Second)),
			},
			want: map[string]result{"p": {Key: "NEW"}},
		},
		{
			name:  "a key created after the deadline is someone else's",
			stale: []record{pending("p", t0, window)},
			keys:  []identityclient.ServiceSpecificCredential{key("LATER", t0.Add(window+clockMargin+time.Second))},
			want:  map[string]result{"p": {}},
		},
		{
			name:  "the service's clock runs days ahead (an emulator moved forward): records are by its clock",
			stale: []record{pending("p", t0.Add(24*day), window)},
			keys:  []identityclient.ServiceSpecificCredential{key("OLD", t0.Add(24*day-time.Hour)), key("NEW", t0.Add(24*day+time.Second))},
			want:  map[string]result{"p": {Key: "NEW"}},
		},
		{
			name:   "a marked key is not taken (held by a configuration)",
			marked: []string{"MINE", "OTHERS"},
			stale:  []record{pending("p", t0, window)},
			keys: []identityclient.ServiceSpecificCredential{
				key("MINE", t0.Add(-time.Second)), key("OTHERS", t0.Add(time.Second)), key("NEW", t0.Add(2*time.Second)),
			},
			want: map[string]result{"p": {Key: "NEW"}},
		},
		{
			name:  "a record naming a key matches it by id, wherever its date",
			stale: []record{named("c", "K")},
			keys:  []identityclient.ServiceSpecificCredential{key("K", t0.Add(-3*day)), key("X", t0)},
			want:  map[string]result{"c": {Key: "K"}},
		},
		{
			name:  "a record naming a key that is gone",
			stale: []record{named("c", "GONE")},
			keys:  []identityclient.ServiceSpecificCredential{key("X", t0)},
			want:  map[string]result{"c": {}},
		},
		{
			name:  "two keys in one entry's window: which is ours cannot be told",
			stale: []record{pending("p", t0, window)},
			keys:  []identityclient.ServiceSpecificCredential{key("A", t0.Add(time.Second)), key("B", t0.Add(3*time.Second))},
			want:  map[string]result{"p": {Ambiguous: []string{"A", "B"}}},
		},
		{
			name:  "two interrupted creates, overlapping windows, two keys: both accounted for",
			stale: []record{pending("second", t0.Add(4*time.Second), window), pending("first", t0, window)},
			keys:  []identityclient.ServiceSpecificCredential{key("B", t0.Add(5*time.Second)), key("A", t0.Add(time.Second))},
			want:  map[string]result{"first": {Key: "A"}, "second": {Key: "B"}},
		},
		{
			name:  "two interrupted creates, far apart, each its own key",
			stale: []record{pending("first", t0, window), pending("second", t0.Add(time.Hour), window)},
			keys:  []identityclient.ServiceSpecificCredential{key("A", t0.Add(time.Second)), key("B", t0.Add(time.Hour+time.Second))},
			want:  map[string]result{"first": {Key: "A"}, "second": {Key: "B"}},
		},
		{
			name:  "a foreign key in one window leaves only that entry unresolved",
			stale: []record{pending("first", t0, window), pending("second", t0.Add(time.Hour), window)},
			keys: []identityclient.ServiceSpecificCredential{
				key("A", t0.Add(time.Second)), key("B", t0.Add(time.Hour+time.Second)), key("FOREIGN", t0.Add(time.Hour+2*time.Second)),
			},
			want: map[string]result{"first": {Key: "A"}, "second": {Ambiguous: []string{"B", "FOREIGN"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tags := map[string]keyTags{}
			for _, id := range tt.marked {
				tags[MarkTag(id)] = keyTags{mark: "nonce"}
			}
			got := results(matchKeys(tags, tt.stale, tt.keys))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("matches (-want +got):\n%s%s", diff, tt.comment)
			}
		})
	}
}

func TestFits(t *testing.T) {
	t.Parallel()
	now := t0
	k := func(ageDays int, createdAgo time.Duration) *identityclient.ServiceSpecificCredential {
		c := now.Add(-createdAgo)
		out := &identityclient.ServiceSpecificCredential{CreateDate: c}
		if ageDays > 0 {
			out.ExpirationDate = c.Add(time.Duration(ageDays) * 24 * time.Hour)
		}
		return out
	}
	tests := []struct {
		name string
		key  *identityclient.ServiceSpecificCredential
		want WantKey
		fits bool
	}{
		{"same age", k(30, time.Minute), WantKey{AgeDays: 30}, true},
		{"another age", k(30, time.Minute), WantKey{AgeDays: 90}, false},
		{"never expires, as planned", k(0, time.Minute), WantKey{}, true},
		{"never expires, but an age is planned", k(0, time.Minute), WantKey{AgeDays: 30}, false},
		{"expiring, but none planned", k(30, time.Minute), WantKey{}, false},
		{"expired", k(1, 25*time.Hour), WantKey{AgeDays: 1}, false},
		{"inside renew_before_days", k(7, 5*24*time.Hour), WantKey{AgeDays: 7, RenewBeforeDays: 3}, false},
		{"outside renew_before_days", k(7, 24*time.Hour), WantKey{AgeDays: 7, RenewBeforeDays: 3}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := fits(tt.key, tt.want, now); got != tt.fits {
				t.Errorf("fits = %v, want %v", got, tt.fits)
			}
		})
	}
}

func TestCreateWindow(t *testing.T) {
	t.Parallel()
	cfg := client.Config{MaxRetries: 3, AttemptTimeout: 2 * time.Second}.WithDefaults()
	// Four attempts and one more timeout for a late landing, plus the
	// backoff before each retry (100, 200, 400ms at most).
	if got, want := CreateWindow(cfg), 10*time.Second+700*time.Millisecond; got != want {
		t.Errorf("CreateWindow = %s, want %s", got, want)
	}
	cfg.MaxRetries = 0
	if got, want := CreateWindow(cfg), 4*time.Second; got != want {
		t.Errorf("CreateWindow without retries = %s, want %s", got, want)
	}
	if got, want := CreateWindow(client.Config{MaxRetries: client.DefaultMaxRetries}.WithDefaults()), 5*client.DefaultAttemptTimeout+700*time.Millisecond; got != want {
		t.Errorf("CreateWindow with defaults = %s, want %s", got, want)
	}
}

func TestUntilSeen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n := 0
	found, err := untilSeen(ctx, time.Second, time.Millisecond, func() (bool, error) { n++; return n == 3, nil })
	if !found || err != nil || n != 3 {
		t.Errorf("found %v err %v after %d looks, want found after 3", found, err, n)
	}
	n = 0
	// Ending at the window, not at the caller's deadline (which would be
	// an error), however slow the machine.
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	found, err = untilSeen(wctx, 50*time.Millisecond, 10*time.Millisecond, func() (bool, error) { n++; return false, nil })
	if found || err != nil || n < 2 {
		t.Errorf("found %v err %v after %d looks, want not found, no error, when the window ends", found, err, n)
	}
	n = 0
	found, err = untilSeen(ctx, 0, time.Millisecond, func() (bool, error) { n++; return false, nil })
	if found || err != nil || n != 1 {
		t.Errorf("an empty window: found %v err %v after %d looks, want one look", found, err, n)
	}
	boom := errors.New("boom")
	if _, err := untilSeen(ctx, time.Second, time.Millisecond, func() (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("err %v, want the look's error", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := untilSeen(cctx, time.Second, time.Millisecond, func() (bool, error) { return false, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want the caller's cancellation", err)
	}
}

// newKeyRun is a run on an emulator of its own, with user "kim".
// orphanKey makes a key of kim's that no run recorded, as an interrupted
// create leaves one, and returns its id and its creation time as the
// service lists it.
func orphanKey(t *testing.T, r *testRun) (string, time.Time) {
	t.Helper()
	id, _, err := r.emu.Identity.CreateCredentialBehindTheBack("kim", service, 30, r.emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	keys, err := r.idc.ListServiceSpecificCredentials(context.Background(), "kim", service)
	if err != nil || len(keys.Credentials) != 1 {
		t.Fatalf("keys %v, %v", keys, err)
	}
	return id, keys.Credentials[0].CreateDate
}

func newKeyRun(t *testing.T, transport http.RoundTripper) *testRun {
	t.Helper()
	r := newRun(t, transport)
	if _, err := r.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "kim"}); err != nil {
		t.Fatal(err)
	}
	return r
}

// Ctrl-C right after the create's answer arrived: the key is marked held
// and its record removed all the same, so no later recovery takes it.
func TestKeyCreateInterruptedAfterTheAnswer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newKeyRun(t, &answered{op: "CreateServiceSpecificCredential", then: cancel})
	cred := createdQuietly(t, r.createKey(ctx))
	if ctx.Err() == nil {
		t.Fatal("the run was not interrupted: the test tests nothing")
	}
	tags := r.emu.Identity.UserTags("kim")
	if marks := heldMarks(tags); len(tags) != 1 || !marks[MarkTag(cred.ServiceSpecificCredentialID)] {
		t.Fatalf("tags %v, want only the mark of key %s", tags, cred.ServiceSpecificCredentialID)
	}
}

// The mark cannot be set after the answer: the record goes all the same
// (past its deadline it would have a later recovery take the key), and the
// note says the record is gone and which mark to set (the resource's
// warning, TestKeyDiagnostics, tells it).
func TestKeyCreateNotMarkedStillClearsItsRecord(t *testing.T) {
	t.Parallel()
	var r *testRun
	r = newKeyRun(t, &answered{op: "CreateServiceSpecificCredential", then: func() {
		if err := r.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "TagUser", Kind: emulator.FaultError, Status: 403, Code: "AccessDenied", Times: -1}); err != nil {
			t.Error(err)
		}
	}})
	out := r.createKey(context.Background())
	created, ok := out.End.(KeyCreated)
	if !ok || len(out.Notes) != 1 {
		t.Fatalf("%s; want the key and one note", show(out.End, out.Notes))
	}
	n, ok := out.Notes[0].(KeyNotMarked)
	if mark := MarkTag(created.Key.ServiceSpecificCredentialID); !ok || n.MarkErr == nil || n.UnrecordErr != nil || n.MarkTag != mark || n.KeyID != created.Key.ServiceSpecificCredentialID {
		t.Fatalf("note %+v; want the mark %s not set and the record removed", out.Notes[0], mark)
	}
	if tags := r.emu.Identity.UserTags("kim"); len(tags) != 0 {
		t.Fatalf("tags %v, want the record removed", tags)
	}
}

// Two runs recovering the same interrupted create at once: one adopts its
// key, the other creates its own; never both the same key. Interleaved so
// that each sees no other claim when it writes its own, and started at the
// same moment.
func TestKeyRecoveryTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	t.Run("interleaved", func(t *testing.T) {
		t.Parallel()
		ta, tb, bDone := twoRuns("ResetServiceSpecificCredential")
		twoRecoveries(t, ta, tb, bDone)
	})
	t.Run("same moment", func(t *testing.T) {
		t.Parallel()
		twoRecoveries(t, http.DefaultTransport, http.DefaultTransport, func() {})
	})
}

func twoRecoveries(t *testing.T, ta, tb http.RoundTripper, bDone func()) {
	r := newKeyRun(t, nil)
	ctx := context.Background()
	orphanID, created := orphanKey(t, r)
	started := created.Add(-time.Second)
	if err := r.idc.TagUser(ctx, "kim", []identityclient.Tag{recordTag("interrupted", service, started, started.Add(5*time.Second))}); err != nil {
		t.Fatal(err)
	}
	r.emu.Clock().Advance(time.Minute)

	a, b := r.other(t, ta), r.other(t, tb)
	var wg sync.WaitGroup
	var outA, outB KeyOutcome
	wg.Add(2)
	go func() { defer wg.Done(); outA = a.createKey(ctx) }()
	go func() { defer wg.Done(); defer bDone(); outB = b.createKey(ctx) }()
	wg.Wait()
	credA, credB := outA.Key(), outB.Key()
	if credA == nil || credB == nil {
		t.Fatalf("A: %s\nB: %s", show(outA.End, outA.Notes), show(outB.End, outB.Notes))
	}
	if credA.ServiceSpecificCredentialID == credB.ServiceSpecificCredentialID {
		t.Fatalf("both runs took key %s", credA.ServiceSpecificCredentialID)
	}
	if credA.ServiceSpecificCredentialID != orphanID && credB.ServiceSpecificCredentialID != orphanID {
		t.Errorf("neither run adopted the orphan %s (A %s, B %s)", orphanID, credA.ServiceSpecificCredentialID, credB.ServiceSpecificCredentialID)
	}
	for run, c := range map[string]*identityclient.ServiceSpecificCredential{"A": credA, "B": credB} {
		if _, ok := r.emu.Identity.LookupServiceAPIKey(c.ServiceAPIKeyValue); !ok {
			t.Errorf("run %s's value of key %s is refused", run, c.ServiceSpecificCredentialID)
		}
	}
	tags := r.emu.Identity.UserTags("kim")
	want := map[string]bool{MarkTag(credA.ServiceSpecificCredentialID): true, MarkTag(credB.ServiceSpecificCredentialID): true}
	if marks := heldMarks(tags); len(tags) != 2 || !maps.Equal(marks, want) {
		t.Errorf("tags %v left on the user; want only the marks of %s and %s", tags, credA.ServiceSpecificCredentialID, credB.ServiceSpecificCredentialID)
	}
}
