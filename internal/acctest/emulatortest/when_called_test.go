package emulatortest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
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

// WhenCalled runs its step after the call, and past its deadline without
// the call it reports the failure with the calls seen and runs the step
// anyway, rather than waiting for ever.
func TestWhenCalled(t *testing.T) {
	t.Parallel()
	e := New(t)
	f := &failures{TB: t}
	ran := false
	select {
	case <-e.WhenCalled(f, "DescribeDomainChangeProgress", 100*time.Millisecond, func() { ran = true }):
	case <-time.After(time.Minute):
		t.Fatal("WhenCalled did not run its step past the deadline")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !ran || len(f.errs) != 1 || !strings.Contains(f.errs[0], "did not call DescribeDomainChangeProgress within 100ms; the calls seen: ") {
		t.Errorf("ran %v, failures %q", ran, f.errs)
	}
}
