package emulator_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// A hold fault stops a caller at one crash point of one call: before the
// service has the request (hold_before: the operation never runs) or after
// the service applied it and before the answer (hold_answer). Skip picks
// which of the matching calls; Holding says when the caller may be
// stopped; the caller going away lets the request go.
func TestHoldFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind    emulator.FaultKind
		applied bool
	}{{emulator.FaultHoldBefore, false}, {emulator.FaultHoldAnswer, true}} {
		t.Run(string(tc.kind), func(t *testing.T) {
			t.Parallel()
			e := emulator.New(emulator.Options{})
			srv := httptest.NewServer(e)
			t.Cleanup(srv.Close)
			c := identityClient(t, e, srv.URL)
			// The second CreateUser is the one held.
			if err := e.InjectFault(emulator.Fault{Operation: "CreateUser", Kind: tc.kind, Skip: 1}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "first"}); err != nil {
				t.Fatalf("the first create, let through by skip: %v", err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := c.CreateUser(ctx, identityclient.CreateUserInput{UserName: "held"})
				done <- err
			}()
			holding := func() bool {
				f := e.Faults()
				return len(f) == 1 && f[0].Holding
			}
			for deadline := time.Now().Add(10 * time.Second); !holding(); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the fault never held the second create: %+v", e.Faults())
				}
			}
			if f := e.Faults()[0]; f.Passed != 1 || f.Hits != 1 {
				t.Fatalf("passed %d, hits %d; want 1 and 1", f.Passed, f.Hits)
			}
			if got := slices.Contains(e.Identity.UserNames(), "held"); got != tc.applied {
				t.Fatalf("while held, the user exists: %v, want %v", got, tc.applied)
			}
			select {
			case err := <-done:
				t.Fatalf("the held call answered: %v", err)
			case <-time.After(100 * time.Millisecond):
			}
			// The caller goes away, as a killed process does.
			cancel()
			if err := <-done; err == nil {
				t.Fatal("the held call succeeded")
			}
			for deadline := time.Now().Add(10 * time.Second); len(e.Faults()) != 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the fault stayed listed after its caller went: %+v", e.Faults())
				}
			}
			if got := slices.Contains(e.Identity.UserNames(), "held"); got != tc.applied {
				t.Fatalf("after the caller went, the user exists: %v, want %v", got, tc.applied)
			}
			var logged []emulator.Call
			for deadline := time.Now().Add(10 * time.Second); len(logged) < 2; time.Sleep(5 * time.Millisecond) {
				logged = nil
				for _, call := range e.Calls() {
					if call.Operation == "CreateUser" {
						logged = append(logged, call)
					}
				}
				if time.Now().After(deadline) {
					t.Fatalf("the log holds %+v", logged)
				}
			}
			if logged[1].Fault != tc.kind || logged[1].Status != 0 {
				t.Fatalf("the held call is logged as %+v, want fault %s with no status", logged[1], tc.kind)
			}
			// The next matching call goes through: the fault held one.
			if _, err := c.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "after"}); err != nil {
				t.Fatalf("a create after the hold: %v", err)
			}
		})
	}
}

func TestHoldFaultValidation(t *testing.T) {
	t.Parallel()
	e := emulator.New(emulator.Options{})
	for _, f := range []emulator.Fault{
		{Kind: emulator.FaultHoldBefore, Times: 2},
		{Kind: emulator.FaultHoldAnswer, Skip: -1},
		{Kind: emulator.FaultHoldAnswer, DelayText: "soon"},
	} {
		if err := e.InjectFault(f); err == nil {
			t.Errorf("%+v was accepted", f)
		}
	}
	if err := e.InjectFault(emulator.Fault{Kind: emulator.FaultHoldAnswer}); err != nil {
		t.Fatal(err)
	}
	if f := e.Faults()[0]; f.Delay != emulator.DefaultHold {
		t.Errorf("a hold fault without a delay holds for %s, want %s", f.Delay, emulator.DefaultHold)
	}
}

// Resumed, a hold fault is a pause between two calls of its caller: the
// request held before the service had it is served, the held answer sent.
func TestHoldFaultsResume(t *testing.T) {
	t.Parallel()
	for _, kind := range []emulator.FaultKind{emulator.FaultHoldBefore, emulator.FaultHoldAnswer} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			e := emulator.New(emulator.Options{})
			srv := httptest.NewServer(e)
			t.Cleanup(srv.Close)
			if err := e.InjectFault(emulator.Fault{Operation: "CreateUser", Kind: kind}); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := identityClient(t, e, srv.URL).CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "paused"})
				done <- err
			}()
			for deadline := time.Now().Add(10 * time.Second); e.ResumeHeld() == 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the fault never held the create")
				}
			}
			if err := <-done; err != nil {
				t.Fatalf("the resumed create: %v", err)
			}
			if !slices.Contains(e.Identity.UserNames(), "paused") {
				t.Fatal("the resumed create made no user")
			}
			if n := len(e.Identity.UserNames()); n != 1 {
				t.Fatalf("%d users, want 1: the create ran twice", n)
			}
		})
	}
}
