package identity

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// Create creates the user, or adopts the user an interrupted create of an
// earlier run made (see userCreate).
func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan userModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := identityclient.CreateUserInput{UserName: plan.UserName.ValueString(), Path: plan.Path.ValueString()}
	c := &userCreate{r: r, in: in, diags: &resp.Diagnostics}
	u := c.run(ctx)
	if u == nil {
		return
	}
	flattenUser(u, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

const createUserSummary = "Unable to Create Identity User"

// A user whose CreateUser took effect but whose result Terraform never
// saved (Terraform or the provider killed or interrupted while the request
// was in flight) makes every later create fail with EntityAlreadyExists.
// So CreateUser carries a tag recording the create (create_record.go),
// removed as soon as the answer is in hand. A user that still carries it
// once the create's window has passed was made by an interrupted create
// and is held by no configuration: the next create of that name, on any
// machine, adopts it. A user without the tag is someone else's: the import
// advice, never adoption.

// userCreate is one create of a user resource.
type userCreate struct {
	r     *userResource
	in    identityclient.CreateUserInput
	diags *diag.Diagnostics
	// nonce names this create in the record it writes.
	nonce string
}

// run sends CreateUser with its record and returns the user: the new one,
// the one a lost answer made, or the orphan of an interrupted create. It
// adds diagnostics and returns nil when there is none.
func (c *userCreate) run(ctx context.Context) *identityclient.User {
	c.nonce = newNonce()
	window := createWindow(c.r.clients)
	in := c.in
	in.Tags = []identityclient.Tag{userCreateTag(c.nonce, window)}
	u, err := c.r.clients.Identity.CreateUser(ctx, in)
	var apiErr *client.APIError
	switch {
	case err == nil:
		c.settled(ctx, u)
		return u
	case errors.Is(err, client.ErrAlreadyExists):
		return c.exists(ctx, err)
	case errors.As(err, &apiErr):
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("Creating user %q failed: %s", c.in.UserName, err))
		return nil
	case errors.Is(err, client.ErrOutcomeUnknown):
		// The answer was lost; the user may exist now. Find out by reading.
		tflog.Info(ctx, "CreateUser answer lost, reading the user to learn the outcome", map[string]any{"user_name": c.in.UserName, "wait_up_to": lateWindow(c.r.clients).String()})
		createErr := err
		u, err = findUserAfterLostCreate(ctx, c.r.clients.Identity, c.in, createErr, lateWindow(c.r.clients))
		if err != nil {
			c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("Creating user %q failed: %s", c.in.UserName, err))
			return nil
		}
		if nonce, _, ok := userCreateRecord(u); ok && nonce == c.nonce {
			c.settled(ctx, u)
			return u
		}
		// Not made by this request: the lost answer was EntityAlreadyExists.
		return c.exists(ctx, createErr)
	}
	// Cut short (the run was interrupted) with the request perhaps on its
	// way: a user it made carries the record.
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("The create of user %q was interrupted before its answer arrived. "+
		"If the service created the user, the user carries the record of this create (tag %s), and the next apply, on this machine or any other, adopts it once %s have passed since its creation.\n\n%s",
		c.in.UserName, tagCreatingUser, window.Round(time.Second), err))
	return nil
}

// settled clears the record of a create whose answer is in hand: the user
// is now held by the configuration that asked for it. It runs even when
// the run is being interrupted (see bookkeeping).
// claims are this run's claims of an adoption, which go too.
func (c *userCreate) settled(ctx context.Context, u *identityclient.User, claims ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := c.r.clients.Identity.UntagUser(actx, u.UserName, append([]string{tagCreatingUser}, claims...)); err != nil {
		c.diags.AddWarning("User Create Record Not Cleared",
			fmt.Sprintf("User %q was created and is in the state, but removing the record of its create (tag %s) failed. Until the tag is removed, another configuration that creates a user of this name would adopt this one: remove the tag (identity:UntagUser).\n\n%s",
				u.UserName, tagCreatingUser, err))
	}
}

// exists handles a CreateUser refused with EntityAlreadyExists: it adopts
// the user if it carries the record of a create that is over, waits while
// that create may still be answered, and otherwise reports the error with
// the import advice.
func (c *userCreate) exists(ctx context.Context, createErr error) *identityclient.User {
	logged := false
	for {
		u, err := c.r.clients.Identity.GetUser(ctx, c.in.UserName)
		if err == nil && u.UserName != c.in.UserName {
			c.existsError(createErr, fmt.Sprintf(" The user that exists is spelled %q.", u.UserName))
			return nil
		}
		var tags *identityclient.UserTags
		if err == nil {
			tags, err = c.r.clients.Identity.ListUserTags(ctx, c.in.UserName)
		}
		if err != nil {
			c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q already exists, and reading it to tell whether an interrupted create made it failed, so nothing was adopted. Apply again.\n\n%s",
				c.in.UserName, errors.Join(createErr, err)))
			return nil
		}
		_, until, ok := userCreateRecord(u)
		if !ok {
			c.existsError(createErr, "")
			return nil
		}
		now := time.Now()
		if !tags.ServerTime.IsZero() {
			now = tags.ServerTime
		}
		if !now.Before(until.Add(clockMargin)) {
			return c.adopt(ctx, u, createErr)
		}
		if !logged {
			logged = true
			tflog.Info(ctx, "The user carries the record of a create whose answer may still arrive: waiting for it before deciding whose the user is", map[string]any{
				"user_name": c.in.UserName, "wait_up_to": until.Add(clockMargin).Sub(now).Round(time.Second).String(),
			})
		}
		select {
		case <-ctx.Done():
			c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q already exists and carries the record of a create whose answer may still arrive; the wait for it was interrupted, so nothing was adopted. Apply again.\n\n%s",
				c.in.UserName, errors.Join(createErr, ctx.Err())))
			return nil
		case <-time.After(recoveryPoll):
		}
	}
}

