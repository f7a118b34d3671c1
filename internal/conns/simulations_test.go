package conns

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// fakeSimulator answers each call with a decision per resource (allowed
// unless refused names it), records the calls, and can fail or hold them.
type fakeSimulator struct {
	mu      sync.Mutex
	calls   []identity.SimulatePrincipalPolicyInput
	refused map[string]bool
	err     error
	// started gets each call as it starts; release, when set, holds it.
	started chan identity.SimulatePrincipalPolicyInput
	release chan struct{}
}

func (f *fakeSimulator) simulate(ctx context.Context, in identity.SimulatePrincipalPolicyInput) ([]identity.EvaluationResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, in)
	err := f.err
	f.mu.Unlock()
	if f.started != nil {
		f.started <- in
	}
	if f.release != nil {
		select {
		case <-f.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err != nil {
		return nil, err
	}
	var out []identity.EvaluationResult
	for _, r := range in.ResourceArns {
		d := identity.DecisionAllowed
		if f.refused[r] {
			d = identity.DecisionImplicitDeny
		}
		out = append(out, identity.EvaluationResult{EvalActionName: in.ActionNames[0], EvalResourceName: r, EvalDecision: d})
	}
	return out, nil
}

func (f *fakeSimulator) callsMade() []identity.SimulatePrincipalPolicyInput {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// newTestSimulations is a Simulations whose window ends when the test
// sends on the channel it returns: no timing is involved.
func newTestSimulations(f *fakeSimulator, max int) (*Simulations, chan time.Time) {
	s := NewSimulations(f.simulate)
	window := make(chan time.Time)
	s.window = func() <-chan time.Time { return window }
	s.max = max
	return s, window
}

func question(principal, days, resource string) identity.SimulatePrincipalPolicyInput {
	return identity.SimulatePrincipalPolicyInput{
		PolicySourceArn: principal,
		ActionNames:     []string{"identity:CreateServiceSpecificCredential"},
		ResourceArns:    []string{resource},
		ContextEntries:  []identity.ContextEntry{{Key: "identity:ServiceSpecificCredentialAgeDays", Values: []string{days}, Type: "numeric"}},
	}
}

type answer struct {
	resource string
	results  []identity.EvaluationResult
	err      error
}

// ask asks each question in its own goroutine, waits until all of them
// joined their batch, then ends the window and collects the answers.
func ask(t *testing.T, s *Simulations, window chan time.Time, ctx context.Context, qs ...identity.SimulatePrincipalPolicyInput) []answer {
	t.Helper()
	out := make(chan answer, len(qs))
	for _, q := range qs {
		go func() {
			res, err := s.Simulate(ctx, q)
			out <- answer{q.ResourceArns[0], res, err}
		}()
	}
	waitJoined(t, s, len(qs))
	close(window)
	var got []answer
	for range qs {
		got = append(got, <-out)
	}
	return got
}

// waitJoined waits until n questions wait in open batches.
func waitJoined(t *testing.T, s *Simulations, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		joined := 0
		for _, b := range s.open {
			joined += b.waiting
		}
		s.mu.Unlock()
		if joined == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d questions joined, want %d", joined, n)
		}
	}
}

const (
	ci     = "arn:cloud:identity::123456789012:role/ci"
	deploy = "arn:cloud:identity::123456789012:role/deploy"
)

func user(i int) string { return fmt.Sprintf("arn:cloud:identity::123456789012:user/u%d", i) }

