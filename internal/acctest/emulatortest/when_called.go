package emulatortest

import (
	"testing"
	"time"
)

// WhenCalled runs fn (such as moving a held clock on) once the emulator
// has answered op successfully once more than it had when WhenCalled was
// called: the provider has observed what the test holds still for it. When
// that has not happened within deadline it fails t, naming the calls seen,
// and runs fn anyway, so that a run waiting on fn ends and the test fails
// rather than hangs. The channel is closed once fn has run; the watch
// stops, without running fn, when t ends.
func (e *Emulator) WhenCalled(t testing.TB, op string, deadline time.Duration, fn func()) <-chan struct{} {
	t.Helper()
	before := e.CountCalls(op, false)
	ran, stop, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		expired := time.After(deadline)
		for e.CountCalls(op, false) == before {
			select {
			case <-stop:
				return
			case <-expired:
				t.Errorf("the provider did not call %s within %s; the calls seen: %s", op, deadline, e.callsSeen())
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