// adopt takes over user u, made by an interrupted create, once it won the
// user against other runs adopting it at the same time (see contend), and
// clears the record.
func (c *userCreate) adopt(ctx context.Context, u *identityclient.User, createErr error) *identityclient.User {
	if u.Path != c.in.Path {
		// Adopting it as it is would give the state other values than the
		// plan's, which Terraform refuses; the record stays for the next try.
		c.diags.AddAttributeError(path.Root("path"), createUserSummary,
			fmt.Sprintf("User %q (id %s) with path %q was created at %s by a create that was interrupted before Terraform recorded it, but the configuration asks for path %q. "+
				"Set path to the user's and apply (the provider adopts the user), then change it (the plan replaces the user); or delete the user and apply.\n\n%s",
				u.UserName, u.UserID, u.Path, u.CreateDate.UTC().Format(time.RFC3339), c.in.Path, createErr))
		return nil
	}
	id := c.r.clients.Identity
	record, _, _ := userCreateRecord(u)
	mine := ""
	won, err := contend(ctx, id, u.UserName, c.nonce,
		func(now time.Time) identityclient.Tag {
			t := adoptingTag(c.nonce, record, now.Add(contendSettle+createWindow(c.r.clients)))
			mine = t.Key
			return t
		},
		func(tags *identityclient.UserTags) ([]string, bool) { return userAdopters(tags, record, c.nonce) })
	var again *identityclient.User
	if err == nil && won {
		again, err = id.GetUser(ctx, u.UserName)
	}
	release := func() {
		if won {
			c.untag(ctx, u.UserName, mine)
		}
	}
	if err != nil {
		release()
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q was made by an interrupted create, and taking it over failed, so nothing was adopted. Apply again.\n\n%s",
			u.UserName, errors.Join(createErr, err)))
		return nil
	}
	if !won || again.UserID != u.UserID {
		release()
		c.existsError(createErr, " Another run is adopting the user, made by an interrupted create, at the same time; if that run was interrupted too, apply again in a few minutes.")
		return nil
	}
	tflog.Warn(ctx, "Adopting the user an interrupted create left behind, instead of failing", map[string]any{"user_name": u.UserName, "user_id": u.UserID})
	c.settled(ctx, again, mine)
	c.diags.AddWarning("Identity User Adopted",
		fmt.Sprintf("User %q (id %s) was created at %s by a create that was interrupted before Terraform recorded the user, and no configuration held it. The provider adopted it into the state instead of failing with EntityAlreadyExists; nothing else was created.",
			u.UserName, u.UserID, u.CreateDate.UTC().Format(time.RFC3339)))
	return again
}

// untag removes tags from the user, logging a failure (see bookkeeping).
func (c *userCreate) untag(ctx context.Context, user string, keys ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := c.r.clients.Identity.UntagUser(actx, user, keys); err != nil {
		tflog.Warn(ctx, "Could not remove a claim from the user", map[string]any{"user_name": user, "tags": strings.Join(keys, ","), "error": err.Error()})
	}
}

func (c *userCreate) existsError(err error, why string) {
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary,
		fmt.Sprintf("A user named %q already exists (names are unique regardless of case).%s Choose another user_name, or bring the existing user under Terraform with: terraform import <address> %s\n\n%s",
			c.in.UserName, why, c.in.UserName, err))
}

// findUserAfterLostCreate reads the user a CreateUser with a lost answer may
// have created. The service may still be applying the request, so a user
// that is not there yet is looked for again for up to window.
func findUserAfterLostCreate(ctx context.Context, c *identityclient.Client, in identityclient.CreateUserInput, createErr error, window time.Duration) (*identityclient.User, error) {
	var u *identityclient.User
	found, err := untilSeen(ctx, window, lostAnswerPoll, func() (bool, error) {
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
		return nil, fmt.Errorf("%w; no user %q appeared within %s, so most likely nothing was created: apply again", createErr, in.UserName, window)
	}
	return nil, fmt.Errorf("%w; reading the user to learn the outcome also failed (%w): apply again (if the user was created, it carries the record of this create, and the next apply adopts it)", createErr, err)
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
	var plan, state userModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
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
