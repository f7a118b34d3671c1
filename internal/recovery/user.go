package recovery

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// A user whose CreateUser took effect but whose result Terraform never
// saved (Terraform or the provider killed or interrupted while the request
// was in flight) makes every later create fail with EntityAlreadyExists.
// So CreateUser carries a tag recording the create (tags.go), removed as
// soon as the answer is in hand. A user that still carries it once the
// create's window has passed is an orphan: the next create of that name,
// on any machine, adopts it. A user without the record is someone else's:
// the import advice, never adoption.

// User is one create of a user, as the resource asks for it.
type User struct {
	Client *identityclient.Client
	Input  identityclient.CreateUserInput
	// Window is how long after it starts the create can be applied
	// (CreateWindow); LateWindow, how long after a lost answer.
	Window, LateWindow time.Duration
	// Made remembers the users this run created; nil for none.
	Made MadeUsers
}

// userCreate is one user create under way.
type userCreate struct {
	User
	idc *identityclient.Client
	// nonce names this create in the record and claim it writes.
	nonce string
	clock client.ServiceClock
	notes []UserNote
}

// CreateUser creates the user u asks for, carrying its record, and settles
// the record by how the create ended; a name an orphan holds makes it
// adopt the orphan. A user an interrupted create left makes the create
// fail with EntityAlreadyExists, so there is nothing to recover first.
func CreateUser(ctx context.Context, u User) UserOutcome {
	c := &userCreate{User: u, idc: u.Client, nonce: newNonce()}
	end := c.run(ctx)
	return UserOutcome{End: end, Notes: c.notes}
}

func (c *userCreate) run(ctx context.Context) UserEnd {
	// The record rides on the request: a user it makes carries it from
	// its first moment.
	in := c.Input
	in.Tags = []identityclient.Tag{userRecordTag(c.nonce, c.Window)}
	made, err := c.idc.CreateUser(ctx, in)
	var apiErr *client.APIError
	switch {
	case err == nil:
		c.settle(ctx, made)
		return UserCreated{User: made}
	case errors.As(err, &apiErr) && errors.Is(err, client.ErrAlreadyExists):
		return c.exists(ctx, err)
	case errors.As(err, &apiErr):
		return UserRefused{Err: err}
	case errors.Is(err, client.ErrOutcomeUnknown):
		return c.lost(ctx, err)
	}
	// A user the request made carries the record, and the next create of
	// the name adopts it.
	return UserInterrupted{Record: tagUserRecord, Window: c.Window, Err: err}
}

// settle clears the record of user u, which this create made: the user is
// now held by the configuration that asked for it. The UntagUser cannot
// wait for a later call: once Create returns, Terraform saves the user in
// its state, and a record left on it (the process killed before a deferred
// removal) would have another configuration asking for the same name adopt
// a user this state holds. It remembers u for the key creates of the same
// run, with the service's clock from its CreateDate, taken as the answer
// arrives: it reads early by under a second (its resolution) plus the
// answer's time on the way, within clockMargin. (The client does not
// expose CreateUser's Date header.) Only for an answer in hand: an
// adopted user is older than this run, so records on it may be another
// run's; and after a lost answer the user is read up to LateWindow later,
// and its CreateDate says nothing of the clock now (lost).
func (c *userCreate) settle(ctx context.Context, u *identityclient.User) {
	if c.Made != nil {
		c.Made.Add(u.UserName, client.ClockRead(u.CreateDate))
	}
	c.clearRecord(ctx, u)
}

// lost reads the user to learn the outcome of a create whose answer was
// lost: one carrying this create's record is its; another was there
// before (the lost answer was EntityAlreadyExists). A user found so is not
// remembered as made (settle): a key create for it looks.
func (c *userCreate) lost(ctx context.Context, createErr error) UserEnd {
	tflog.Info(ctx, "CreateUser answer lost, reading the user to learn the outcome", map[string]any{"user_name": c.Input.UserName, "wait_up_to": c.LateWindow.String()})
	var u *identityclient.User
	found, err := untilSeen(ctx, c.LateWindow, lostAnswerPoll, func() (bool, error) {
		got, err := c.idc.GetUser(ctx, c.Input.UserName)
		if errors.Is(err, client.ErrNotFound) {
			return false, nil
		}
		u = got
		return err == nil, err
	})
	if !found {
		return UserAnswerLost{Err: createErr, ReadErr: err, Wait: c.LateWindow}
	}
	if nonce, _, ok := userRecord(u); ok && nonce == c.nonce {
		c.clearRecord(ctx, u)
		return UserCreated{User: u}
	}
	return c.exists(ctx, createErr)
}

