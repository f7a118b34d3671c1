package poll

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	t.Parallel()
	t.Run("done", func(t *testing.T) {
		t.Parallel()
		calls := 0
		err := Until(context.Background(), func(context.Context) (bool, time.Duration, error) {
			calls++
			return calls == 3, time.Millisecond, nil
		})
		if err != nil || calls != 3 {
			t.Fatalf("calls = %d, err = %v; want 3 calls and no error", calls, err)
		}
	})
	t.Run("error ends the wait", func(t *testing.T) {
		t.Parallel()
		boom := errors.New("boom")
		calls := 0
		err := Until(context.Background(), func(context.Context) (bool, time.Duration, error) {
			calls++
			return false, time.Millisecond, boom
		})
		if !errors.Is(err, boom) || calls != 1 {
			t.Fatalf("calls = %d, err = %v; want 1 call and boom", calls, err)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		err := Until(ctx, func(context.Context) (bool, time.Duration, error) { return false, time.Hour, nil })
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the deadline", err)
		}
	})
}

func TestShare(t *testing.T) {
	t.Parallel()
	if d := Share(time.Now()); d < floor || d > MinInterval {
		t.Fatalf("Share at the start = %s, want between %s and %s", d, floor, MinInterval)
	}
	if d := Share(time.Now().Add(-time.Hour)); d < MinInterval || d > MaxInterval {
		t.Fatalf("Share after an hour = %s, want between %s and %s", d, MinInterval, MaxInterval)
	}
}
