package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

var _ ephemeral.EphemeralResourceWithConfigure = (*shortTermAPIKeyEphemeralResource)(nil)

const defaultExpiresIn = "12h"

// NewShortTermAPIKeyEphemeralResource is the factory of
// cloud_models_short_term_api_key.
func NewShortTermAPIKeyEphemeralResource() ephemeral.EphemeralResource {
	return &shortTermAPIKeyEphemeralResource{}
}

type shortTermAPIKeyEphemeralResource struct {
	clients *conns.Clients
}

type shortTermAPIKeyModel struct {
	Region    types.String `tfsdk:"region"`
	ExpiresIn types.String `tfsdk:"expires_in"`
	Token     types.String `tfsdk:"token"`
	ExpiresAt types.String `tfsdk:"expires_at"`
}

func (e *shortTermAPIKeyEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_models_short_term_api_key"
}

func (e *shortTermAPIKeyEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A short-term API key of the model runtime service, generated locally from the provider's credentials (a SigV4 presigned request; nothing is sent) and never written to plan or state. " +
			"Its permissions are those of the provider's principal; it works in the region it was generated for, for at most 12 hours and never past the provider credentials' own expiry. " +
			"Within one Terraform run the same inputs return the same key while it is valid, as the service's token generators do. " +
			"Pass `token` to a write-only argument, a provider configuration or another ephemeral resource.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Region the key is generated for. Defaults to the provider's region.",
				Validators:          []validator.String{validators.Region()},
			},
			"expires_in": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Lifetime of the key as a duration such as `1h` or `90m`, from `1m` to `12h`. Defaults to `12h`. The key expires earlier when the provider's credentials do.",
				Validators:          []validator.String{keyLifetime},
			},
			"token": schema.StringAttribute{
				Computed:            true,
				Sensitive:           true,
				MarkdownDescription: "The key, sent as `Authorization: Bearer <token>` (or through `CLOUD_BEARER_TOKEN_MODELS`). It starts with `models-api-key-`.",
			},
			"expires_at": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the key stops working (RFC 3339).",
			},
		},
	}
}

func (e *shortTermAPIKeyEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (e *shortTermAPIKeyEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m shortTermAPIKeyModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Region.ValueString() == "" {
		m.Region = types.StringValue(e.clients.Region)
	}
	if m.ExpiresIn.ValueString() == "" {
		m.ExpiresIn = types.StringValue(defaultExpiresIn)
	}
	d, err := time.ParseDuration(m.ExpiresIn.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("expires_in"), "Invalid Duration",
			fmt.Sprintf("expires_in %q is not a duration. Use a value such as 1h. Error: %s", m.ExpiresIn.ValueString(), err))
		return
	}
	// The credentials of now, not of Configure: a role session is renewed
	// before it ends, so a key opened late in a long run gets a session's
	// full time rather than what is left of the first one.
	creds, err := e.clients.Config.RetrieveCredentials(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Generate Short-Term API Key",
			client.Redact("The provider could not renew its credentials (the role session) to sign a short-term API key. Error: "+err.Error()))
		return
	}
	in := modelsclient.TokenRequest{
		Host:        tokenHost(e.clients, m.Region.ValueString()),
		Region:      m.Region.ValueString(),
		Credentials: creds,
		ExpiresIn:   d,
	}
	tok, err := e.clients.Tokens.Get(ctx, in)
	if err != nil {
		detail := "The provider could not sign a short-term API key with its credentials. Check the provider's access_key and secret_key."
		if errors.Is(err, modelsclient.ErrCredentialsExpired) {
			detail = "The provider's credentials have expired, so no key can outlive them. Refresh the session and run again."
		}
		resp.Diagnostics.AddError("Unable to Generate Short-Term API Key", detail+" Error: "+err.Error())
		return
	}
	m.Token = types.StringValue(tok.Value)
	m.ExpiresAt = types.StringValue(tok.ExpiresAt.UTC().Format(time.RFC3339))
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.Result, &m)...)
}