// clearRecord removes the record of a create whose answer is in hand, and
// claims, this run's claims of an adoption. It runs even when the run is
// being interrupted (see bookkeeping).
func (c *userCreate) clearRecord(ctx context.Context, u *identityclient.User, claims ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := c.idc.UntagUser(actx, u.UserName, append([]string{tagUserRecord}, claims...)); err != nil {
		c.notes = append(c.notes, UserRecordNotCleared{UserName: u.UserName, Record: tagUserRecord, Err: err})
	}
}

// exists handles a CreateUser refused with EntityAlreadyExists: it adopts
// the user if it carries the record of a create that is over, waits while
// that create may still be answered, and otherwise ends with the name
// taken.
func (c *userCreate) exists(ctx context.Context, createErr error) UserEnd {
	var u *identityclient.User
	var readErr error
	err := awaitRecords(ctx, 0, "The user carries the record of a create whose answer may still arrive: waiting for it before deciding whose the user is",
		map[string]any{"user_name": c.Input.UserName},
		func() (until, now time.Time, err error) {
			u, until, now, readErr = c.readRecord(ctx)
			return until, now, readErr
		})
	switch {
	case readErr != nil:
		return UserUnreadable{Err: createErr, ReadErr: readErr}
	case err != nil:
		return UserWaitInterrupted{Err: createErr, WaitErr: err}
	case u.UserName != c.Input.UserName:
		return UserTaken{Err: createErr, SpelledAs: u.UserName}
	}
	if _, _, ok := userRecord(u); !ok {
		return UserTaken{Err: createErr}
	}
	return c.adopt(ctx, u, createErr)
}

// readRecord reads the user of the name and until when (by the service's
// clock, now) the create it records may still be answered: zero when it
// can no longer, or the user carries no record or is spelled otherwise.
func (c *userCreate) readRecord(ctx context.Context) (u *identityclient.User, until, now time.Time, err error) {
	u, err = c.idc.GetUser(ctx, c.Input.UserName)
	if err != nil || u.UserName != c.Input.UserName {
		return u, until, now, err
	}
	tags, err := c.idc.ListUserTags(ctx, c.Input.UserName)
	if err != nil {
		return u, until, now, err
	}
	now = readClock(&c.clock, tags.ServerTime)
	_, until, ok := userRecord(u)
	if !ok || !now.Before(until.Add(clockMargin)) {
		return u, time.Time{}, now, nil
	}
	return u, until, now, nil
}

// adopt takes over the orphan u once it won it against other runs adopting
// it at the same time (contest.go), and clears the record.
func (c *userCreate) adopt(ctx context.Context, u *identityclient.User, createErr error) UserEnd {
	if u.Path != c.Input.Path {
		// Adopting it as it is would give the state other values than the
		// plan's, which Terraform refuses; the record stays for the next try.
		return UserOtherPath{User: u, Err: createErr}
	}
	won, err := c.takeOver(ctx, u)
	switch {
	case err != nil:
		return UserTakeoverFailed{User: u, Err: createErr, ClaimErr: err}
	case won == nil:
		return UserTaken{Err: createErr, OtherRunAdopting: true}
	}
	tflog.Warn(ctx, "Adopting the user an interrupted create left behind, instead of failing", map[string]any{"user_name": u.UserName, "user_id": u.UserID})
	c.clearRecord(ctx, won.user, won.claim)
	return UserAdopted{User: won.user}
}

// wonUser is an orphan user this run won: the user as read after the
// contest, and this run's claim.
type wonUser struct {
	user  *identityclient.User
	claim string
}

// takeOver wins the orphan u against other runs adopting it (contest.go)
// and reads it again. It returns nil when another run won it or it is no
// longer the user the record is on; a claim that leads to no adoption is
// removed.
func (c *userCreate) takeOver(ctx context.Context, u *identityclient.User) (*wonUser, error) {
	record, _, _ := userRecord(u)
	claim, err := contest{idc: c.idc, user: u.UserName, clock: &c.clock, nonce: c.nonce,
		claim: func(now time.Time) identityclient.Tag {
			return userClaimTag(c.nonce, record, now.Add(contestPause+c.Window))
		},
		rivals: func(tags []identityclient.Tag, now time.Time) ([]string, bool) {
			return userRivals(tags, now, record, c.nonce)
		},
	}.contend(ctx)
	if err != nil || claim == "" {
		return nil, err
	}
	again, err := c.idc.GetUser(ctx, u.UserName)
	if err == nil && again.UserID == u.UserID {
		return &wonUser{user: again, claim: claim}, nil
	}
	untagLogged(ctx, c.idc, u.UserName, "Could not remove a claim from the user", claim)
	return nil, err
}
