package identity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

const createSummary = diagnostics.KeyCreateSummary

// clientConfig is the client settings in force.
func clientConfig(c *conns.Clients) client.Config {
	return c.Config.WithDefaults()
}

// createKey runs the create of key in through the create-recovery
// protocol (internal/recovery), writes what it says as diagnostics, and
// returns the key the resource now holds, with its value, or nil.
func createKey(ctx context.Context, clients *conns.Clients, in identityclient.CreateServiceSpecificCredentialInput, want recovery.WantKey, diags *diag.Diagnostics) *identityclient.ServiceSpecificCredential {
	out := recovery.CreateKey(ctx, recovery.Key{Client: clients.Identity, Input: in, Want: want,
		Window: recovery.CreateWindow(clientConfig(clients)), Made: clients.CreatedUsers, Ours: clients.CreatedKeys})
	diagnostics.AddKeyCreateOutcome(in, out, diags)
	return out.Key()
}
