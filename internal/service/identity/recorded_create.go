package identity

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// The identity service has no idempotency token: a create whose answer
// never arrives (lost, or Terraform interrupted) may still have made what
// it asked for. So every create of a key or a user follows one procedure,
// createWithRecord: recover what interrupted creates left, record the
// create on its user (create_record.go), send it, then settle the record
// by how it ended. What differs between a key and a user is what each
// brings as a recordedCreate (key_create.go, user_create.go).

const (
	// clockMargin widens the windows that tell a create's work from others':
	// CreateDate, the Date header and the records have second resolution,
	// and a request takes a moment on the way.
	clockMargin = 2 * time.Second
	// recoveryPoll is how often a create looks again while another create
	// may still land what it asked for.
	recoveryPoll = time.Second
	// bookkeepingTimeout bounds the tag changes that follow an answer in
	// hand (see bookkeeping).
	bookkeepingTimeout = 10 * time.Second
)

// afterRecovery is how a create goes on once what interrupted creates left
// is dealt with.
type afterRecovery int

const (
	// createRecorded: send the create with its record.
	createRecorded afterRecovery = iota
	// createUnrecorded: send it without a record (one cannot be kept).
	createUnrecorded
	// createNothing: the create is over (adopted, or failed).
	createNothing
)

// recordedCreate is what one kind of create brings to createWithRecord.
// Each method adds its own diagnostics.
type recordedCreate[T any] interface {
	// recoverFirst deals with what interrupted creates left before this one
	// is sent; with createNothing, adopted is the result (nil: failed).
	recoverFirst(ctx context.Context) (adopted *T, next afterRecovery)
	// begin records the create on its user, reporting whether it is.
	begin(ctx context.Context) bool
	// call sends the create.
	call(ctx context.Context) (*T, error)
	// settle ends the record of an answered create: what it made is held.
	settle(ctx context.Context, made *T)
	// refused explains an answer that created nothing (an error the
	// service sent), after clearing the record if begin made one.
	refused(ctx context.Context, err error) *T
	// lost finds and adopts what a create whose answer was lost made.
	lost(ctx context.Context, err error) *T
	// interrupted explains a create cut short with its request perhaps on
	// its way; the record, if any, stays for a later run.
	interrupted(err error)
}

// createWithRecord runs one create: recover, begin the record, call,
// settle by the outcome. It returns what the resource now holds, or nil.
func createWithRecord[T any](ctx context.Context, c recordedCreate[T]) *T {
	adopted, next := c.recoverFirst(ctx)
	if next == createNothing {
		return adopted
	}
	recorded := next == createRecorded && c.begin(ctx)
	made, err := c.call(ctx)
	var apiErr *client.APIError
	switch {
	case err == nil:
		if recorded {
			c.settle(ctx, made)
		}
		return made
	case errors.As(err, &apiErr):
		return c.refused(ctx, err)
	case errors.Is(err, client.ErrOutcomeUnknown):
		return c.lost(ctx, err)
	}
	c.interrupted(err)
	return nil
}

// bookkeeping is the context of the tag changes that follow an answer in
// hand or end a claim (marking a key held, removing a record or a claim):
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
