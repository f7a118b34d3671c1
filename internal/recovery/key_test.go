package recovery

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// freshUser makes user name through CreateUser on a run that remembers
// the users it made, as a provider instance does.
func freshUser(t *testing.T, r *testRun, name string) *identityclient.User {
	t.Helper()
	r.made = &conns.CreatedUsers{}
	out := r.createUser(context.Background(), name, "/")
	if _, ok := out.End.(UserCreated); !ok {
		t.Fatalf("user create: %s", show(out.End, out.Notes))
	}
	return out.User()
}

// A key create for a user that exists already looks for interrupted
// creates (ListUserTags), records its own, and once answered turns the
// record into the key's mark with one TagUser: no UntagUser.
func TestKeyCreateHoldsWithOneCall(t *testing.T) {
	t.Parallel()
	r := newKeyRun(t, nil)
	r.emu.ClearCalls()
	cred := createdQuietly(t, r.createKey(context.Background()))
	want := map[string]int{"ListUserTags": 1, "TagUser": 2, "CreateServiceSpecificCredential": 1}
	if got := callsOf(r.emu); !maps.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	tags := r.emu.Identity.UserTags("kim")
	for k, v := range tags {
		if len(tags) != 1 || k[:len(tagRecord)] != tagRecord || !strings.HasPrefix(v, settledValue+cred.ServiceSpecificCredentialID+" ") {
			t.Fatalf("tags %v, want only the record turned into the mark of %s", tags, cred.ServiceSpecificCredentialID)
		}
	}
	if pending, keys := readTags(mapTags(tags), service); len(pending) != 0 || keys[MarkTag(cred.ServiceSpecificCredentialID)].mark == "" {
		t.Fatalf("records %v, keys %v: want no record and the key held", pending, keys)
	}
}

// A key create for a user the same provider instance created makes no
// ListUserTags; another instance, for the same user, looks as before.
func TestKeyCreateSkipsTheLookForAUserThisRunMade(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	freshUser(t, r, "kim")
	r.emu.ClearCalls()
	createdQuietly(t, r.createKey(context.Background()))
	want := map[string]int{"TagUser": 2, "CreateServiceSpecificCredential": 1}
	if got := callsOf(r.emu); !maps.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	r.emu.ClearCalls()
	other := r.other(t, nil)
	other.made, other.ours = &conns.CreatedUsers{}, &conns.CreatedKeys{}
	out := other.createKey(context.Background())
	if _, ok := out.End.(KeyCreated); !ok {
		t.Fatalf("%s; want a key created", show(out.End, out.Notes))
	}
	r.emu.ExpectCalls(t, "ListUserTags", 1, "another instance looks")
	// It cannot tell the first instance's key, marked a moment ago, from
	// one whose run was killed before Terraform saved it: it says so.
	if len(out.Notes) != 1 {
		t.Fatalf("notes %+v, want the first key named as possibly in no state", out.Notes)
	}
	if n, ok := out.Notes[0].(KeyMaybeUnsaved); !ok || len(n.Keys) != 1 {
		t.Fatalf("notes %+v, want the first key named as possibly in no state", out.Notes)
	}
}

// A key create that skips the look still records its create by the
// service's clock, taken from the user's CreateDate: here the service's
// clock runs an hour ahead, and the record a create leaves (its mark could
// not be set, nor the record removed) covers the key it made, so a later
// run finds and adopts it.
func TestKeyCreateSkippingTheLookRecordsByTheServiceClock(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	e := r.emu
	e.Clock().Advance(time.Hour)
	freshUser(t, r, "kim")
	run := r.other(t, &answered{op: "CreateServiceSpecificCredential", then: func() {
		for _, op := range []string{"TagUser", "UntagUser"} {
			if err := e.InjectFault(emulator.Fault{Service: "identity", Operation: op, Kind: emulator.FaultError, Status: 403, Code: "AccessDenied", Times: -1}); err != nil {
				t.Error(err)
			}
		}
	}})
	out := run.createKey(context.Background())
	cred := out.Key()
	if n, ok := notMarked(out); !ok || n.MarkErr == nil || n.UnrecordErr == nil {
		t.Fatalf("%s; want the key and a note that neither the mark nor the record's removal was written", show(out.End, out.Notes))
	}
	pending, _ := readTags(mapTags(e.Identity.UserTags("kim")), service)
	if len(pending) != 1 {
		t.Fatalf("records %v, want the create's", pending)
	}
	keys, err := r.idc.ListServiceSpecificCredentials(context.Background(), "kim", service)
	if err != nil || len(keys.Credentials) != 1 {
		t.Fatalf("keys %v, %v", keys, err)
	}
	if !inCreateWindow(pending[0], keys.Credentials[0].CreateDate) {
		t.Fatalf("record from %s to %s does not cover the key created at %s", pending[0].Started, pending[0].Deadline, keys.Credentials[0].CreateDate)
	}
	e.ClearFaults()
	e.Clock().Advance(time.Hour)
	later := r.other(t, nil)
	later.made = nil
	out = later.createKey(context.Background())
	if adopted := out.Key(); adopted == nil || adopted.ServiceSpecificCredentialID != cred.ServiceSpecificCredentialID {
		t.Fatalf("later run: %s; want %s adopted", show(out.End, out.Notes), cred.ServiceSpecificCredentialID)
	}
}

