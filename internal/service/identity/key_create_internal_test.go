package identity

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

	"github.com/hashicorp/terraform-plugin-framework/diag"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// callsOf counts the identity calls the emulator received since the last
// ClearCalls, by operation.
func callsOf(e *emulator.Emulator) map[string]int {
	n := map[string]int{}
	for _, c := range e.Calls() {
		if c.Service == "identity" {
			n[c.Operation]++
		}
	}
	return n
}

// freshUser makes user name through the user resource's create on clients
// that remember the users they made, as a provider instance does.
func freshUser(t *testing.T, clients *conns.Clients, name string) *identityclient.User {
	t.Helper()
	clients.CreatedUsers = &conns.CreatedUsers{}
	var diags diag.Diagnostics
	u := newUserCreate(clients, identityclient.CreateUserInput{UserName: name, Path: "/"}, &diags).run(context.Background())
	if u == nil || diags.HasError() {
		t.Fatalf("user create: %s: %s", summaries(diags), details(diags))
	}
	return u
}

// A key create for a user that exists already looks for interrupted
// creates (ListUserTags), records its own, and once answered turns the
// record into the key's mark with one TagUser: no UntagUser.
func TestKeyCreateHoldsWithOneCall(t *testing.T) {
	t.Parallel()
	h := newKeyHarness(t, nil)
	h.emu.ClearCalls()
	cred, diags := h.create(context.Background())
	if cred == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", cred, summaries(diags), details(diags))
	}
	want := map[string]int{"ListUserTags": 1, "TagUser": 2, "CreateServiceSpecificCredential": 1}
	if got := callsOf(h.emu); !maps.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	tags := h.emu.Identity.UserTags("kim")
	for k, v := range tags {
		if len(tags) != 1 || k[:len(tagCreating)] != tagCreating || !strings.HasPrefix(v, heldValue+cred.ServiceSpecificCredentialID+" ") {
			t.Fatalf("tags %v, want only the record turned into the mark of %s", tags, cred.ServiceSpecificCredentialID)
		}
	}
	if pending, claims := recordsOf(mapTags(tags), DefaultServiceName); len(pending) != 0 || claims[claimTagKey(cred.ServiceSpecificCredentialID)].nonce == "" {
		t.Fatalf("records %v, claims %v: want no record and the key held", pending, claims)
	}
}

func mapTags(m map[string]string) []identityclient.Tag {
	var out []identityclient.Tag
	for k, v := range m {
		out = append(out, identityclient.Tag{Key: k, Value: v})
	}
	return out
}

// A key create for a user the same provider instance created makes no
// ListUserTags; another instance, for the same user, looks as before.
func TestKeyCreateSkipsTheLookForAUserThisRunMade(t *testing.T) {
	t.Parallel()
	e, clients := newEmulatorClients(t, nil)
	freshUser(t, clients, "kim")
	e.ClearCalls()
	r := &serviceSpecificCredentialResource{clients: clients}
	cred, diags := createKey(context.Background(), r)
	if cred == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", cred, summaries(diags), details(diags))
	}
	want := map[string]int{"TagUser": 2, "CreateServiceSpecificCredential": 1}
	if got := callsOf(e); !maps.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	e.ClearCalls()
	other := &serviceSpecificCredentialResource{clients: otherRun(t, clients, nil)}
	other.clients.CreatedUsers = &conns.CreatedUsers{}
	if cred, diags := createKey(context.Background(), other); cred == nil || len(diags) != 0 {
		t.Fatalf("second key %v, diagnostics %s: %s", cred, summaries(diags), details(diags))
	}
	if got := callsOf(e)["ListUserTags"]; got != 1 {
		t.Errorf("another instance made %d ListUserTags, want 1", got)
	}
}

