package models

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*converseDataSource)(nil)

// NewConverseDataSource is the factory of cloud_models_converse.
func NewConverseDataSource() datasource.DataSource { return &converseDataSource{} }

type converseDataSource struct {
	clients *conns.Clients
}

func (d *converseDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_models_converse"
}

func (d *converseDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Calls the model runtime once (Converse) with an API key and returns the answer: a smoke test that a key works in a region. " +
			"**It costs a model call on every plan and refresh**, so put it in a `check` block, where a refusal is a warning rather than a failed run. " +
			"A refusal reports the runtime's own words, such as `Credential should be scoped to a valid region`. " +
			"Terraform does not let a data source take an ephemeral value: to try a short-term key, use the ephemeral resource of the same name.",
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

func (d *converseDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (d *converseDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m converseModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(converse(ctx, d.clients, &m, "Call Model Runtime")...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func modelIDValidators() []validator.String {
	return []validator.String{
		stringvalidator.LengthBetween(1, maxModelIDLen),
		stringvalidator.RegexMatches(modelIDRe, "must be letters, digits and ._:/+-"),
	}
}

func regionValidators() []validator.String {
	return []validator.String{
		validators.Region(),
		stringvalidator.ConflictsWith(path.MatchRoot("runtime_url")),
	}
}