// Another run's create was in flight on the user when this run, which made
// the user, created its key without looking: a later recovery of that
// interrupted create takes that run's key and never this run's, whose
// record became its mark.
func TestKeyCreateSkippingTheLookBesideAnotherRunsCreate(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	e := r.emu
	freshUser(t, r, "kim")
	ctx := context.Background()
	now := e.Clock().Now().Truncate(time.Second)
	if err := r.idc.TagUser(ctx, "kim", []identityclient.Tag{recordTag("otherrun", service, now, now.Add(30*time.Second))}); err != nil {
		t.Fatal(err)
	}
	theirs, _, err := e.Identity.CreateCredentialBehindTheBack("kim", service, 30, e.Region())
	if err != nil {
		t.Fatal(err)
	}
	mine := createdQuietly(t, r.createKey(ctx))
	e.Clock().Advance(time.Hour)
	later := r.other(t, nil)
	later.made = nil
	out := later.createKey(ctx)
	if adopted := out.Key(); adopted == nil || adopted.ServiceSpecificCredentialID != theirs {
		t.Fatalf("later run: %s; want the other run's key %s adopted", show(out.End, out.Notes), theirs)
	}
	keys, err := r.idc.ListServiceSpecificCredentials(ctx, "kim", service)
	if err != nil || len(keys.Credentials) != 2 {
		t.Fatalf("keys %v, %v; want this run's and the adopted one", keys, err)
	}
	if marks := heldMarks(e.Identity.UserTags("kim")); !marks[MarkTag(mine.ServiceSpecificCredentialID)] || !marks[MarkTag(theirs)] {
		t.Fatalf("marks %v, want both keys held", marks)
	}
}

// A key create that finds the user's tags filling up removes the marks of
// keys that are gone, in either form, and nothing else; below sweepAt it
// lists no keys for it.
func TestKeyCreateSweepsStaleMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newKeyRun(t, nil)
	live, _, err := r.emu.Identity.CreateCredentialBehindTheBack("kim", service, 30, r.emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	tags := []identityclient.Tag{
		{Key: MarkTag(live), Value: "n"},
		{Key: MarkTag("ACCAGONEGONEGONEGONE1"), Value: "n"},
		settledTag(tagRecord+"gone", "ACCAGONEGONEGONEGONE2", r.emu.Clock().Now().Add(-2*unsavedHorizon)),
	}
	for i := len(tags); i < sweepAt-1; i++ {
		tags = append(tags, identityclient.Tag{Key: fmt.Sprintf("team-%d", i), Value: "x"})
	}
	if err := r.idc.TagUser(ctx, "kim", tags); err != nil {
		t.Fatal(err)
	}
	r.emu.ClearCalls()
	first := createdQuietly(t, r.createKey(ctx))
	r.emu.ExpectCalls(t, "ListServiceSpecificCredentials", 0, fmt.Sprintf("with %d tags the create lists no keys", sweepAt-1))
	// The new key's mark makes sweepAt tags: the next create, once the
	// mark is older than a create window, sweeps.
	if err := r.idc.DeleteServiceSpecificCredential(ctx, "kim", first.ServiceSpecificCredentialID); err != nil {
		t.Fatal(err)
	}
	r.emu.Clock().Advance(time.Hour)
	second := createdQuietly(t, r.createKey(ctx))
	got := r.emu.Identity.UserTags("kim")
	marks := heldMarks(got)
	want := map[string]bool{MarkTag(live): true, MarkTag(second.ServiceSpecificCredentialID): true}
	if !maps.Equal(marks, want) {
		t.Errorf("marks %v, want only those of the live keys %s and %s", marks, live, second.ServiceSpecificCredentialID)
	}
	if len(got) != len(want)+sweepAt-1-3 {
		t.Errorf("%d tags left (%v), want the user's own %d and the two marks", len(got), got, sweepAt-1-3)
	}
}