// A key create that skips the look still records its create by the
// service's clock, taken from the user's CreateDate: here the service's
// clock runs an hour ahead, and the record a create leaves (its mark could
// not be set, nor the record removed) covers the key it made, so a later
// run finds and adopts it.
func TestKeyCreateSkippingTheLookRecordsByTheServiceClock(t *testing.T) {
	t.Parallel()
	e, clients := newEmulatorClients(t, nil)
	e.Clock().Advance(time.Hour)
	freshUser(t, clients, "kim")
	run := otherRun(t, clients, &answered{op: "CreateServiceSpecificCredential", then: func() {
		for _, op := range []string{"TagUser", "UntagUser"} {
			if err := e.InjectFault(emulator.Fault{Service: "identity", Operation: op, Kind: emulator.FaultError, Status: 403, Code: "AccessDenied", Times: -1}); err != nil {
				t.Error(err)
			}
		}
	}})
	cred, diags := createKey(context.Background(), &serviceSpecificCredentialResource{clients: run})
	if cred == nil || summaries(diags) != "Warning: Key Not Claimed" {
		t.Fatalf("key %v, diagnostics %s: %s; want the key and the warning", cred, summaries(diags), details(diags))
	}
	pending, _ := recordsOf(mapTags(e.Identity.UserTags("kim")), DefaultServiceName)
	if len(pending) != 1 {
		t.Fatalf("records %v, want the create's", pending)
	}
	keys, err := clients.Identity.ListServiceSpecificCredentials(context.Background(), "kim", DefaultServiceName)
	if err != nil || len(keys.Credentials) != 1 {
		t.Fatalf("keys %v, %v", keys, err)
	}
	if !inCreateWindow(pending[0], keys.Credentials[0].CreateDate) {
		t.Fatalf("record from %s to %s does not cover the key created at %s", pending[0].Started, pending[0].Deadline, keys.Credentials[0].CreateDate)
	}
	e.ClearFaults()
	e.Clock().Advance(time.Hour)
	later := &serviceSpecificCredentialResource{clients: otherRun(t, clients, nil)}
	later.clients.CreatedUsers = nil
	adopted, diags := createKey(context.Background(), later)
	if adopted == nil || adopted.ServiceSpecificCredentialID != cred.ServiceSpecificCredentialID {
		t.Fatalf("later run: key %v, diagnostics %s: %s; want %s adopted", adopted, summaries(diags), details(diags), cred.ServiceSpecificCredentialID)
	}
}

// Another run's create was in flight on the user when this run, which made
// the user, created its key without looking: a later recovery of that
// interrupted create takes that run's key and never this run's, whose
// record became its mark.
func TestKeyCreateSkippingTheLookBesideAnotherRunsCreate(t *testing.T) {
	t.Parallel()
	e, clients := newEmulatorClients(t, nil)
	freshUser(t, clients, "kim")
	ctx := context.Background()
	now := e.Clock().Now().Truncate(time.Second)
	if err := clients.Identity.TagUser(ctx, "kim", []identityclient.Tag{pendingTag("otherrun", DefaultServiceName, now, now.Add(30*time.Second))}); err != nil {
		t.Fatal(err)
	}
	theirs, _, err := e.Identity.CreateCredentialBehindTheBack("kim", DefaultServiceName, 30, e.Region())
	if err != nil {
		t.Fatal(err)
	}
	mine, diags := createKey(ctx, &serviceSpecificCredentialResource{clients: clients})
	if mine == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", mine, summaries(diags), details(diags))
	}
	e.Clock().Advance(time.Hour)
	later := &serviceSpecificCredentialResource{clients: otherRun(t, clients, nil)}
	later.clients.CreatedUsers = nil
	adopted, diags := createKey(ctx, later)
	if adopted == nil || adopted.ServiceSpecificCredentialID != theirs {
		t.Fatalf("later run: key %v, diagnostics %s: %s; want the other run's key %s adopted", adopted, summaries(diags), details(diags), theirs)
	}
	keys, err := clients.Identity.ListServiceSpecificCredentials(ctx, "kim", DefaultServiceName)
	if err != nil || len(keys.Credentials) != 2 {
		t.Fatalf("keys %v, %v; want this run's and the adopted one", keys, err)
	}
	if marks := heldMarks(e.Identity.UserTags("kim")); !marks[claimTagKey(mine.ServiceSpecificCredentialID)] || !marks[claimTagKey(theirs)] {
		t.Fatalf("marks %v, want both keys held", marks)
	}
}

