package models

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

var _ ephemeral.EphemeralResourceWithConfigure = (*converseEphemeralResource)(nil)

// NewConverseEphemeralResource is the factory of the ephemeral
// cloud_models_converse, the twin of the data source that may take an
// ephemeral key (a data source may not).
func NewConverseEphemeralResource() ephemeral.EphemeralResource { return &converseEphemeralResource{} }

type converseEphemeralResource struct {
	clients *conns.Clients
}

func (e *converseEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_models_converse"
}

func (e *converseEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	attrs := converseSchema(
		func(a converseAttribute) schema.Attribute {
			return schema.StringAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, Sensitive: a.sensitive, MarkdownDescription: a.desc, Validators: a.validators}
		},
		func(a converseAttribute) schema.Attribute {
			return schema.Int64Attribute{Computed: a.computed, MarkdownDescription: a.desc}
		})
	resp.Schema = schema.Schema{
		MarkdownDescription: "Calls the model runtime once (Converse) with an API key, such as a short-term key from `cloud_models_short_term_api_key`, and returns the answer without writing anything to state. " +
			"**It costs a model call on every plan and apply.** A refusal fails the run with the runtime's own words, such as `Credential should be scoped to a valid region`. " +
			"The data source of the same name does the same for keys that are not ephemeral, in `check` blocks.",
		Attributes: attrs,
	}
}

func (e *converseEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (e *converseEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	resp.Diagnostics.Append(converseInto(ctx, e.clients, req.Config, &resp.Result)...)
}
