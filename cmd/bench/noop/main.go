// Command noop is a provider that does nothing, for the benchmark: one
// resource type, noop_thing, whose operations make no API call. Its plans
// are the floor of a provider served by terraform-plugin-framework as a
// process of its own, next to terraform_data, which Terraform serves itself.
package main

import (
	"context"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func main() {
	// As quiet as terraform-provider-cloud when no log is asked for.
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_NOOP"} {
		if err := os.Setenv(name, "OFF"); err != nil {
			log.Fatal(err)
		}
	}
	err := providerserver.Serve(context.Background(), func() provider.Provider { return noop{} }, providerserver.ServeOpts{
		Address: "registry.terraform.io/cloudlabs/noop", ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

type noop struct{}

func (noop) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "noop"
}

func (noop) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (noop) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

func (noop) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return thing{} }}
}

func (noop) DataSources(context.Context) []func() datasource.DataSource { return nil }

var _ provider.Provider = noop{}

// thing copies input to id.
type thing struct{}

type thingModel struct {
	ID    types.String `tfsdk:"id"`
	Input types.String `tfsdk:"input"`
}

func (thing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "noop_thing"
}

func (thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"input": schema.StringAttribute{Required: true},
	}}
}

func (thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (thing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}

func (thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
