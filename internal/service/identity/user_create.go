package identity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

const createUserSummary = "Unable to Create Identity User"

// A user whose CreateUser took effect but whose result Terraform never
// saved (Terraform or the provider killed or interrupted while the request
// was in flight) makes every later create fail with EntityAlreadyExists.
// So CreateUser carries a tag recording the create (create_record.go),
// removed as soon as the answer is in hand. A user that still carries it
// once the create's window has passed was made by an interrupted create
// and is held by no configuration: the next create of that name, on any
// machine, adopts it. A user without the tag is someone else's: the import
// advice, never adoption.

// userCreate is one create of a user, as createWithRecord runs it.
type userCreate struct {
	idc *identityclient.Client
	// window is how long after it starts a create can be applied;
	// lostAnswerWait, how long after a lost answer.
	window, lostAnswerWait time.Duration
	in                     identityclient.CreateUserInput
	diags                  *diag.Diagnostics
	// nonce names this create in the record it writes.
	nonce string
	// created remembers the users this provider instance made.
	created *conns.CreatedUsers
}

var _ recordedCreate[identityclient.User] = (*userCreate)(nil)

// newUserCreate is one create of the user in.
func newUserCreate(clients *conns.Clients, in identityclient.CreateUserInput, diags *diag.Diagnostics) *userCreate {
	return &userCreate{idc: clients.Identity, window: createWindow(clients), lostAnswerWait: lateWindow(clients), in: in, diags: diags, nonce: newNonce(), created: clients.CreatedUsers}
}

// run sends CreateUser with its record and returns the user: the new one,
// the one a lost answer made, or the orphan of an interrupted create. It
// adds diagnostics and returns nil when there is none.
func (c *userCreate) run(ctx context.Context) *identityclient.User {
	return createWithRecord(ctx, c)
}

// recoverFirst has nothing to do: a user an interrupted create left makes
// the create fail with EntityAlreadyExists, and refused adopts it then.
func (c *userCreate) recoverFirst(context.Context) (*identityclient.User, afterRecovery) {
	return nil, createRecorded
}

// begin puts the record on the CreateUser request itself: a user it makes
// carries it from its first moment.
func (c *userCreate) begin(context.Context) bool {
	c.in.Tags = []identityclient.Tag{userCreateTag(c.nonce, c.window)}
	return true
}

func (c *userCreate) call(ctx context.Context) (*identityclient.User, error) {
	return c.idc.CreateUser(ctx, c.in)
}

// settle clears the record: the user is now held by the configuration that
// asked for it. The UntagUser cannot wait for a later call: once Create
// returns, Terraform saves the user in its state, and a record left on it
// (the process killed before a deferred removal) would have another
// configuration asking for the same name adopt a user this state holds.
func (c *userCreate) settle(ctx context.Context, made *identityclient.User) {
	c.made(made)
	c.clearRecord(ctx, made)
}

// made remembers that this create made u, for the key creates of the same
// run (keyCreate.recoverFirst), with the service's clock from u's
// CreateDate, taken as the answer arrives: it reads early by under a
// second (its resolution) plus the answer's time on the way, within
// clockMargin. (The client does not expose CreateUser's Date header.)
// Only for an answer in hand: after a lost answer the user is read up to
// lostAnswerWait later, and its CreateDate says nothing of the clock now.
func (c *userCreate) made(u *identityclient.User) {
	c.created.Add(u.UserName, u.CreateDate)
}

// refused adopts the orphan of an interrupted create when the name is
// taken by one; the refused create left no record.
func (c *userCreate) refused(ctx context.Context, err error) *identityclient.User {
	if errors.Is(err, client.ErrAlreadyExists) {
		return c.exists(ctx, err)
	}
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("Creating user %q failed: %s", c.in.UserName, err))
	return nil
}

