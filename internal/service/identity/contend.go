package identity

import (
	"context"
	"slices"
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// Two runs may recover the same interrupted create at once, each having
// seen it unclaimed. A tag written and read back does not settle it (the
// last writer's value wins, and each may read its own), so each run writes
// a claim of its own, named by its nonce, and takes the key or user only
// when, contendSettle later, no other live claim has a lower nonce. One
// that sees another's claim before writing its own backs off at once, and
// one whose claim took longer than contendSettle/2 to write (counted from
// before that first look) backs off too: then a claim written after the
// winner's last look was written after the winner's first look was
// answered, which the winner would have had to write its own claim in under
// contendSettle/2, and by the time it looks again it sees the winner's.
// Either way at most one run takes it; both may back off, and a later run
// recovers it.
const contendSettle = 2 * time.Second

// contest is one run's claim, on a user's tags, of what an interrupted
// create left (a key to take over, the user to adopt).
type contest struct {
	idc  *identityclient.Client
	user string
	// nonce names this run.
	nonce string
	// mine is this run's claim, made of the service's clock.
	mine func(now time.Time) identityclient.Tag
	// rivals reads the user's tags: the nonces of the other live claims,
	// and whether the thing is still to be taken.
	rivals func(*identityclient.UserTags) (others []string, open bool)
}

// contend writes this run's claim and reports whether this run may take
// what it claims. A claim that lost is removed.
func (c contest) contend(ctx context.Context) (won bool, err error) {
	start := time.Now()
	tags, err := c.idc.ListUserTags(ctx, c.user)
	if err != nil {
		return false, err
	}
	if others, open := c.rivals(tags); !open || len(others) > 0 {
		return false, nil
	}
	tag := c.mine(serverNow(tags))
	defer func() {
		if !won {
			bctx, cancel := bookkeeping(ctx)
			defer cancel()
			_ = c.idc.UntagUser(bctx, c.user, []string{tag.Key})
		}
	}()
	if err := c.idc.TagUser(ctx, c.user, []identityclient.Tag{tag}); err != nil {
		return false, err
	}
	if time.Since(start) > contendSettle/2 {
		return false, nil
	}
	return c.firstAfterSettling(ctx)
}

// firstAfterSettling looks again contendSettle later: this run wins when
// the thing is still to be taken and no other live claim has a lower
// nonce.
func (c contest) firstAfterSettling(ctx context.Context) (bool, error) {
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-time.After(contendSettle):
	}
	tags, err := c.idc.ListUserTags(ctx, c.user)
	if err != nil {
		return false, err
	}
	others, open := c.rivals(tags)
	return open && !slices.ContainsFunc(others, func(o string) bool { return o < c.nonce }), nil
}
