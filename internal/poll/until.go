package poll

import (
	"context"
	"time"
)

// Check looks once at what is being waited for. It reports whether the wait
// is over, or else how long to wait before looking again; an error ends the
// wait.
type Check func(ctx context.Context) (done bool, again time.Duration, err error)

// Until is the one polling loop of the provider: it calls check until check
// reports done or an error, or ctx ends (then ctx's error is returned).
// Callers bound the wait with a context deadline, and choose the interval
// in check: Next for a change or a dry run, or a fixed pace.
func Until(ctx context.Context, check Check) error {
	for {
		done, again, err := check(ctx)
		if done || err != nil {
			return err
		}
		if err := Sleep(ctx, again); err != nil {
			return err
		}
	}
}

// Sleep waits d, or until ctx ends and returns its error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Share is the interval after waited when nothing is known of the end:
// Next of an observation with no stages.
func Share(start time.Time) time.Duration {
	now := time.Now()
	return Next(Observation{Now: now, Start: start, Waited: now.Sub(start)})
}