// A key create that finds the user's tags filling up removes the marks of
// keys that are gone, in either form, and nothing else; below sweepAt it
// lists no keys for it.
func TestKeyCreateSweepsStaleMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newKeyHarness(t, nil)
	live, _, err := h.emu.Identity.CreateCredentialBehindTheBack("kim", DefaultServiceName, 30, h.emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	tags := []identityclient.Tag{
		{Key: claimTagKey(live), Value: "n"},
		{Key: claimTagKey("ACCAGONEGONEGONEGONE1"), Value: "n"},
		heldTag(tagCreating+"gone", "ACCAGONEGONEGONEGONE2", h.emu.Clock().Now().Add(-time.Hour)),
	}
	for i := len(tags); i < sweepAt-1; i++ {
		tags = append(tags, identityclient.Tag{Key: fmt.Sprintf("team-%d", i), Value: "x"})
	}
	if err := h.idc.TagUser(ctx, "kim", tags); err != nil {
		t.Fatal(err)
	}
	h.emu.ClearCalls()
	first, diags := h.create(ctx)
	if first == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", first, summaries(diags), details(diags))
	}
	if got := callsOf(h.emu)["ListServiceSpecificCredentials"]; got != 0 {
		t.Errorf("with %d tags the create listed keys %d times, want none", sweepAt-1, got)
	}
	// The new key's mark makes sweepAt tags: the next create, once the
	// mark is older than a create window, sweeps.
	if err := h.idc.DeleteServiceSpecificCredential(ctx, "kim", first.ServiceSpecificCredentialID); err != nil {
		t.Fatal(err)
	}
	h.emu.Clock().Advance(time.Hour)
	second, diags := h.create(ctx)
	if second == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", second, summaries(diags), details(diags))
	}
	got := h.emu.Identity.UserTags("kim")
	marks := heldMarks(got)
	want := map[string]bool{claimTagKey(live): true, claimTagKey(second.ServiceSpecificCredentialID): true}
	if !maps.Equal(marks, want) {
		t.Errorf("marks %v, want only those of the live keys %s and %s", marks, live, second.ServiceSpecificCredentialID)
	}
	if len(got) != len(want)+sweepAt-1-3 {
		t.Errorf("%d tags left (%v), want the user's own %d and the two marks", len(got), got, sweepAt-1-3)
	}
}

// A listing of the user's keys may lag a key just created: the sweep keeps
// the mark of a key the listing lacks while the mark is younger than a
// create window, and removes an older one, in either form.
func TestKeyCreateSweepKeepsYoungMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newKeyHarness(t, nil)
	now := h.emu.Clock().Now()
	young := heldTag(tagCreating+"young", "ACCAYOUNGYOUNGYOUNG1", now)
	tags := []identityclient.Tag{
		young,
		heldTag(tagCreating+"old", "ACCAOLDOLDOLDOLDOLD1", now.Add(-time.Hour)),
		{Key: tagCreating + "older", Value: heldValue + "ACCAOLDOLDOLDOLDOLD2"},
	}
	for i := len(tags); i < sweepAt; i++ {
		tags = append(tags, identityclient.Tag{Key: fmt.Sprintf("team-%d", i), Value: "x"})
	}
	if err := h.idc.TagUser(ctx, "kim", tags); err != nil {
		t.Fatal(err)
	}
	cred, diags := h.create(ctx)
	if cred == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", cred, summaries(diags), details(diags))
	}
	marks := heldMarks(h.emu.Identity.UserTags("kim"))
	want := map[string]bool{claimTagKey("ACCAYOUNGYOUNGYOUNG1"): true, claimTagKey(cred.ServiceSpecificCredentialID): true}
	if !maps.Equal(marks, want) {
		t.Errorf("marks %v, want the young mark %s kept, the old ones removed, and the new key's", marks, young.Value)
	}
}