// Questions that differ only in their resource are one call; another
// principal or another context value is another group. Each waiter gets
// its own resource's result, a refused one among many allowed included.
func TestSimulationsGroupByContext(t *testing.T) {
	t.Parallel()
	f := &fakeSimulator{refused: map[string]bool{user(3): true}}
	s, window := newTestSimulations(f, 100)
	var qs []identity.SimulatePrincipalPolicyInput
	for i := range 8 {
		qs = append(qs, question(ci, "90", user(i)))
	}
	qs = append(qs, question(ci, "90", user(0)), question(ci, "30", user(20)), question(deploy, "90", user(21)))
	answers := ask(t, s, window, context.Background(), qs...)

	calls := f.callsMade()
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3 (one per principal and age): %v", len(calls), calls)
	}
	for _, c := range calls {
		if c.PolicySourceArn == ci && c.ContextEntries[0].Values[0] == "90" && len(c.ResourceArns) != 8 {
			t.Errorf("the group of eight users asked about %v, want each user once", c.ResourceArns)
		}
	}
	for _, a := range answers {
		if a.err != nil || len(a.results) != 1 || a.results[0].EvalResourceName != a.resource {
			t.Errorf("%s: %v %v, want its own result only", a.resource, a.results, a.err)
			continue
		}
		want := identity.DecisionAllowed
		if a.resource == user(3) {
			want = identity.DecisionImplicitDeny
		}
		if a.results[0].EvalDecision != want {
			t.Errorf("%s: %s, want %s", a.resource, a.results[0].EvalDecision, want)
		}
	}
}

// A group as large as one call may ask about goes at once, without the
// window; the next question opens another batch.
func TestSimulationsFullGroupGoesAtOnce(t *testing.T) {
	t.Parallel()
	f := &fakeSimulator{}
	s, window := newTestSimulations(f, 3)
	out := make(chan error, 4)
	for i := range 3 {
		go func() {
			_, err := s.Simulate(context.Background(), question(ci, "90", user(i)))
			out <- err
		}()
	}
	for range 3 {
		if err := <-out; err != nil { // the window never ended
			t.Fatal(err)
		}
	}
	go func() {
		_, err := s.Simulate(context.Background(), question(ci, "90", user(9)))
		out <- err
	}()
	waitJoined(t, s, 1)
	close(window)
	if err := <-out; err != nil {
		t.Fatal(err)
	}
	calls := f.callsMade()
	if len(calls) != 2 || len(calls[0].ResourceArns) != 3 || !slices.Equal(calls[1].ResourceArns, []string{user(9)}) {
		t.Errorf("calls %v, want the full group of three, then the fourth alone", calls)
	}
}

// A failed call is every waiter's error, as the service gave it.
func TestSimulationsShareErrors(t *testing.T) {
	t.Parallel()
	denied := errors.New("AccessDenied: not authorized to perform: identity:SimulatePrincipalPolicy")
	f := &fakeSimulator{err: denied}
	s, window := newTestSimulations(f, 100)
	answers := ask(t, s, window, context.Background(), question(ci, "90", user(1)), question(ci, "90", user(2)), question(ci, "90", user(3)))
	for _, a := range answers {
		if !errors.Is(a.err, denied) {
			t.Errorf("%s: %v, want the call's error", a.resource, a.err)
		}
	}
	if n := len(f.callsMade()); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

// An answer that names no result for a resource is an error for that
// resource's waiter, never an allow.
func TestSimulationsMissingResultIsAnError(t *testing.T) {
	t.Parallel()
	s, window := newTestSimulations(nil, 100)
	s.simulate = func(_ context.Context, in identity.SimulatePrincipalPolicyInput) ([]identity.EvaluationResult, error) {
		return []identity.EvaluationResult{{EvalResourceName: user(1), EvalDecision: identity.DecisionAllowed}}, nil
	}
	answers := ask(t, s, window, context.Background(), question(ci, "90", user(1)), question(ci, "90", user(2)))
	for _, a := range answers {
		if (a.err != nil) != (a.resource == user(2)) {
			t.Errorf("%s: %v %v", a.resource, a.results, a.err)
		}
	}
}

// A waiter whose plan is cancelled leaves at once, before or during the
// call, and the others get their answers; when every waiter has left,
// the call is cancelled and its goroutine ends.
func TestSimulationsCancellation(t *testing.T) {
	t.Parallel()
	f := &fakeSimulator{started: make(chan identity.SimulatePrincipalPolicyInput, 1), release: make(chan struct{})}
	s, window := newTestSimulations(f, 100)

	cancelled, cancel := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() {
		_, err := s.Simulate(cancelled, question(ci, "90", user(1)))
		left <- err
	}()
	stays := make(chan answer, 1)
	go func() {
		res, err := s.Simulate(context.Background(), question(ci, "90", user(2)))
		stays <- answer{user(2), res, err}
	}()
	waitJoined(t, s, 2)
	cancel() // before the call
	if err := <-left; !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled waiter: %v", err)
	}
	close(window)
	<-f.started
	close(f.release)
	if a := <-stays; a.err != nil || len(a.results) != 1 || a.results[0].EvalResourceName != user(2) {
		t.Errorf("the waiter that stayed: %v %v", a.results, a.err)
	}

	// Every waiter leaves during the call: it is cancelled.
	f2 := &fakeSimulator{started: make(chan identity.SimulatePrincipalPolicyInput, 1), release: make(chan struct{})}
	s2, window2 := newTestSimulations(f2, 100)
	ctx, cancel2 := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			_, err := s2.Simulate(ctx, question(ci, "90", user(i)))
			errs <- err
		}()
	}
	waitJoined(t, s2, 2)
	s2.mu.Lock()
	var batch *simulationBatch
	for _, b := range s2.open {
		batch = b
	}
	s2.mu.Unlock()
	close(window2)
	<-f2.started
	s2.mu.Lock()
	if len(s2.open) != 0 {
		t.Error("a batch being sent still takes questions")
	}
	s2.mu.Unlock()
	cancel2()
	for range 2 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled waiter: %v", err)
		}
	}
	// The call sees its context end (f2 never releases it): the batch's
	// goroutine ends.
	select {
	case <-batch.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the call of a batch nobody waits for was not cancelled")
	}
	if !errors.Is(batch.err, context.Canceled) {
		t.Errorf("the abandoned call ended with %v", batch.err)
	}
}