// lost reads the user to learn the outcome: one carrying this create's
// record is its; another was there before (the lost answer was
// EntityAlreadyExists). A user found so is not remembered as made (made):
// a key create for it looks.
func (c *userCreate) lost(ctx context.Context, createErr error) *identityclient.User {
	tflog.Info(ctx, "CreateUser answer lost, reading the user to learn the outcome", map[string]any{"user_name": c.in.UserName, "wait_up_to": c.lostAnswerWait.String()})
	u, err := findUserAfterLostCreate(ctx, c.idc, c.in, createErr, c.lostAnswerWait)
	if err != nil {
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("Creating user %q failed: %s", c.in.UserName, err))
		return nil
	}
	if nonce, _, ok := userCreateRecord(u); ok && nonce == c.nonce {
		c.clearRecord(ctx, u)
		return u
	}
	return c.exists(ctx, createErr)
}

// interrupted: a user the request made carries the record, and the next
// apply adopts it.
func (c *userCreate) interrupted(err error) {
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("The create of user %q was interrupted before its answer arrived. "+
		"If the service created the user, the user carries the record of this create (tag %s), and the next apply, on this machine or any other, adopts it once %s have passed since its creation.\n\n%s",
		c.in.UserName, tagCreatingUser, c.window.Round(time.Second), err))
}

// clearRecord removes the record of a create whose answer is in hand, and
// claims, this run's claims of an adoption. It runs even when the run is
// being interrupted (see bookkeeping).
func (c *userCreate) clearRecord(ctx context.Context, u *identityclient.User, claims ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := c.idc.UntagUser(actx, u.UserName, append([]string{tagCreatingUser}, claims...)); err != nil {
		c.diags.AddWarning("User Create Record Not Cleared",
			fmt.Sprintf("User %q was created and is in the state, but removing the record of its create (tag %s) failed. Until the tag is removed, another configuration that creates a user of this name would adopt this one: remove the tag (identity:UntagUser).\n\n%s",
				u.UserName, tagCreatingUser, err))
	}
}

// exists handles a CreateUser refused with EntityAlreadyExists: it adopts
// the user if it carries the record of a create that is over, waits while
// that create may still be answered, and otherwise reports the error with
// the import advice.
func (c *userCreate) exists(ctx context.Context, createErr error) *identityclient.User {
	var u *identityclient.User
	var readErr error
	err := awaitRecords(ctx, 0, "The user carries the record of a create whose answer may still arrive: waiting for it before deciding whose the user is",
		map[string]any{"user_name": c.in.UserName},
		func() (until, now time.Time, err error) {
			u, until, now, readErr = c.readRecord(ctx)
			return until, now, readErr
		})
	switch {
	case readErr != nil:
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q already exists, and reading it to tell whether an interrupted create made it failed, so nothing was adopted. Apply again.\n\n%s",
			c.in.UserName, errors.Join(createErr, readErr)))
		return nil
	case err != nil:
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q already exists and carries the record of a create whose answer may still arrive; the wait for it was interrupted, so nothing was adopted. Apply again.\n\n%s",
			c.in.UserName, errors.Join(createErr, err)))
		return nil
	case u.UserName != c.in.UserName:
		c.existsError(createErr, fmt.Sprintf(" The user that exists is spelled %q.", u.UserName))
		return nil
	}
	if _, _, ok := userCreateRecord(u); !ok {
		c.existsError(createErr, "")
		return nil
	}
	return c.adopt(ctx, u, createErr)
}

// readRecord reads the user of the name and until when (by the service's
// clock, now) the create it records may still be answered: zero when it
// can no longer, or the user carries no record or is spelled otherwise.
func (c *userCreate) readRecord(ctx context.Context) (u *identityclient.User, until, now time.Time, err error) {
	u, err = c.idc.GetUser(ctx, c.in.UserName)
	if err != nil || u.UserName != c.in.UserName {
		return u, until, now, err
	}
	tags, err := c.idc.ListUserTags(ctx, c.in.UserName)
	if err != nil {
		return u, until, now, err
	}
	now = serverNow(tags)
	_, until, ok := userCreateRecord(u)
	if !ok || !now.Before(until.Add(clockMargin)) {
		return u, time.Time{}, now, nil
	}
	return u, until, now, nil
}