// notMarked is the one note of a create that made a key and could not
// settle its record as it should.
func notMarked(out KeyOutcome) (KeyNotMarked, bool) {
	if _, ok := out.End.(KeyCreated); !ok || len(out.Notes) != 1 {
		return KeyNotMarked{}, false
	}
	n, ok := out.Notes[0].(KeyNotMarked)
	return n, ok
}

// A listing of the user's keys may lag a key just created: the sweep keeps
// the mark of a key the listing lacks while the mark is younger than a
// create window, and removes an older one, in either form.
func TestKeyCreateSweepKeepsYoungMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newKeyRun(t, nil)
	now := r.emu.Clock().Now()
	young := settledTag(tagRecord+"young", "ACCAYOUNGYOUNGYOUNG1", now)
	tags := []identityclient.Tag{
		young,
		settledTag(tagRecord+"old", "ACCAOLDOLDOLDOLDOLD1", now.Add(-time.Hour)),
		{Key: tagRecord + "older", Value: settledValue + "ACCAOLDOLDOLDOLDOLD2"},
	}
	for i := len(tags); i < sweepAt; i++ {
		tags = append(tags, identityclient.Tag{Key: fmt.Sprintf("team-%d", i), Value: "x"})
	}
	if err := r.idc.TagUser(ctx, "kim", tags); err != nil {
		t.Fatal(err)
	}
	cred := createdQuietly(t, r.createKey(ctx))
	marks := heldMarks(r.emu.Identity.UserTags("kim"))
	want := map[string]bool{MarkTag("ACCAYOUNGYOUNGYOUNG1"): true, MarkTag(cred.ServiceSpecificCredentialID): true}
	if !maps.Equal(marks, want) {
		t.Errorf("marks %v, want the young mark %s kept, the old ones removed, and the new key's", marks, young.Value)
	}
}

// truncating is a transport whose ListServiceSpecificCredentials answers
// say the service left keys out.
type truncating struct{}

func (truncating) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	const end = "</ListServiceSpecificCredentialsResult>"
	body = bytes.Replace(body, []byte(end), []byte("<IsTruncated>true</IsTruncated><Marker>m1</Marker>"+end), 1)
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, err
}

// A truncated listing of the user's keys may leave out keys that exist:
// the sweep removes no mark then, however old.
func TestKeyCreateSweepRemovesNothingOnATruncatedListing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newKeyRun(t, truncating{})
	old := settledTag(tagRecord+"old", "ACCAOLDOLDOLDOLDOLD1", r.emu.Clock().Now().Add(-time.Hour))
	tags := []identityclient.Tag{old}
	for i := len(tags); i < sweepAt; i++ {
		tags = append(tags, identityclient.Tag{Key: fmt.Sprintf("team-%d", i), Value: "x"})
	}
	if err := r.idc.TagUser(ctx, "kim", tags); err != nil {
		t.Fatal(err)
	}
	r.emu.ClearCalls()
	createdQuietly(t, r.createKey(ctx))
	if r.emu.Sent("ListServiceSpecificCredentials") == 0 {
		t.Fatal("the create did not list the user's keys: the test tests nothing")
	}
	if got := r.emu.Identity.UserTags("kim")[old.Key]; got != old.Value {
		t.Errorf("mark %s = %q after the sweep, want %q kept", old.Key, got, old.Value)
	}
}

// Another run's create of a key on a user this run made was interrupted,
// leaving a key beside the one this run made: the next create, which skips
// the look, is refused with LimitExceeded, and then looks, recovers the
// orphan and ends as a create that looked always has: the orphan adopted.
func TestKeyCreateSkippingTheLookRecoversWhenRefusedForTheLimit(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	e := r.emu
	freshUser(t, r, "kim")
	ctx := context.Background()
	createdQuietly(t, r.createKey(ctx))
	now := e.Clock().Now().Truncate(time.Second)
	if err := r.idc.TagUser(ctx, "kim", []identityclient.Tag{recordTag("otherrun", service, now, now.Add(30*time.Second))}); err != nil {
		t.Fatal(err)
	}
	orphan, _, err := e.Identity.CreateCredentialBehindTheBack("kim", service, 30, e.Region())
	if err != nil {
		t.Fatal(err)
	}
	e.Clock().Advance(time.Minute)
	e.ClearCalls()
	out := r.createKey(ctx)
	adopted, ok := out.End.(KeyAdopted)
	if !ok || adopted.Key.ServiceSpecificCredentialID != orphan || len(out.Notes) != 0 {
		t.Fatalf("%s; want the orphan %s adopted, nothing else to tell", show(out.End, out.Notes), orphan)
	}
	if refused := e.CallsTo("CreateServiceSpecificCredential"); len(refused) != 1 || refused[0].Status < 400 {
		t.Errorf("CreateServiceSpecificCredential calls %v, want the one refused for the limit", refused)
	}
	if pending, _ := readTags(mapTags(e.Identity.UserTags("kim")), service); len(pending) != 0 {
		t.Errorf("records left: %v", pending)
	}
}

