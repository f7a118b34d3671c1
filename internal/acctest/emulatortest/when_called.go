package emulatortest

import (
	"testing"
	"time"
)

// WhenCalled runs fn (such as moving a held clock on) once the emulator
// has answered op successfully once more than it had when WhenCalled was
// called: the provider has observed what the test holds still for it.
//
// The deadline counts from the first call of any operation the emulator
// logs after WhenCalled, not from WhenCalled itself: a parallel test arms
// its watch before it gets its slot (resource.ParallelTest waits for one),
// and while it waits behind the package's other tests nothing calls the
// emulator, so no deadline may run out then. When op has not been answered
// within deadline of that first call, it fails t, naming the calls seen,
// and runs fn anyway, so that a run waiting on fn ends and the test fails
// rather than hangs. The channel is closed once fn has run; the watch
// stops, without running fn, when t ends.
func (e *Emulator) WhenCalled(t testing.TB, op string, deadline time.Duration, fn func()) <-chan struct{} {
	t.Helper()
	before := e.Answered(op, false)
	armedAt := e.lastSeq()
	ran, stop, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		var expired <-chan time.Time // nil, never ready, until the first call
		for e.Answered(op, false) == before {
			if expired == nil && e.lastSeq() > armedAt {
				expired = time.After(deadline)
			}
			select {
			case <-stop:
				return
			case <-expired:
				t.Errorf("the provider did not call %s within %s of its first call; the calls seen: %s", op, deadline, e.callsSeen())
				fn()
				close(ran)
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		fn()
		close(ran)
	}()
	return ran
}

// lastSeq is the sequence number of the newest call logged (0 for none):
// it only grows, across ClearCalls too.
func (e *Emulator) lastSeq() int {
	calls := e.Calls()
	if len(calls) == 0 {
		return 0
	}
	return calls[len(calls)-1].Seq
}
