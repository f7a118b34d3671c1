package models

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
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
	attrs := converseSchema(
		func(a converseAttribute) schema.Attribute {
			return schema.StringAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, Sensitive: a.sensitive, MarkdownDescription: a.desc, Validators: a.validators}
		},
		func(a converseAttribute) schema.Attribute {
			return schema.Int64Attribute{Computed: a.computed, MarkdownDescription: a.desc}
		})
	resp.Schema = schema.Schema{
		MarkdownDescription: "Calls the model runtime once (Converse) with an API key and returns the answer: a smoke test that a key works in a region. " +
			"**It costs a model call on every plan and refresh**, so put it in a `check` block, where a refusal is a warning rather than a failed run. " +
			"A refusal reports the runtime's own words, such as `Credential should be scoped to a valid region`. " +
			"Terraform does not let a data source take an ephemeral value: to try a short-term key, use the ephemeral resource of the same name.",
		Attributes: attrs,
	}
}

func (d *converseDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (d *converseDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	resp.Diagnostics.Append(converseInto(ctx, d.clients, req.Config, &resp.State)...)
}
