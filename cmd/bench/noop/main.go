// Command noop is a provider that does nothing, for the benchmark: one
// resource type, noop_thing, whose operations make no API call, unless a
// resource names one in `call` or `kind`. Its plans are the floor of a
// provider served by terraform-plugin-framework as a process of its own,
// next to terraform_data, which Terraform serves itself; with `call`, the
// floor of a provider whose refresh makes the same API calls as ours and
// nothing else; with `kind`, the floor of a provider whose create, refresh
// and destroy make only the calls each operation needs; and with our
// resources' schemas (ours.go), the floor of those calls in resources
// with our attributes.
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
	return append([]func() resource.Resource{func() resource.Resource { return &thing{} }}, ourSchemaResources()...)
}

func (noop) DataSources(context.Context) []func() datasource.DataSource { return nil }

var _ provider.Provider = noop{}

// thing copies input to id. When call names an identity action, each
// Read makes that call for the user named input, as our resources' reads
// do, and nothing else. When kind names an identity object (see kinds),
// the thing is that object of the user named input: Create makes it,
// Read reads it and Delete deletes it, one call each.
type thing struct{ identity *identityclient.Client }

var _ resource.ResourceWithConfigure = (*thing)(nil)

type thingModel struct {
	ID    types.String `tfsdk:"id"`
	Input types.String `tfsdk:"input"`
	Call  types.String `tfsdk:"call"`
	Kind  types.String `tfsdk:"kind"`
}

// The policy and the service of a key bundle's attachment and key, as in
// the bench's configuration of ours.
const (
	bundlePolicy  = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
	bundleService = "models.cloud.example"
	bundleKeyAge  = 90
)

// kind is one identity object's calls: the one call each operation needs.
// create returns the object's id (the key's credential id, else the user
// name); read and remove get it back.
type kind struct {
	create func(ctx context.Context, c *identityclient.Client, user string) (string, error)
	read   func(ctx context.Context, c *identityclient.Client, user, id string) error
	remove func(ctx context.Context, c *identityclient.Client, user, id string) error
}

// kinds are the three objects of a key bundle: a user, its policy
// attachment and its key.
var kinds = map[string]kind{
	"user": {
		create: func(ctx context.Context, c *identityclient.Client, user string) (string, error) {
			_, err := c.CreateUser(ctx, identityclient.CreateUserInput{UserName: user})
			return user, err
		},
		read: func(ctx context.Context, c *identityclient.Client, user, _ string) error {
			_, err := c.GetUser(ctx, user)
			return err
		},
		remove: func(ctx context.Context, c *identityclient.Client, user, _ string) error {
			return c.DeleteUser(ctx, user)
		},
	},
	"attachment": {
		create: func(ctx context.Context, c *identityclient.Client, user string) (string, error) {
			return user, c.AttachUserPolicy(ctx, user, bundlePolicy)
		},
		read: func(ctx context.Context, c *identityclient.Client, user, _ string) error {
			_, err := c.ListAttachedUserPolicies(ctx, user)
			return err
		},
		remove: func(ctx context.Context, c *identityclient.Client, user, _ string) error {
			return c.DetachUserPolicy(ctx, user, bundlePolicy)
		},
	},
	"key": {
		create: func(ctx context.Context, c *identityclient.Client, user string) (string, error) {
			k, err := c.CreateServiceSpecificCredential(ctx, identityclient.CreateServiceSpecificCredentialInput{
				UserName: user, ServiceName: bundleService, CredentialAgeDays: bundleKeyAge,
			})
			if err != nil {
				return "", err
			}
			return k.ServiceSpecificCredentialID, nil
		},
		read: func(ctx context.Context, c *identityclient.Client, user, _ string) error {
			_, err := c.ListServiceSpecificCredentials(ctx, user, bundleService)
			return err
		},
		remove: func(ctx context.Context, c *identityclient.Client, user, id string) error {
			return c.DeleteServiceSpecificCredential(ctx, user, id)
		},
	},
}

// kindOf is the calls of m's kind; ok is false when m has none.
func (t *thing) kindOf(m thingModel) (kind, bool, error) {
	if m.Kind.ValueString() == "" {
		return kind{}, false, nil
	}
	k, ok := kinds[m.Kind.ValueString()]
	switch {
	case !ok:
		return kind{}, false, fmt.Errorf("unknown kind %q (user, attachment, key)", m.Kind.ValueString())
	case t.identity == nil:
		return kind{}, false, fmt.Errorf("kind %q needs the provider's identity_endpoint", m.Kind.ValueString())
	}
	return k, true, nil
}

func (*thing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "noop_thing"
}

func (*thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"input": schema.StringAttribute{Required: true},
		"call":  schema.StringAttribute{Optional: true},
		"kind":  schema.StringAttribute{Optional: true},
	}}
}

func (t *thing) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	t.identity, _ = req.ProviderData.(*identityclient.Client)
}

func (t *thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Input
	k, ok, err := t.kindOf(m)
	if ok {
		var id string
		id, err = k.create(ctx, t.identity, m.Input.ValueString())
		m.ID = types.StringValue(id)
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create a No-op Thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (t *thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	k, ok, err := t.kindOf(m)
	switch {
	case ok:
		err = k.read(ctx, t.identity, m.Input.ValueString(), m.ID.ValueString())
	case err == nil:
		err = t.call(ctx, m.Call.ValueString(), m.Input.ValueString())
	}
	if err != nil {
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
		_, err = t.identity.ListServiceSpecificCredentials(ctx, user, bundleService)
	default:
		err = fmt.Errorf("unknown call %q", action)
	}
	return err
}

func (*thing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}

func (t *thing) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	k, ok, err := t.kindOf(m)
	if ok {
		err = k.remove(ctx, t.identity, m.Input.ValueString(), m.ID.ValueString())
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete a No-op Thing", err.Error())
	}
}