// Another configuration's create of a key on a user this run made was
// interrupted, leaving a key beside the one this run made: the next create,
// which skips the look, is refused with LimitExceeded, and then looks,
// recovers the orphan and goes on as a create that looked always has.
func TestKeyCreateSkippingTheLookRecoversWhenRefusedForTheLimit(t *testing.T) {
	t.Parallel()
	e, clients := newEmulatorClients(t, nil)
	freshUser(t, clients, "kim")
	ctx := context.Background()
	r := &serviceSpecificCredentialResource{clients: clients}
	if live, diags := createKey(ctx, r); live == nil || len(diags) != 0 {
		t.Fatalf("first key %v, diagnostics %s: %s", live, summaries(diags), details(diags))
	}
	now := e.Clock().Now().Truncate(time.Second)
	if err := clients.Identity.TagUser(ctx, "kim", []identityclient.Tag{pendingTag("otherrun", DefaultServiceName, now, now.Add(30*time.Second))}); err != nil {
		t.Fatal(err)
	}
	orphan, _, err := e.Identity.CreateCredentialBehindTheBack("kim", DefaultServiceName, 30, e.Region())
	if err != nil {
		t.Fatal(err)
	}
	e.Clock().Advance(time.Minute)
	cred, diags := createKey(ctx, r)
	if cred == nil || diags.HasError() {
		t.Fatalf("key %v, diagnostics %s: %s; want the create to recover", cred, summaries(diags), details(diags))
	}
	if cred.ServiceSpecificCredentialID != orphan {
		t.Errorf("key %s, want the orphan %s adopted", cred.ServiceSpecificCredentialID, orphan)
	}
	if pending, _ := recordsOf(mapTags(e.Identity.UserTags("kim")), DefaultServiceName); len(pending) != 0 {
		t.Errorf("records left: %v", pending)
	}
}

// Every answer to the TagUser that turns the record into the key's mark is
// lost, though the service wrote the mark: the create sends it once more,
// rather than remove the record's tag key, which now holds the mark.
func TestKeyCreateSettleWhoseAnswerIsLost(t *testing.T) {
	t.Parallel()
	var h *keyHarness
	h = newKeyHarness(t, &answered{op: "CreateServiceSpecificCredential", then: func() {
		attempts := h.r.clients.Config.MaxRetries + 1
		if err := h.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "TagUser", Kind: emulator.FaultLostResponse, Times: attempts}); err != nil {
			t.Error(err)
		}
	}})
	h.emu.ClearCalls()
	cred, diags := h.create(context.Background())
	if cred == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s; want the key, no diagnostics", cred, summaries(diags), details(diags))
	}
	if got, want := callsOf(h.emu)["TagUser"], 1+h.r.clients.Config.MaxRetries+2; got != want {
		t.Errorf("%d TagUser calls, want %d: the record, every attempt of the lost mark, the mark again", got, want)
	}
	tags := h.emu.Identity.UserTags("kim")
	if marks := heldMarks(tags); len(tags) != 1 || !marks[claimTagKey(cred.ServiceSpecificCredentialID)] {
		t.Fatalf("tags %v, want only the mark of key %s", tags, cred.ServiceSpecificCredentialID)
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
	h := newKeyHarness(t, truncating{})
	old := heldTag(tagCreating+"old", "ACCAOLDOLDOLDOLDOLD1", h.emu.Clock().Now().Add(-time.Hour))
	tags := []identityclient.Tag{old}
	for i := len(tags); i < sweepAt; i++ {
		tags = append(tags, identityclient.Tag{Key: fmt.Sprintf("team-%d", i), Value: "x"})
	}
	if err := h.idc.TagUser(ctx, "kim", tags); err != nil {
		t.Fatal(err)
	}
	h.emu.ClearCalls()
	if cred, diags := h.create(ctx); cred == nil || len(diags) != 0 {
		t.Fatalf("key %v, diagnostics %s: %s", cred, summaries(diags), details(diags))
	}
	if callsOf(h.emu)["ListServiceSpecificCredentials"] == 0 {
		t.Fatal("the create did not list the user's keys: the test tests nothing")
	}
	if got := h.emu.Identity.UserTags("kim")[old.Key]; got != old.Value {
		t.Errorf("mark %s = %q after the sweep, want %q kept", old.Key, got, old.Value)
	}
}
