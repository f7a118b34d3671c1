package identity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

var (
	_ resource.ResourceWithConfigure   = (*userPolicyAttachmentResource)(nil)
	_ resource.ResourceWithImportState = (*userPolicyAttachmentResource)(nil)
	_ resource.ResourceWithIdentity    = (*userPolicyAttachmentResource)(nil)
)

// NewUserPolicyAttachmentResource is the factory of
// cloud_identity_user_policy_attachment.
func NewUserPolicyAttachmentResource() resource.Resource { return &userPolicyAttachmentResource{} }

type userPolicyAttachmentResource struct {
	clients *conns.Clients
}

type userPolicyAttachmentModel struct {
	ID        types.String `tfsdk:"id"`
	UserName  types.String `tfsdk:"user_name"`
	PolicyArn types.String `tfsdk:"policy_arn"`
}

func (r *userPolicyAttachmentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_identity_user_policy_attachment"
	resp.ResourceBehavior = resourceidentity.Behavior
}

func (r *userPolicyAttachmentResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Attaches a managed policy to an identity-service user. A long-term API key takes its permissions from its user's policies: attach `arn:cloud:identity::cloud:policy/ModelsLimitedAccess` to let the key call the model runtime service. Detached outside Terraform, the next plan attaches it again.",
		Attributes: map[string]schema.Attribute{
			"id":        computedString("`<user_name>/<policy_arn>`."),
			"user_name": userNameAttribute("Name of the user. Changing it replaces the attachment."),
			"policy_arn": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ARN of the managed policy, `arn:cloud:identity::cloud:policy/<name>` for the cloud's own policies (such as `ModelsLimitedAccess` or `DenyBearerTokens`) or `arn:cloud:identity::<account>:policy/<name>`. Changing it replaces the attachment.",
				Validators:          validators.StringRule(rules.PolicyARN),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
		},
	}
}

// IdentitySchema: an attachment is named by its user and policy, in the
// user's account.
func (r *userPolicyAttachmentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = attachmentIdentityType.Schema()
}

func (r *userPolicyAttachmentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (r *userPolicyAttachmentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan userPolicyAttachmentModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	user, arn := plan.UserName.ValueString(), plan.PolicyArn.ValueString()
	if err := r.clients.Identity.AttachUserPolicy(ctx, user, arn); err != nil {
		diagnostics.AddIdentityError(&resp.Diagnostics, "Unable to Attach Identity User Policy", diagnostics.PolicyAttach, err,
			"user", strconv.Quote(user), "arn", strconv.Quote(arn))
		return
	}
	plan.ID = types.StringValue(user + "/" + arn)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(attachmentIdentityType.Write(ctx, r.clients, nil, attachmentIdentity(user, arn), "policy attachment "+plan.ID.ValueString(), resp.Identity)...)
}

func (r *userPolicyAttachmentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state userPolicyAttachmentModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	user, arn := state.UserName.ValueString(), state.PolicyArn.ValueString()
	prior := attachmentIdentityType.CheckRefresh(ctx, r.clients, req.Identity, "policy attachment "+state.ID.ValueString(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	found, err := findUserPolicyAttachment(ctx, r.clients, user, arn)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Identity User Policy Attachment",
			fmt.Sprintf("Listing the policies of user %q failed: %s", user, err))
		return
	}
	if found == "" {
		tflog.Warn(ctx, "Policy attachment is gone, removing it from state", map[string]any{"user_name": user, "policy_arn": arn})
		resp.State.RemoveResource(ctx)
		resp.Diagnostics.Append(resourceidentity.Gone(ctx, resp.Identity, attachmentIdentity(user, arn))...)
		return
	}
	state.PolicyArn = types.StringValue(found)
	state.ID = types.StringValue(user + "/" + found)
	resp.Diagnostics.Append(attachmentIdentityType.WriteRefresh(ctx, r.clients, prior, attachmentIdentity(state.UserName.ValueString(), state.PolicyArn.ValueString()), "policy attachment "+state.ID.ValueString(), resp.Identity)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &state)...)
}

// findUserPolicyAttachment returns arn when the user has that policy
// attached, the service's ARN matched whatever its case, or "" when the
// user or the attachment does not exist. It returns the configuration's
// spelling, not the service's: the service's in state would differ from
// the configuration, and policy_arn replaces the attachment when it changes.
func findUserPolicyAttachment(ctx context.Context, c *conns.Clients, user, arn string) (string, error) {
	policies, err := c.Identity.ListAttachedUserPolicies(ctx, user)
	if errors.Is(err, client.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	for _, p := range policies {
		if strings.EqualFold(p.PolicyArn, arn) {
			return arn, nil // keep the configuration's spelling
		}
	}
	return "", nil
}

// Update is never called: every argument replaces the attachment.
func (r *userPolicyAttachmentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan userPolicyAttachmentModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &plan)...)
}

func (r *userPolicyAttachmentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state userPolicyAttachmentModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if attachmentIdentityType.CheckPrior(ctx, r.clients, req.Identity, "policy attachment "+state.ID.ValueString(), &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	user, arn := state.UserName.ValueString(), state.PolicyArn.ValueString()
	err := r.clients.Identity.DetachUserPolicy(ctx, user, arn)
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddError("Unable to Detach Identity User Policy",
			fmt.Sprintf("Detaching %q from user %q failed: %s", arn, user, err))
	}
}

// ImportState takes `<user_name>/<policy_arn>` (user names hold no slash,
// so the first one separates the two), or an identity.
func (r *userPolicyAttachmentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	user, arn, ok := strings.Cut(req.ID, "/")
	if req.ID == "" {
		id, imported := attachmentIdentityType.Import(ctx, r.clients, req.Identity, func(id resourceidentity.Identity) string {
			return fmt.Sprintf("policy attachment %s/%s", id.Attrs["user_name"], id.Attrs["policy_arn"])
		}, &resp.Diagnostics)
		if !imported {
			return
		}
		user, arn, ok = id.Attrs["user_name"], id.Attrs["policy_arn"], true
		resp.Diagnostics.Append(resourceidentity.Set(ctx, resp.Identity, id)...)
	}
	if !ok || !validUserName(user) || rules.PolicyARN.CheckString(arn) != nil {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Import a policy attachment as <user_name>/<policy_arn>, for example alice/arn:cloud:identity::cloud:policy/ModelsLimitedAccess, or by an identity with both; got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("user_name"), user)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("policy_arn"), arn)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), user+"/"+arn)...)
}
