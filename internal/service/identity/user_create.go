package identity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// createUser runs the create of user in through the create-recovery
// protocol (internal/recovery), writes what it says as diagnostics, and
// returns the user the resource now holds, or nil.
func createUser(ctx context.Context, clients *conns.Clients, in identityclient.CreateUserInput, diags *diag.Diagnostics) *identityclient.User {
	cfg := clientConfig(clients)
	out := recovery.CreateUser(ctx, recovery.User{Client: clients.Identity, Input: in,
		Window: recovery.CreateWindow(cfg), LateWindow: recovery.LateWindow(cfg), Made: clients.CreatedUsers})
	diagnostics.AddUserCreateOutcome(in, out, diags)
	return out.User()
}