// Every answer to the TagUser that turns the record into the key's mark is
// lost, though the service wrote the mark: the create sends it once more,
// rather than remove the record's tag key, which now holds the mark.
func TestKeyCreateSettleWhoseAnswerIsLost(t *testing.T) {
	t.Parallel()
	var r *testRun
	r = newKeyRun(t, &answered{op: "CreateServiceSpecificCredential", then: func() {
		attempts := r.cfg.MaxRetries + 1
		if err := r.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "TagUser", Kind: emulator.FaultLostResponse, Times: attempts}); err != nil {
			t.Error(err)
		}
	}})
	r.emu.ClearCalls()
	cred := createdQuietly(t, r.createKey(context.Background()))
	// Answered calls, not every call: the count of lost attempts the
	// service saw is the client's retrying, not this rule.
	if got := r.emu.Answered("TagUser", false); got != 2 {
		t.Errorf("%d TagUser calls answered, want 2 (the record, the mark sent again after every attempt of it was lost): %v", got, r.emu.CallsTo("TagUser"))
	}
	tags := r.emu.Identity.UserTags("kim")
	if marks := heldMarks(tags); len(tags) != 1 || !marks[MarkTag(cred.ServiceSpecificCredentialID)] {
		t.Fatalf("tags %v, want only the mark of key %s", tags, cred.ServiceSpecificCredentialID)
	}
}

// TestInFlightElsewhereNamesLiveClaims: a create that waits out on another
// run's takeover (a live claim for a record still on the user, that record
// itself over) names the claim and when it lapses, not nothing.
func TestInFlightElsewhereNamesLiveClaims(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := recordTag("n1", "models.cloud.example", start, start.Add(time.Minute))
	claim := claimTag("n2", record{ID: rec.Key}, "ACCAKEY", start.Add(5*time.Minute))
	pending, keys := readTags([]identityclient.Tag{rec, claim}, "models.cloud.example")
	v := &view{now: start.Add(3 * time.Minute), pending: pending, tags: keys}
	if v.landingUntil(nil).IsZero() {
		t.Fatal("landingUntil does not wait for the live claim")
	}
	got := v.inFlightElsewhere("kim", nil, time.Minute)
	if len(got.Records) != 1 || got.Records[0].Tag != claim.Key || !got.Records[0].Lapses.Equal(start.Add(5*time.Minute).Add(clockMargin)) {
		t.Fatalf("records named %+v, want the claim %s lapsing %s", got.Records, claim.Key, start.Add(5*time.Minute).Add(clockMargin))
	}
}

// TestRecordsLandingUntilLeavesClaimsOut: a create ends its wait at once
// only for another run's record that may land a key past its bound; a
// takeover's claim, which goes once the takeover is done, is waited for
// up to the bound (two runs recovering one orphan: the one that lost the
// contest waits for the winner rather than failing).
func TestRecordsLandingUntilLeavesClaimsOut(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	over := recordTag("n1", "models.cloud.example", start, start.Add(time.Minute))
	claim := claimTag("n2", record{ID: over.Key}, "ACCAKEY", start.Add(time.Hour))
	pending, keys := readTags([]identityclient.Tag{over, claim}, "models.cloud.example")
	v := &view{now: start.Add(3 * time.Minute), pending: pending, tags: keys}
	if v.landingUntil(nil).IsZero() {
		t.Fatal("landingUntil does not wait for the live claim")
	}
	if got := v.recordsLandingUntil(nil); !got.IsZero() {
		t.Fatalf("recordsLandingUntil = %s with no record in flight, want zero: a claim would end the wait at once", got)
	}
	far := recordTag("n3", "models.cloud.example", start.Add(2*time.Minute), start.Add(time.Hour))
	pending, keys = readTags([]identityclient.Tag{over, claim, far}, "models.cloud.example")
	v = &view{now: start.Add(3 * time.Minute), pending: pending, tags: keys}
	if got := v.recordsLandingUntil(nil); !got.Equal(start.Add(time.Hour)) {
		t.Fatalf("recordsLandingUntil = %s, want the far record's deadline %s", got, start.Add(time.Hour))
	}
}
