package identity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

var (
	_ resource.ResourceWithConfigure   = (*userResource)(nil)
	_ resource.ResourceWithImportState = (*userResource)(nil)
	_ resource.ResourceWithIdentity    = (*userResource)(nil)
)

// NewUserResource is the factory of cloud_identity_user.
func NewUserResource() resource.Resource { return &userResource{} }

type userResource struct {
	clients *conns.Clients
}

type userModel struct {
	ID           types.String `tfsdk:"id"`
	UserName     types.String `tfsdk:"user_name"`
	Path         types.String `tfsdk:"path"`
	Arn          types.String `tfsdk:"arn"`
	UserID       types.String `tfsdk:"user_id"`
	CreateDate   types.String `tfsdk:"create_date"`
	ForceDestroy types.Bool   `tfsdk:"force_destroy"`
}

func (r *userResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_identity_user"
	resp.ResourceBehavior = resourceidentity.Behavior
}

func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An identity-service user. A long-term API key of the model runtime service belongs to a user, and takes its permissions from the policies attached to it.",
		Attributes: map[string]schema.Attribute{
			"id":        computedString("The user name."),
			"user_name": userNameAttribute("Name of the user: 1 to 64 letters, digits and `+=,.@_-`, unique in the account regardless of case. Changing it replaces the user."),
			"path": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("/"),
				MarkdownDescription: "Path of the user: `/`, or 1 to 512 printable ASCII characters that begin and end with `/`. Defaults to `/`. Changing it replaces the user.",
				Validators:          validators.StringRule(rules.UserPath),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"arn":         computedString("ARN of the user, `arn:cloud:identity::<account>:user<path><name>`."),
			"user_id":     computedString("Stable unique id the service gives the user."),
			"create_date": computedString("When the user was created (RFC 3339)."),
			"force_destroy": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "When `true`, destroying the user first detaches its policies and deletes its service-specific credentials (API keys), including ones Terraform does not manage. When `false` (the default) the service refuses to delete a user that still has any.",
			},
		},
	}
}

// IdentitySchema: a user is named by its name in its account.
func (r *userResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = userIdentityType.Schema()
}

func (r *userResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

// Create creates the user, or adopts the user an interrupted create of an
// earlier run made (user_create.go, internal/recovery).
func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan userModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := identityclient.CreateUserInput{UserName: plan.UserName.ValueString(), Path: plan.Path.ValueString()}
	u := createUser(ctx, r.clients, in, &resp.Diagnostics)
	r.clients.Listings.Forget(in.UserName) // its tags, and an adopted user's keys
	if u == nil {
		return
	}
	flattenUser(u, &plan)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(userIdentityType.Write(ctx, r.clients, nil, userIdentity(u), fmt.Sprintf("user %q", u.UserName), resp.Identity)...)
}

func (r *userResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state userModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	what := fmt.Sprintf("user %q", state.UserName.ValueString())
	prior := userIdentityType.CheckRefresh(ctx, r.clients, req.Identity, what, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	u, err := r.clients.Identity.GetUser(ctx, state.UserName.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "Identity user is gone, removing it from state", map[string]any{"user_name": state.UserName.ValueString()})
		resp.State.RemoveResource(ctx)
		resp.Diagnostics.Append(resourceidentity.Gone(ctx, resp.Identity, userIdentity(&identityclient.User{UserName: state.UserName.ValueString(), Arn: state.Arn.ValueString()}))...)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Identity User",
			fmt.Sprintf("Reading user %q failed: %s", state.UserName.ValueString(), err))
		return
	}
	flattenUser(u, &state)
	if state.ForceDestroy.IsNull() {
		state.ForceDestroy = types.BoolValue(false) // after import
	}
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &state)...)
	resp.Diagnostics.Append(userIdentityType.WriteRefresh(ctx, r.clients, prior, userIdentity(u), what, resp.Identity)...)
}

// Update changes only force_destroy, which lives in state alone; every
// other argument replaces the user.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state userModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	what := fmt.Sprintf("user %q", state.UserName.ValueString())
	prior := userIdentityType.CheckPrior(ctx, r.clients, req.Identity, what, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(userIdentityType.Write(ctx, r.clients, prior, userIdentity(&identityclient.User{UserName: state.UserName.ValueString(), Arn: state.Arn.ValueString()}), what, resp.Identity)...)
}

func (r *userResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state userModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := state.UserName.ValueString()
	if userIdentityType.CheckPrior(ctx, r.clients, req.Identity, fmt.Sprintf("user %q", name), &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	defer r.clients.Listings.Forget(name) // its keys and tags go with it
	if state.ForceDestroy.ValueBool() {
		if err := emptyUser(ctx, r.clients.Identity, name); err != nil {
			resp.Diagnostics.AddError("Unable to Delete Identity User",
				fmt.Sprintf("force_destroy is set, but removing what user %q holds failed: %s", name, err))
			return
		}
	}
	err := r.clients.Identity.DeleteUser(ctx, name)
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		diagnostics.AddIdentityError(&resp.Diagnostics, "Unable to Delete Identity User", diagnostics.UserDelete, err, "user", strconv.Quote(name))
	}
}

// ImportState takes the user's name, or an identity (user_name, and
// account_id when it is the provider's account); the refresh that follows
// reads the rest and sets the identity.
func (r *userResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if name == "" {
		id, ok := userIdentityType.Import(ctx, r.clients, req.Identity, func(id resourceidentity.Identity) string {
			return fmt.Sprintf("user %q", id.Attrs["user_name"])
		}, &resp.Diagnostics)
		if !ok {
			return
		}
		name = id.Attrs["user_name"]
		resp.Diagnostics.Append(resourceidentity.Set(ctx, resp.Identity, id)...)
	}
	if !validUserName(name) {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Import a user by its name (1 to 64 letters, digits and +=,.@_-); got %q.", name))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("user_name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("force_destroy"), false)...)
}

func flattenUser(u *identityclient.User, m *userModel) {
	m.ID = types.StringValue(u.UserName)
	m.UserName = types.StringValue(u.UserName)
	m.Path = types.StringValue(u.Path)
	m.Arn = types.StringValue(u.Arn)
	m.UserID = types.StringValue(u.UserID)
	m.CreateDate = types.StringValue(u.CreateDate.UTC().Format(time.RFC3339))
}
