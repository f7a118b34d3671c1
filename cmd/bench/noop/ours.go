package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/identity"
)

// The floor with our schemas: noop_identity_user,
// noop_identity_user_policy_attachment and
// noop_identity_service_specific_credential have our resources' schemas
// (their attributes, with our validators, plan modifiers and custom
// types) and make only the one call of their kind each operation needs,
// as noop_thing with kind does. What the framework costs for our
// attributes is in the floor; what our resources do beyond that call
// (ModifyPlan, private state, identity, the model's conversions) is not.
func ourSchemaResources() []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &ourSchema{of: identity.NewUserResource, kind: "user"} },
		func() resource.Resource {
			return &ourSchema{of: identity.NewUserPolicyAttachmentResource, kind: "attachment"}
		},
		func() resource.Resource {
			return &ourSchema{of: identity.NewServiceSpecificCredentialResource, kind: "key", idAttr: "service_specific_credential_id"}
		},
	}
}

// ourSchema is one of our resource types' schema over a kind's calls.
type ourSchema struct {
	of   func() resource.Resource
	kind string
	// idAttr holds the id Create returns, which Read and Delete get back;
	// empty when that id is the user's name.
	idAttr   string
	identity *identityclient.Client
}

var _ resource.ResourceWithConfigure = (*ourSchema)(nil)

func (r *ourSchema) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.of().Metadata(ctx, req, resp)
}

func (r *ourSchema) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.of().Schema(ctx, req, resp)
}

func (r *ourSchema) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.identity, _ = req.ProviderData.(*identityclient.Client)
}

func (r *ourSchema) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	user, _, diags := r.object(ctx, req.Plan, false)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	id, err := kinds[r.kind].create(ctx, r.identity, user)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create a No-op Thing", err.Error())
		return
	}
	state, err := known(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create a No-op Thing", err.Error())
		return
	}
	resp.State.Raw = state
	if r.idAttr != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.idAttr), id)...)
	}
}

// known is v with each unknown value known: a string "floor", false, 0,
// and null for the rest (collections and objects), as a create answers
// what the plan left unknown.
func known(v tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		switch t := v.Type(); {
		case t.Is(tftypes.String):
			return tftypes.NewValue(t, "floor"), nil
		case t.Is(tftypes.Bool):
			return tftypes.NewValue(t, false), nil
		case t.Is(tftypes.Number):
			return tftypes.NewValue(t, 0), nil
		default:
			return tftypes.NewValue(t, nil), nil
		}
	})
}

// attributeGetter is a state or a plan.
type attributeGetter interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

// object is the user's name that s holds, and with withID the object's
// id; an error when there is no client to call.
func (r *ourSchema) object(ctx context.Context, s attributeGetter, withID bool) (user, id string, diags diag.Diagnostics) {
	diags.Append(s.GetAttribute(ctx, path.Root("user_name"), &user)...)
	if withID && r.idAttr != "" {
		diags.Append(s.GetAttribute(ctx, path.Root(r.idAttr), &id)...)
	}
	if r.identity == nil {
		diags.AddError("No Identity Client", "our schemas' resources need the provider's identity_endpoint")
	}
	return user, id, diags
}

func (r *ourSchema) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	user, id, diags := r.object(ctx, req.State, true)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	if err := kinds[r.kind].read(ctx, r.identity, user, id); err != nil {
		resp.Diagnostics.AddError("Unable to Read a No-op Thing", err.Error())
	}
}

func (*ourSchema) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (r *ourSchema) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	user, id, diags := r.object(ctx, req.State, true)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	if err := kinds[r.kind].remove(ctx, r.identity, user, id); err != nil {
		resp.Diagnostics.AddError("Unable to Delete a No-op Thing", err.Error())
	}
}
