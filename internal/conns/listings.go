package conns

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// MaxListings is how many answers Listings keeps at once: two per user
// (keys and tags) for an estate of 10,000 users, each a few hundred bytes
// to a few KiB. Past it they are all dropped, which costs calls, never
// correctness.
const MaxListings = 20_000

// Listings are the per-user listings that refresh and import read,
// ListServiceSpecificCredentials (per user and service) and ListUserTags,
// each asked once per provider instance (one Terraform command's walk,
// since Configure makes a new one) however many of the user's keys are
// read: reads that come while a call is in flight share its answer.
//
// An answer is never the evidence for a write: the create and its
// recovery (internal/recovery) and force_destroy's cleanup read the
// service themselves. And a write this instance makes to a user's keys
// or tags (create, reset, status, delete, tag, untag) calls Forget for
// the user, so that a read after it asks again, never joining a call
// made before it.
type Listings struct {
	keys func(ctx context.Context, user, service string) (*identity.ListServiceSpecificCredentialsOutput, error)
	tags func(ctx context.Context, user string) (*identity.UserTags, error)

	mu      sync.Mutex
	seq     uint64 // counts the calls started and answered, to order them
	answers map[listingKey]*listing
}

// NewListings keeps the answers of c's listings.
func NewListings(c *identity.Client) *Listings {
	return &Listings{keys: c.ListServiceSpecificCredentials, tags: c.ListUserTags, answers: map[listingKey]*listing{}}
}

// listingKey names one listing: the user (names are unique regardless of
// case), and the service of a key listing; tags has no service.
type listingKey struct {
	user, service string
	tags          bool
}

// listing is one call and, once done is closed, its answer.
type listing struct {
	started  uint64 // Listings.seq when the call went
	answered uint64 // and when it was answered, once done is closed
	done     chan struct{}
	value    any
	err      error
}

// Answered is when, in the order of this instance's calls, a listing was
// answered: a read that combines two listings asks for the second to have
// been called after the first was answered (TagsSince).
type Answered uint64

// Keys is user's keys of service (every service when ""), as
// ListServiceSpecificCredentials answers, from the instance's one call
// for them. The answer is shared: callers must not change it.
func (l *Listings) Keys(ctx context.Context, user, service string) (*identity.ListServiceSpecificCredentialsOutput, Answered, error) {
	k := listingKey{user: strings.ToLower(user), service: service}
	v, at, err := l.read(ctx, k, 0, func(ctx context.Context) (any, error) { return l.keys(ctx, user, service) })
	out, _ := v.(*identity.ListServiceSpecificCredentialsOutput)
	return out, at, err
}

// TagsSince is user's tags, as ListUserTags answers, from the instance's
// one call for them that went after the listing answered at since: a
// rule that reads a key in one listing and its records in the other (a
// record is written before its key is created) needs the tags read no
// earlier than the keys.
func (l *Listings) TagsSince(ctx context.Context, user string, since Answered) (*identity.UserTags, error) {
	k := listingKey{user: strings.ToLower(user), tags: true}
	v, _, err := l.read(ctx, k, uint64(since), func(ctx context.Context) (any, error) { return l.tags(ctx, user) })
	out, _ := v.(*identity.UserTags)
	return out, err
}

// Forget drops what the instance read of user, in flight or answered:
// called on every write to the user's keys or tags. A nil Listings has
// nothing to forget.
func (l *Listings) Forget(user string) {
	if l == nil {
		return
	}
	user = strings.ToLower(user)
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.answers {
		if k.user == user {
			delete(l.answers, k)
		}
	}
}

// read is k's answer: the one kept, when its call went after since, or
// a call's, shared with the reads that come while it is in flight. A
// failed call is not kept (but for "not found", an answer): the next read
// asks again. A reader whose context is alive asks again itself when the
// call it joined ended with its first caller's context.
func (l *Listings) read(ctx context.Context, k listingKey, since uint64, call func(context.Context) (any, error)) (any, Answered, error) {
	for {
		c, mine := l.join(k, since)
		if mine {
			c.value, c.err = call(ctx)
			l.finish(k, c)
		} else {
			select {
			case <-c.done:
			case <-ctx.Done():
				return nil, 0, ctx.Err()
			}
		}
		if !mine && ctx.Err() == nil && (errors.Is(c.err, context.Canceled) || errors.Is(c.err, context.DeadlineExceeded)) {
			continue
		}
		return c.value, Answered(c.answered), c.err
	}
}

// join is k's call that went after since, or a new one, which the caller
// makes (mine).
func (l *Listings) join(k listingKey, since uint64) (c *listing, mine bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.answers[k]; c != nil && c.started > since {
		return c, false
	}
	if len(l.answers) >= MaxListings {
		clear(l.answers)
	}
	l.seq++
	c = &listing{started: l.seq, done: make(chan struct{})}
	l.answers[k] = c
	return c, true
}

// finish hands c's answer to its waiters, and keeps it unless it is an
// error other than "not found".
func (l *Listings) finish(k listingKey, c *listing) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	c.answered = l.seq
	if c.err != nil && !errors.Is(c.err, client.ErrNotFound) && l.answers[k] == c {
		delete(l.answers, k)
	}
	close(c.done)
}
