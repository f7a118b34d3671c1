package recovery

import (
	"context"
	"slices"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// contestPause is how long a run that wrote its claim waits before it
// looks whether it won (doc.go says why it is enough).
const contestPause = 2 * time.Second

// contest is one run's claim, on a user's tags, of an orphan (a key to
// take over, the user to adopt), against other runs claiming it at once.
type contest struct {
	idc   *identityclient.Client
	user  string
	clock *client.ServiceClock
	// nonce names this run.
	nonce string
	// claim is this run's claim, written at now (the service's clock).
	claim func(now time.Time) identityclient.Tag
	// rivals reads the user's tags at now: the nonces of the other live
	// claims, and whether the orphan is still to be taken.
	rivals func(tags []identityclient.Tag, now time.Time) (others []string, open bool)
}

// contend writes this run's claim and returns its tag when this run won
// the orphan; "" when it lost (its claim is removed then).
func (c contest) contend(ctx context.Context) (won string, err error) {
	start := time.Now()
	tags, err := c.idc.ListUserTags(ctx, c.user)
	if err != nil {
		return "", err
	}
	now := readClock(c.clock, tags.ServerTime)
	if others, open := c.rivals(tags.Tags, now); !open || len(others) > 0 {
		return "", nil
	}
	tag := c.claim(now)
	defer func() {
		if won == "" {
			bctx, cancel := bookkeeping(ctx)
			defer cancel()
			_ = c.idc.UntagUser(bctx, c.user, []string{tag.Key})
		}
	}()
	if err := c.idc.TagUser(ctx, c.user, []identityclient.Tag{tag}); err != nil {
		return "", err
	}
	if time.Since(start) > contestPause/2 {
		return "", nil
	}
	first, err := c.firstAfterPause(ctx)
	if !first {
		return "", err
	}
	return tag.Key, err
}

// firstAfterPause looks again contestPause later: this run wins when the
// orphan is still to be taken and no other live claim has a lower nonce.
func (c contest) firstAfterPause(ctx context.Context) (bool, error) {
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-time.After(contestPause):
	}
	tags, err := c.idc.ListUserTags(ctx, c.user)
	if err != nil {
		return false, err
	}
	others, open := c.rivals(tags.Tags, readClock(c.clock, tags.ServerTime))
	return open && !slices.ContainsFunc(others, func(o string) bool { return o < c.nonce }), nil
}
