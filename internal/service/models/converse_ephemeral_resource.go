package models

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

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
	resp.Schema = schema.Schema{
		MarkdownDescription: "Calls the model runtime once (Converse) with an API key, such as a short-term key from `cloud_models_short_term_api_key`, and returns the answer without writing anything to state. " +
			"**It costs a model call on every plan and apply.** A refusal fails the run with the runtime's own words, such as `Credential should be scoped to a valid region`. " +
			"The data source of the same name does the same for keys that are not ephemeral, in `check` blocks.",
		Attributes: map[string]schema.Attribute{
			"model_id": schema.StringAttribute{Required: true, MarkdownDescription: descModelID, Validators: modelIDValidators()},
			"prompt":   schema.StringAttribute{Required: true, MarkdownDescription: descPrompt, Validators: []validator.String{stringvalidator.LengthBetween(1, maxPromptLen)}},
			"api_key": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: descAPIKey,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"region": schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: descRegion, Validators: regionValidators()},
			"runtime_url": schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: descRuntimeURL,
				Validators: []validator.String{runtimeURL}},
			"text":          schema.StringAttribute{Computed: true, MarkdownDescription: descText},
			"stop_reason":   schema.StringAttribute{Computed: true, MarkdownDescription: descStop},
			"input_tokens":  schema.Int64Attribute{Computed: true, MarkdownDescription: descIn},
			"output_tokens": schema.Int64Attribute{Computed: true, MarkdownDescription: descOut},
			"total_tokens":  schema.Int64Attribute{Computed: true, MarkdownDescription: descTotal},
		},
	}
}

func (e *converseEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (e *converseEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m converseModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(converse(ctx, e.clients, &m, "Call Model Runtime")...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}
