package identity

import (
	"context"
	"errors"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// emptyUser detaches every policy of a user and deletes every credential it
// holds, so that DeleteUser can succeed (force_destroy).
func emptyUser(ctx context.Context, c *identityclient.Client, userName string) error {
	policies, err := c.ListAttachedUserPolicies(ctx, userName)
	if err != nil {
		return ignoreNotFound(err)
	}
	for _, p := range policies {
		if err := c.DetachUserPolicy(ctx, userName, p.PolicyArn); ignoreNotFound(err) != nil {
			return err
		}
	}
	creds, err := c.ListServiceSpecificCredentials(ctx, userName, "")
	if err != nil {
		return ignoreNotFound(err)
	}
	for _, k := range creds.Credentials {
		if err := c.DeleteServiceSpecificCredential(ctx, userName, k.ServiceSpecificCredentialID); ignoreNotFound(err) != nil {
			return err
		}
	}
	return nil
}

func ignoreNotFound(err error) error {
	if errors.Is(err, client.ErrNotFound) {
		return nil
	}
	return err
}
