package identity

import (
	"context"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// lostAnswerPoll is how often a resource looks again for what a request
// with a lost answer created.
const lostAnswerPoll = 250 * time.Millisecond

// clientConfig is the client settings in force; the defaults without
// clients (unit tests).
func clientConfig(c *conns.Clients) client.Config {
	if c == nil {
		return client.Config{MaxRetries: client.DefaultMaxRetries}.WithDefaults()
	}
	return c.Config.WithDefaults()
}

// lateWindow is how long after a lost answer the service may still apply
// the request: a request the client stopped waiting for (its attempt timed
// out, the connection dropped) can be in the service's hands a while
// longer. One attempt's timeout bounds it.
func lateWindow(c *conns.Clients) time.Duration {
	return clientConfig(c).AttemptTimeout
}

// createWindow is how long after a create starts a key from it can still
// land: the client may send it up to max_retries+1 times (a retry follows
// only an answered error or a request that never left, so at most one
// attempt is applied), each attempt up to its timeout with the longest
// backoff before it, and the service may apply the last one up to
// lateWindow after the client gave up on it.
func createWindow(c *conns.Clients) time.Duration {
	cfg := clientConfig(c)
	w := time.Duration(cfg.MaxRetries+2) * cfg.AttemptTimeout
	for i := range cfg.MaxRetries {
		w += cfg.MaxBackoff(i)
	}
	return w
}

// untilSeen calls look every interval until it reports found, returns an
// error, or window runs out (look is called at least once); it reports
// whether look found something. A look in progress when the window ends
// is let finish: only ctx cuts it short.
func untilSeen(ctx context.Context, window, every time.Duration, look func() (bool, error)) (bool, error) {
	wctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	found := false
	var lookErr error
	err := poll.Until(wctx, func(context.Context) (bool, time.Duration, error) {
		found, lookErr = look()
		return found, every, lookErr
	})
	switch {
	case lookErr != nil:
		return found, lookErr
	case err != nil && ctx.Err() == nil:
		return found, nil // the window ran out
	}
	return found, err
}
