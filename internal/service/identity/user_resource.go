package identity

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

var (
	_ resource.ResourceWithConfigure   = (*userResource)(nil)
	_ resource.ResourceWithImportState = (*userResource)(nil)
)

// The identity service's limits on user names and paths.
var (
	userNameRe = regexp.MustCompile(`^[\w+=,.@-]+$`)
	userPathRe = regexp.MustCompile(`^(/|/[\x21-\x7E]+/)$`)
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
}

// userNameValidators are the identity service's rules for a user name.
func userNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.LengthBetween(1, 64),
		stringvalidator.RegexMatches(userNameRe, "must contain only letters, digits and the characters +=,.@_-"),
	}
}

func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An identity-service user. A long-term API key of the model runtime service belongs to a user, and takes its permissions from the policies attached to it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The user name.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"user_name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the user: 1 to 64 letters, digits and `+=,.@_-`, unique in the account regardless of case. Changing it replaces the user.",
				Validators:          userNameValidators(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"path": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("/"),
				MarkdownDescription: "Path of the user: `/`, or 1 to 512 printable ASCII characters that begin and end with `/`. Defaults to `/`. Changing it replaces the user.",
				Validators: []validator.String{
					stringvalidator.LengthBetween(1, 512),
					stringvalidator.RegexMatches(userPathRe, "must be / or begin and end with / and hold only printable ASCII characters"),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"arn": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ARN of the user, `arn:cloud:identity::<account>:user<path><name>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"user_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Stable unique id the service gives the user.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"create_date": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the user was created (RFC 3339).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"force_destroy": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "When `true`, destroying the user first detaches its policies and deletes its service-specific credentials (API keys), including ones Terraform does not manage. When `false` (the default) the service refuses to delete a user that still has any.",
			},
		},
	}
}

func (r *userResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan userModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := identityclient.CreateUserInput{UserName: plan.UserName.ValueString(), Path: plan.Path.ValueString()}
	u, err := r.clients.Identity.CreateUser(ctx, in)
	if errors.Is(err, client.ErrOutcomeUnknown) {
		// The answer was lost; the user may exist now. Find out by reading.
		tflog.Warn(ctx, "CreateUser answer lost, reading the user to learn the outcome", map[string]any{"user_name": in.UserName})
		u, err = findUserAfterLostCreate(ctx, r.clients.Identity, in, err, lateWindow(r.clients))
	}
	if err != nil {
		summary, detail := "Unable to Create Identity User", fmt.Sprintf("Creating user %q failed: %s", in.UserName, err)
		if errors.Is(err, client.ErrAlreadyExists) {
			detail = fmt.Sprintf("A user named %q already exists (names are unique regardless of case). Choose another user_name, or bring the existing user under Terraform with: terraform import <address> %s\n\n%s", in.UserName, in.UserName, err)
		}
		resp.Diagnostics.AddAttributeError(path.Root("user_name"), summary, detail)
		return
	}
	flattenUser(u, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// findUserAfterLostCreate reads the user a CreateUser with a lost answer may
// have created. The service may still be applying the request, so a user
// that is not there yet is looked for again for up to window.
func findUserAfterLostCreate(ctx context.Context, c *identityclient.Client, in identityclient.CreateUserInput, createErr error, window time.Duration) (*identityclient.User, error) {
	var u *identityclient.User
	found, err := untilSeen(ctx, window, func() (bool, error) {
		got, err := c.GetUser(ctx, in.UserName)
		if errors.Is(err, client.ErrNotFound) {
			return false, nil
		}
		u = got
		return err == nil, err
	})
	switch {
	case found:
		return u, nil
	case err == nil:
		return nil, fmt.Errorf("%w; no user %q appeared within %s, so most likely nothing was created: apply again (if the user shows up later, the next apply says so and how to import it)", createErr, in.UserName, window)
	}
	return nil, fmt.Errorf("%w; reading the user to learn the outcome also failed (%w): run terraform import for %q if it exists, else apply again", createErr, err, in.UserName)
}

func (r *userResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state userModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	u, err := r.clients.Identity.GetUser(ctx, state.UserName.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "Identity user is gone, removing it from state", map[string]any{"user_name": state.UserName.ValueString()})
		resp.State.RemoveResource(ctx)
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
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update changes only force_destroy, which lives in state alone; every
// other argument replaces the user.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan userModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *userResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state userModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := state.UserName.ValueString()
	if state.ForceDestroy.ValueBool() {
		if err := emptyUser(ctx, r.clients.Identity, name); err != nil {
			resp.Diagnostics.AddError("Unable to Delete Identity User",
				fmt.Sprintf("force_destroy is set, but removing what user %q holds failed: %s", name, err))
			return
		}
	}
	err := r.clients.Identity.DeleteUser(ctx, name)
	switch {
	case err == nil, errors.Is(err, client.ErrNotFound):
	case errors.Is(err, client.ErrDeleteConflict):
		resp.Diagnostics.AddError("Unable to Delete Identity User",
			fmt.Sprintf("User %q still has attached policies or service-specific credentials (API keys), so the service refuses to delete it. Remove them first (destroy the resources that manage them), or set force_destroy = true and apply before destroying.\n\n%s", name, err))
	default:
		resp.Diagnostics.AddError("Unable to Delete Identity User", fmt.Sprintf("Deleting user %q failed: %s", name, err))
	}
}

func (r *userResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !userNameRe.MatchString(req.ID) || len(req.ID) > 64 {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Import a user by its name (1 to 64 letters, digits and +=,.@_-); got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("user_name"), req.ID)...)
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
