package identity

import (
	"context"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// lostAnswerPoll is how often a resource looks again for what a request
// with a lost answer created.
const lostAnswerPoll = 250 * time.Millisecond

// lateWindow is how long after a lost answer the service may still apply
// the request: a request the client stopped waiting for (its attempt timed
// out, the connection dropped) can be in the service's hands a while
// longer. One attempt's timeout bounds it.
func lateWindow(c *conns.Clients) time.Duration {
	if c == nil || c.Config.AttemptTimeout <= 0 {
		return client.DefaultAttemptTimeout
	}
	return c.Config.AttemptTimeout
}

// untilSeen calls look until it reports found, returns an error, or window
// runs out; it reports whether look found something.
func untilSeen(ctx context.Context, window time.Duration, look func() (bool, error)) (bool, error) {
	deadline := time.Now().Add(window)
	for {
		found, err := look()
		if found || err != nil {
			return found, err
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(lostAnswerPoll):
		}
	}
}
