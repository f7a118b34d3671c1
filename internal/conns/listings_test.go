package conns

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// fakeListings counts the calls of a Listings whose key listings answer
// with the call's number as the one key's id, after gate lets them.
type fakeListings struct {
	*Listings
	calls atomic.Int32
	// started has a value for each key listing call made, before it waits
	// on gate (nil: answer at once).
	started chan struct{}
	gate    chan struct{}
	err     error
}

func newFakeListings() *fakeListings {
	f := &fakeListings{started: make(chan struct{}, 100)}
	f.Listings = &Listings{answers: map[listingKey]*listing{}}
	f.keys = func(ctx context.Context, user, _ string) (*identity.ListServiceSpecificCredentialsOutput, error) {
		n := f.calls.Add(1)
		f.started <- struct{}{}
		if f.gate != nil {
			select {
			case <-f.gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if f.err != nil {
			return nil, f.err
		}
		return &identity.ListServiceSpecificCredentialsOutput{Credentials: []identity.ServiceSpecificCredential{{UserName: user, ServiceSpecificCredentialID: fmt.Sprint(n)}}}, nil
	}
	f.tags = func(context.Context, string) (*identity.UserTags, error) {
		n := f.calls.Add(1)
		return &identity.UserTags{Tags: []identity.Tag{{Key: "call", Value: fmt.Sprint(n)}}}, nil
	}
	return f
}

// keyID is the id of the one key f's listing of user answered with.
func (f *fakeListings) keyID(t *testing.T, ctx context.Context, user string) string {
	t.Helper()
	out, _, err := f.Keys(ctx, user, "models.cloud.example")
	if err != nil {
		t.Fatal(err)
	}
	return out.Credentials[0].ServiceSpecificCredentialID
}

// Reads of a user's keys, at once or one after the other, in any case of
// its name, share one call; another user's are their own.
func TestListingsOneCallPerUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFakeListings()
	f.gate = make(chan struct{})
	var wg sync.WaitGroup
	for _, user := range []string{"kim", "Kim", "KIM", "kim"} {
		wg.Go(func() { f.keyID(t, ctx, user) })
	}
	<-f.started // the first read's call is in flight; the others join it
	close(f.gate)
	wg.Wait()
	if got := f.keyID(t, ctx, "kim"); got != "1" || f.calls.Load() != 1 {
		t.Errorf("five reads of kim's keys made %d calls (the last read answered key %s), want 1", f.calls.Load(), got)
	}
	if got := f.keyID(t, ctx, "lee"); got != "2" {
		t.Errorf("lee's keys answered key %s, want a call of their own (2)", got)
	}
}

// After a write to a user, its next read asks again, also when the read
// before the write is still in flight; other users' answers stay.
func TestListingsForget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFakeListings()
	f.keyID(t, ctx, "lee")
	<-f.started
	f.gate = make(chan struct{})
	before := make(chan string)
	go func() {
		out, _, _ := f.Keys(ctx, "kim", "models.cloud.example")
		before <- out.Credentials[0].ServiceSpecificCredentialID
	}()
	<-f.started // kim's read is in flight
	f.Forget("KIM")
	close(f.gate)
	if got := <-before; got != "2" {
		t.Errorf("the read made before the write answered key %s, want 2", got)
	}
	if got := f.keyID(t, ctx, "kim"); got != "3" {
		t.Errorf("the read after the write answered key %s, want a new call's (3)", got)
	}
	if got := f.keyID(t, ctx, "lee"); got != "1" {
		t.Errorf("lee's keys answered key %s after kim's write, want the kept answer (1)", got)
	}
	var none *Listings
	none.Forget("kim")
}

// A failed call is not kept, but for "not found", which is an answer (the
// user is gone).
func TestListingsErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFakeListings()
	f.err = errors.New("throttled")
	for range 2 {
		if _, _, err := f.Keys(ctx, "kim", ""); err == nil {
			t.Fatal("no error")
		}
	}
	if f.calls.Load() != 2 {
		t.Errorf("two reads after a failed call made %d calls, want 2", f.calls.Load())
	}
	f.err = fmt.Errorf("wrapped: %w", client.ErrNotFound)
	for range 2 {
		if _, _, err := f.Keys(ctx, "lee", ""); !errors.Is(err, client.ErrNotFound) {
			t.Fatalf("err = %v, want not found", err)
		}
	}
	if f.calls.Load() != 3 {
		t.Errorf("two reads of a gone user made %d calls, want 1", f.calls.Load()-2)
	}
}

// A read that joined a call whose first caller gave up asks again itself.
func TestListingsJoinerOutlivesCaller(t *testing.T) {
	t.Parallel()
	f := newFakeListings()
	f.gate = make(chan struct{})
	first, cancel := context.WithCancel(context.Background())
	firstDone := make(chan error)
	go func() { _, _, err := f.Keys(first, "kim", ""); firstDone <- err }()
	<-f.started // the first caller's call is in flight
	joined := make(chan string)
	go func() { joined <- f.keyID(t, context.Background(), "kim") }()
	cancel()
	if err := <-firstDone; !errors.Is(err, context.Canceled) {
		t.Errorf("the first caller got %v, want its cancellation", err)
	}
	close(f.gate)
	if got := <-joined; got != "2" {
		t.Errorf("the joined read answered key %s, want its own call's (2)", got)
	}
}

// The tags a rule combines with a key listing are from a call made after
// that listing answered: a kept answer called earlier is not used.
func TestListingsTagsSince(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFakeListings()
	tags := func(since Answered) string {
		out, err := f.TagsSince(ctx, "kim", since)
		if err != nil {
			t.Fatal(err)
		}
		return out.Tags[0].Value
	}
	if got := tags(0); got != "1" {
		t.Fatalf("tags from call %s, want 1", got)
	}
	_, listed, err := f.Keys(ctx, "kim", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := tags(listed); got != "3" {
		t.Errorf("tags since the key listing came from call %s, want a new one (3)", got)
	}
	if _, again, _ := f.Keys(ctx, "kim", ""); again != listed {
		t.Errorf("the kept key listing answered at %d, then at %d", listed, again)
	}
	if got := tags(listed); got != "3" {
		t.Errorf("tags since the same key listing came from call %s, want the kept one (3)", got)
	}
}
