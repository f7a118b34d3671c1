package recovery

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

const (
	// clockMargin widens the windows that tell a create's work from others':
	// CreateDate, the Date header and the records have second resolution,
	// and a request takes a moment on the way.
	clockMargin = 2 * time.Second
	// recoveryPoll is how often a create looks again while another create
	// may still land what it asked for.
	recoveryPoll = time.Second
	// lostAnswerPoll is how often a create looks again for what a request
	// with a lost answer made.
	lostAnswerPoll = 250 * time.Millisecond
	// bookkeepingTimeout bounds the bookkeeping (see bookkeeping).
	bookkeepingTimeout = 10 * time.Second
)

// LateWindow is how long after a lost answer the service may still apply
// the request: a request the client stopped waiting for (its attempt timed
// out, the connection dropped) can be in the service's hands a while
// longer. One attempt's timeout bounds it. cfg has its defaults applied.
func LateWindow(cfg client.Config) time.Duration {
	return cfg.AttemptTimeout
}

// CreateWindow is how long after a create starts it can still land: the
// client may send it up to max_retries+1 times (a retry follows only an
// answered error or a request that never left, so at most one attempt is
// applied), each attempt up to its timeout with the longest backoff before
// it, and the service may apply the last one up to LateWindow after the
// client gave up on it. cfg has its defaults applied.
func CreateWindow(cfg client.Config) time.Duration {
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

// errStillInFlight says records of other runs outlived the wait's bound.
var errStillInFlight = errors.New("still in flight")

// awaitRecords calls look every recoveryPoll while it reports a create
// that may still land (until is when it can no longer, by the service's
// clock now), logging msg at INFO once. bound (0: none) limits the wait;
// past it, it returns errStillInFlight. It returns look's error or ctx's.
func awaitRecords(ctx context.Context, bound time.Duration, msg string, fields map[string]any, look func() (until, now time.Time, err error)) error {
	limit := time.Now().Add(bound)
	logged := false
	for {
		until, now, err := look()
		if err != nil || until.IsZero() {
			return err
		}
		if bound > 0 && time.Now().After(limit) {
			return errStillInFlight
		}
		if !logged {
			logged = true
			fields["wait_up_to"] = until.Add(clockMargin).Sub(now).Round(time.Second).String()
			tflog.Info(ctx, msg, fields)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(recoveryPoll):
		}
	}
}

// bookkeeping is the context of the tag changes that follow an answer in
// hand or end a claim (settling a record, marking a key, removing a claim):
// it is not cancelled with ctx, since Ctrl-C or a cancelled CI job right
// after the answer arrived would otherwise leave a record that has a later
// run take what the state holds for an orphan; bookkeepingTimeout bounds
// it instead.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
}

// untagLogged removes tags from user, logging a failure with msg: a record
// or claim left behind only makes a later create wait for it or look at
// it. It runs even when the run is being interrupted (see bookkeeping).
func untagLogged(ctx context.Context, idc *identityclient.Client, user, msg string, keys ...string) {
	if len(keys) == 0 {
		return
	}
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := idc.UntagUser(actx, user, keys); err != nil {
		tflog.Warn(ctx, msg, map[string]any{"user_name": user, "tags": strings.Join(keys, ","), "error": err.Error()})
	}
}
