// Command noop is a provider that does nothing, for the benchmark: one
// resource type, noop_thing, whose operations make no API call, unless a
// resource names one in `call`. Its plans are the floor of a provider
// served by terraform-plugin-framework as a process of its own, next to
// terraform_data, which Terraform serves itself; with `call`, the floor of
// a provider that makes the same API calls as ours and nothing else.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
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

// noopModel is where the identity service is, for resources that call it.
type noopModel struct {
	Endpoint  types.String `tfsdk:"identity_endpoint"`
	Region    types.String `tfsdk:"region"`
	AccessKey types.String `tfsdk:"access_key"`
	SecretKey types.String `tfsdk:"secret_key"`
}

func (noop) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "noop"
}

func (noop) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"identity_endpoint": pschema.StringAttribute{Optional: true},
		"region":            pschema.StringAttribute{Optional: true},
		"access_key":        pschema.StringAttribute{Optional: true},
		"secret_key":        pschema.StringAttribute{Optional: true, Sensitive: true},
	}}
}

// Configure makes the identity client when an endpoint is set.
func (noop) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m noopModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Endpoint.ValueString() == "" {
		return
	}
	c, err := identityclient.New(client.Config{
		Region:      m.Region.ValueString(),
		Credentials: client.Credentials{AccessKeyID: m.AccessKey.ValueString(), SecretAccessKey: m.SecretKey.ValueString()},
	}, m.Endpoint.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Unable to Configure the No-op Provider", err.Error())
		return
	}
	resp.ResourceData = c
}

func (noop) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thing{} }}
}

func (noop) DataSources(context.Context) []func() datasource.DataSource { return nil }

var _ provider.Provider = noop{}

// thing copies input to id. When call names an identity action, each
// Read makes that call for the user named input, as our resources' reads
// do, and nothing else.
type thing struct{ identity *identityclient.Client }

var _ resource.ResourceWithConfigure = (*thing)(nil)

type thingModel struct {
	ID    types.String `tfsdk:"id"`
	Input types.String `tfsdk:"input"`
	Call  types.String `tfsdk:"call"`
}

func (*thing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "noop_thing"
}

func (*thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"input": schema.StringAttribute{Required: true},
		"call":  schema.StringAttribute{Optional: true},
	}}
}

func (t *thing) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	t.identity, _ = req.ProviderData.(*identityclient.Client)
}

func (*thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (t *thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if err := t.call(ctx, m.Call.ValueString(), m.Input.ValueString()); err != nil {
		resp.Diagnostics.AddError("Unable to Read a No-op Thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// call makes the identity call named action for user, as our user,
// attachment and key resources do in Read; no action, no call.
func (t *thing) call(ctx context.Context, action, user string) error {
	if action != "" && t.identity == nil {
		return fmt.Errorf("call %q needs the provider's identity_endpoint", action)
	}
	var err error
	switch action {
	case "":
	case "GetUser":
		_, err = t.identity.GetUser(ctx, user)
	case "ListAttachedUserPolicies":
		_, err = t.identity.ListAttachedUserPolicies(ctx, user)
	case "ListServiceSpecificCredentials":
		_, err = t.identity.ListServiceSpecificCredentials(ctx, user, "models.cloud.example")
	default:
		err = fmt.Errorf("unknown call %q", action)
	}
	return err
}

func (*thing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}

func (*thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