// adopt takes over user u, made by an interrupted create, once it won the
// user against other runs adopting it at the same time (contend.go), and
// clears the record.
func (c *userCreate) adopt(ctx context.Context, u *identityclient.User, createErr error) *identityclient.User {
	if u.Path != c.in.Path {
		// Adopting it as it is would give the state other values than the
		// plan's, which Terraform refuses; the record stays for the next try.
		c.diags.AddAttributeError(path.Root("path"), createUserSummary,
			fmt.Sprintf("User %q (id %s) with path %q was created at %s by a create that was interrupted before Terraform recorded it, but the configuration asks for path %q. "+
				"Set path to the user's and apply (the provider adopts the user), then change it (the plan replaces the user); or delete the user and apply.\n\n%s",
				u.UserName, u.UserID, u.Path, u.CreateDate.UTC().Format(time.RFC3339), c.in.Path, createErr))
		return nil
	}
	mine, again, err := c.claimUser(ctx, u)
	switch {
	case err != nil:
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q was made by an interrupted create, and taking it over failed, so nothing was adopted. Apply again.\n\n%s",
			u.UserName, errors.Join(createErr, err)))
		return nil
	case again == nil:
		c.existsError(createErr, " Another run is adopting the user, made by an interrupted create, at the same time; if that run was interrupted too, apply again in a few minutes.")
		return nil
	}
	tflog.Warn(ctx, "Adopting the user an interrupted create left behind, instead of failing", map[string]any{"user_name": u.UserName, "user_id": u.UserID})
	c.clearRecord(ctx, again, mine)
	c.diags.AddWarning("Identity User Adopted",
		fmt.Sprintf("User %q (id %s) was created at %s by a create that was interrupted before Terraform recorded the user, and no configuration held it. The provider adopted it into the state instead of failing with EntityAlreadyExists; nothing else was created.",
			u.UserName, u.UserID, u.CreateDate.UTC().Format(time.RFC3339)))
	return again
}

// claimUser wins user u against other runs adopting it (contend.go) and
// reads it again. It returns this run's claim and the user, or a nil user
// when another run won it or it is no longer the one the record is on; a
// claim that does not lead to an adoption is removed.
func (c *userCreate) claimUser(ctx context.Context, u *identityclient.User) (mine string, again *identityclient.User, err error) {
	record, _, _ := userCreateRecord(u)
	won, err := contest{idc: c.idc, user: u.UserName, nonce: c.nonce,
		mine: func(now time.Time) identityclient.Tag {
			t := adoptingTag(c.nonce, record, now.Add(contendSettle+c.window))
			mine = t.Key
			return t
		},
		rivals: func(tags *identityclient.UserTags) ([]string, bool) { return userAdopters(tags, record, c.nonce) },
	}.contend(ctx)
	if err == nil && won {
		again, err = c.idc.GetUser(ctx, u.UserName)
	}
	if err == nil && won && again.UserID == u.UserID {
		return mine, again, nil
	}
	if won {
		untagLogged(ctx, c.idc, u.UserName, "Could not remove a claim from the user", mine)
	}
	return "", nil, err
}

func (c *userCreate) existsError(err error, why string) {
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary,
		fmt.Sprintf("A user named %q already exists (names are unique regardless of case).%s Choose another user_name, or bring the existing user under Terraform with: terraform import <address> %s\n\n%s",
			c.in.UserName, why, c.in.UserName, err))
}

// findUserAfterLostCreate reads the user a CreateUser with a lost answer may
// have created. The service may still be applying the request, so a user
// that is not there yet is looked for again for up to window.
func findUserAfterLostCreate(ctx context.Context, c *identityclient.Client, in identityclient.CreateUserInput, createErr error, window time.Duration) (*identityclient.User, error) {
	var u *identityclient.User
	found, err := untilSeen(ctx, window, lostAnswerPoll, func() (bool, error) {
		got, err := c.GetUser(ctx, in.UserName)
		if errors.Is(err, client.ErrNotFound) {
			return false, nil
		}
		u = got
		return err == nil, err
	})
	switch {
	case found:
		return u, nil
	case err == nil:
		return nil, fmt.Errorf("%w; no user %q appeared within %s, so most likely nothing was created: apply again", createErr, in.UserName, window)
	}
	return nil, fmt.Errorf("%w; reading the user to learn the outcome also failed (%w): apply again (if the user was created, it carries the record of this create, and the next apply adopts it)", createErr, err)
}
