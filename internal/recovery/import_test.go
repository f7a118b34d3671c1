package recovery

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// A record of another run's create whose deadline is far beyond what this
// create waits (a colleague's longer http_timeout, then a kill): the
// create ends at once, naming the record and when it lapses, and sends
// nothing.
func TestKeyCreateStopsAtOnceOnAFarDeadline(t *testing.T) {
	t.Parallel()
	r := newKeyRun(t, nil)
	ctx := context.Background()
	now := r.emu.Clock().Now().Truncate(time.Second)
	far := recordTag("colleague", service, now, now.Add(time.Hour))
	if err := r.idc.TagUser(ctx, "kim", []identityclient.Tag{far}); err != nil {
		t.Fatal(err)
	}
	r.emu.ClearCalls()
	start := time.Now()
	out := r.createKey(ctx)
	e, ok := out.End.(KeyWaitedOut)
	if !ok || len(e.InFlight.Records) != 1 || e.InFlight.Records[0].Tag != far.Key || e.InFlight.User != "kim" {
		t.Fatalf("%s; want the create ended on record %s", show(out.End, out.Notes), far.Key)
	}
	if lapses := e.InFlight.Records[0].Lapses; !lapses.Equal(now.Add(time.Hour + clockMargin)) {
		t.Errorf("the record lapses at %s, want %s", lapses, now.Add(time.Hour+clockMargin))
	}
	if took := time.Since(start); took > 2*CreateWindow(r.cfg.WithDefaults()) {
		t.Errorf("the create took %s to end, want no wait for a record it cannot outwait", took)
	}
	if n := callsOf(r.emu)["CreateServiceSpecificCredential"]; n != 0 {
		t.Errorf("%d creates sent, want none", n)
	}
}

// An import's mark and an adoption of the same orphan at once: exactly one
// takes the key (the contest), the other leaves it, and the user ends with
// one mark of it. Interleaved so that each sees no other claim when it
// writes its own, and started at the same moment.
func TestImportHoldRacesAdoption(t *testing.T) {
	t.Parallel()
	t.Run("interleaved", func(t *testing.T) {
		t.Parallel()
		ta, tb, bDone := twoRuns("ResetServiceSpecificCredential")
		importAndAdopt(t, ta, tb, bDone)
	})
	t.Run("same moment", func(t *testing.T) {
		t.Parallel()
		importAndAdopt(t, http.DefaultTransport, http.DefaultTransport, func() {})
	})
}

func importAndAdopt(t *testing.T, ta, tb http.RoundTripper, bDone func()) {
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
	var adopted KeyOutcome
	var importErr error
	wg.Add(2)
	go func() { defer wg.Done(); adopted = a.createKey(ctx) }()
	go func() {
		defer wg.Done()
		defer bDone()
		importErr = HoldImported(ctx, Hold{Client: b.idc, User: "kim", Service: service, KeyID: orphanID, Nonce: newNonce(), Created: created, Window: CreateWindow(r.cfg.WithDefaults())})
	}()
	wg.Wait()
	var held *HeldElsewhere
	_, tookIt := adopted.End.(KeyAdopted)
	switch {
	case tookIt && !errors.As(importErr, &held):
		t.Fatalf("the adoption took key %s and the import's hold ended with %v, want it refused", orphanID, importErr)
	case !tookIt && importErr != nil:
		t.Fatalf("neither took key %s: adoption %s, import %v", orphanID, show(adopted.End, adopted.Notes), importErr)
	case !tookIt && adopted.Key() == nil:
		t.Fatalf("the import took the key, and the adoption's create ended with %s, want a key of its own", show(adopted.End, adopted.Notes))
	}
	tags := r.emu.Identity.UserTags("kim")
	// When the import won, the interrupted create's record stays for the
	// next create that looks: it finds the key marked and clears it.
	delete(tags, tagRecord+"interrupted")
	marks := heldMarks(tags)
	if !marks[MarkTag(orphanID)] {
		t.Fatalf("tags %v: key %s not marked", tags, orphanID)
	}
	want := map[string]bool{MarkTag(orphanID): true}
	if k := adopted.Key(); k != nil {
		want[MarkTag(k.ServiceSpecificCredentialID)] = true
	}
	if len(tags) != len(want) || !maps.Equal(marks, want) {
		t.Errorf("tags %v left on the user; want only the marks %v", tags, want)
	}
}

// An import's hold stops, writing nothing, on a key another configuration
// marked, and takes a key it marked itself (an answer lost) as its own.
func TestImportHoldStopsOnAnotherMark(t *testing.T) {
	t.Parallel()
	r := newKeyRun(t, nil)
	ctx := context.Background()
	cred := createdQuietly(t, r.createKey(ctx))
	id := cred.ServiceSpecificCredentialID
	before := r.emu.Identity.UserTags("kim")
	r.emu.ClearCalls()
	err := HoldImported(ctx, Hold{Client: r.idc, User: "kim", Service: service, KeyID: id, Nonce: "b", Created: cred.CreateDate, Window: time.Second})
	var held *HeldElsewhere
	if !errors.As(err, &held) || held.KeyID != id {
		t.Fatalf("hold of a marked key: %v, want it held elsewhere", err)
	}
	if calls := callsOf(r.emu); calls["TagUser"]+calls["UntagUser"] != 0 {
		t.Errorf("calls %v, want no write", calls)
	}
	if after := r.emu.Identity.UserTags("kim"); !maps.Equal(after, before) {
		t.Errorf("tags %v, want %v untouched", after, before)
	}
	if err := r.idc.TagUser(ctx, "kim", []identityclient.Tag{{Key: MarkTag("ACCAOTHERKEY000000000"), Value: "mine"}}); err != nil {
		t.Fatal(err)
	}
	if err := HoldImported(ctx, Hold{Client: r.idc, User: "kim", Service: service, KeyID: "ACCAOTHERKEY000000000", Nonce: "mine", Window: time.Second}); err != nil {
		t.Fatalf("hold of a key this import marked: %v, want it its own", err)
	}
}
