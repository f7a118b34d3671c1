package emulatortest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// failures records what WhenCalled reports instead of failing the test.
type failures struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (f *failures) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *failures) reported() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.errs...)
}

// callSomething makes one call the emulator logs (GetUser of a user that
// does not exist), as a provider's first call would.
func callSomething(t *testing.T, e *Emulator) {
	t.Helper()
	c, err := identityclient.New(e.ClientConfig(), e.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.GetUser(context.Background(), "nobody")
}

// WhenCalled runs its step after the call, and past its deadline without
// the call it reports the failure with the calls seen and runs the step
// anyway, rather than waiting for ever.
func TestWhenCalled(t *testing.T) {
	t.Parallel()
	e := New(t)
	f := &failures{TB: t}
	ran := false
	watch := e.WhenCalled(f, "DescribeDomainChangeProgress", 100*time.Millisecond, func() { ran = true })
	callSomething(t, e)
	select {
	case <-watch:
	case <-time.After(time.Minute):
		t.Fatal("WhenCalled did not run its step past the deadline")
	}
	errs := f.reported()
	if !ran || len(errs) != 1 || !strings.Contains(errs[0], "did not call DescribeDomainChangeProgress within 100ms of its first call; the calls seen: GetUser 404") {
		t.Errorf("ran %v, failures %q", ran, errs)
	}
}

// A test that arms its watch and then waits for a parallel slot (no call
// reaches the emulator meanwhile) is not failed by that wait: the deadline
// starts with the first call.
func TestWhenCalled_deadlineStartsWithTheFirstCall(t *testing.T) {
	t.Parallel()
	e := New(t)
	f := &failures{TB: t}
	watch := e.WhenCalled(f, "GetUser", 50*time.Millisecond, func() {})
	select {
	case <-watch:
		t.Fatalf("the step ran with no call made; failures %q", f.reported())
	case <-time.After(500 * time.Millisecond): // ten deadlines of waiting for a slot
	}
	callSomething(t, e) // refused (404): not an answered GetUser
	callSomething(t, e)
	select {
	case <-watch:
	case <-time.After(time.Minute):
		t.Fatal("WhenCalled did not run its step past the deadline")
	}
	if errs := f.reported(); len(errs) != 1 || !strings.Contains(errs[0], "did not call GetUser within 50ms of its first call") {
		t.Errorf("failures %q", errs)
	}
}