// A newcomer after every waiter of an unsent batch left is not given that
// batch's cancellation: it opens a batch of its own.
func TestSimulationsNewcomerAfterAllLeft(t *testing.T) {
	t.Parallel()
	f := &fakeSimulator{}
	s, window := newTestSimulations(f, 100)
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() {
		_, err := s.Simulate(ctx, question(ci, "90", user(1)))
		left <- err
	}()
	waitJoined(t, s, 1)
	cancel()
	if err := <-left; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled waiter: %v", err)
	}
	answers := ask(t, s, window, context.Background(), question(ci, "90", user(2)))
	if answers[0].err != nil {
		t.Errorf("a newcomer after a cancelled batch: %v", answers[0].err)
	}
	calls := f.callsMade()
	if len(calls) != 1 || !slices.Equal(calls[0].ResourceArns, []string{user(2)}) {
		t.Errorf("calls %v, want only the newcomer's", calls)
	}
}

// The questions that arrive while their group's call is out wait for it
// to return and go together in the next call, their window long over.
func TestSimulationsOneCallOutPerGroup(t *testing.T) {
	t.Parallel()
	f := &fakeSimulator{started: make(chan identity.SimulatePrincipalPolicyInput, 2), release: make(chan struct{})}
	s, window := newTestSimulations(f, 100)
	close(window) // no window: only the call out holds a batch back
	out := make(chan answer, 3)
	asks := func(i int) {
		go func() {
			res, err := s.Simulate(context.Background(), question(ci, "90", user(i)))
			out <- answer{user(i), res, err}
		}()
	}
	asks(1)
	<-f.started
	asks(2)
	asks(3)
	waitJoined(t, s, 2) // both in the one open batch, held by the call out
	close(f.release)
	for range 3 {
		if a := <-out; a.err != nil || len(a.results) != 1 || a.results[0].EvalResourceName != a.resource {
			t.Errorf("%s: %v %v", a.resource, a.results, a.err)
		}
	}
	calls := f.callsMade()
	if len(calls) != 2 || len(calls[1].ResourceArns) != 2 {
		t.Errorf("calls %v, want the first alone, then the two that waited for it together", calls)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.open) != 0 || len(s.last) != 0 {
		t.Errorf("answered batches still held: %d open, %d last", len(s.open), len(s.last))
	}
}
