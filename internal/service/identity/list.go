package identity

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/fanout"
	"github.com/cloudlabs/terraform-provider-cloud/internal/listing"
)

// eachListedUser reads what each user a list covers holds (fetch):
// userName, or without it every user of the account. The reads run side
// by side, at most the provider's list_concurrency at once, and emit gets
// their answers in name order, the order of a walk one user after another,
// until it returns false. A user gone while listing (fetch's ErrNotFound)
// has nothing, and a userName that names no user is a warning; any other
// error of fetch or of ListUsers is pushed as the list's error, under
// summary, and ends it.
func eachListedUser[R any](ctx context.Context, c *conns.Clients, userName, summary string, push func(list.ListResult) bool, fetch func(ctx context.Context, user string) (R, error), emit func(user string, held R) bool) {
	users := func(ctx context.Context, yield func(string) bool) error {
		if userName != "" {
			yield(userName)
			return nil
		}
		return eachUser(ctx, c, "", 0, func(u *identityclient.User) bool { return yield(u.UserName) })
	}
	for a := range fanout.Ordered(ctx, c.ListConcurrency, users, fetch) {
		switch {
		case a.WalkErr != nil:
			push(listing.Error(summary, fmt.Sprintf("ListUsers failed: %s", a.WalkErr)))
			return
		case errors.Is(a.Err, client.ErrNotFound) && a.Item == userName:
			push(listing.Warning(path.Root("user_name"), "Identity User Not Found",
				fmt.Sprintf("No user named %q exists in the account, so this list has nothing for it. Check user_name (user names are unique regardless of case).", userName)))
			return
		case errors.Is(a.Err, client.ErrNotFound):
			continue // the user went away while listing
		case a.Err != nil:
			push(listing.Error(summary, fmt.Sprintf("Listing what user %q holds failed: %s", a.Item, a.Err)))
			return
		}
		if !emit(a.Item, a.Value) {
			return
		}
	}
}

// eachUser calls fn with each user whose path begins with prefix, in name
// order, a page of ListUsers at a time, until fn returns false or limit
// users (0: no limit) have been seen; pages are no larger than what is left
// of the limit.
func eachUser(ctx context.Context, c *conns.Clients, prefix string, limit int64, fn func(*identityclient.User) bool) error {
	in := identityclient.ListUsersInput{PathPrefix: prefix, MaxItems: userPageSize}
	var seen int64
	for {
		if limit > 0 {
			in.MaxItems = int(min(userPageSize, limit-seen))
		}
		page, err := c.Identity.ListUsers(ctx, in)
		if err != nil {
			return err
		}
		for i := range page.Users {
			seen++
			if !fn(&page.Users[i]) || (limit > 0 && seen >= limit) {
				return nil
			}
		}
		if page.NextMarker == "" {
			return nil
		}
		in.Marker = page.NextMarker
	}
}
