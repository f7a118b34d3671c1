package identity

import (
	"context"
	"errors"
	"fmt"
	"regexp"
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
	"github.com/cloudlabs/terraform-provider-cloud/internal/keyjournal"
)

var (
	_ resource.ResourceWithConfigure   = (*userResource)(nil)
	_ resource.ResourceWithImportState = (*userResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*userResource)(nil)
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
	c := &userCreate{r: r, j: r.clients.KeyJournal, scope: r.journalScope(in.UserName), in: in, diags: &resp.Diagnostics}
	defer keyjournal.Lock(c.scope)()
	u := c.run(ctx)
	if u == nil {
		return
	}
	flattenUser(u, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

const createUserSummary = "Unable to Create Identity User"

// A user whose CreateUser took effect but whose result Terraform never
// saved (Terraform or the provider killed while the request was in flight
// or before the state was written) makes every later create fail with
// EntityAlreadyExists. The provider records each create in the key journal
// before sending it, and adopts such a user when the journal shows that
// an interrupted create of its own, in the same directory, made it. A user
// with no such entry is someone else's: the import advice, never adoption.

// userCreate is one create of a user resource, under its scope's lock.
type userCreate struct {
	r     *userResource
	j     *keyjournal.Journal
	scope keyjournal.Scope
	in    identityclient.CreateUserInput
	diags *diag.Diagnostics
}

func (c *userCreate) warnJournal(ctx context.Context, err error) {
	warnJournal(ctx, c.j, "a user", err)
}

// run sends CreateUser with a pending journal entry and returns the user:
// the new one, the one a lost answer made, or an orphan of an earlier run.
// It adds diagnostics and returns nil when there is none.
func (c *userCreate) run(ctx context.Context) *identityclient.User {
	entry, err := c.j.Begin(c.scope, time.Now().Add(createWindow(c.r.clients)))
	c.warnJournal(ctx, err)
	u, err := c.r.clients.Identity.CreateUser(ctx, c.in)
	var apiErr *client.APIError
	switch {
	case err == nil:
		c.created(ctx, entry, u)
		return u
	case errors.Is(err, client.ErrAlreadyExists):
		c.warnJournal(ctx, c.j.Drop(c.scope, entry.ID)) // this request made nothing
		return c.exists(ctx, err)
	case errors.As(err, &apiErr):
		c.warnJournal(ctx, c.j.Drop(c.scope, entry.ID))
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("Creating user %q failed: %s", c.in.UserName, err))
		return nil
	case errors.Is(err, client.ErrOutcomeUnknown):
		// The answer was lost; the user may exist now. Find out by reading.
		tflog.Warn(ctx, "CreateUser answer lost, reading the user to learn the outcome", map[string]any{"user_name": c.in.UserName})
		createErr := err
		u, err = findUserAfterLostCreate(ctx, c.r.clients.Identity, c.in, createErr, lateWindow(c.r.clients))
		if err != nil {
			// The entry stays: if the user shows up, the next apply adopts it.
			c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("Creating user %q failed: %s", c.in.UserName, err))
			return nil
		}
		// A user that predates the request, or is spelled otherwise, is not
		// this create's: the lost answer was EntityAlreadyExists.
		var notOurs error
		if u.UserName != c.in.UserName {
			notOurs = fmt.Errorf("%w; the user that exists is spelled %q", createErr, u.UserName)
		} else if lo := entry.Started.Add(serviceClockOffset(ctx, c.r.clients.Identity, c.in.UserName) - clockMargin); u.CreateDate.Before(lo) {
			notOurs = fmt.Errorf("%w; user %q was created at %s, before this request was sent", createErr, u.UserName, u.CreateDate.UTC().Format(time.RFC3339))
		}
		if notOurs != nil {
			c.warnJournal(ctx, c.j.Drop(c.scope, entry.ID))
			return c.exists(ctx, notOurs)
		}
		c.created(ctx, entry, u)
		return u
	}
	// Cut short (the run was interrupted) with the request perhaps on its
	// way: the entry stays, and the next run adopts the user it made.
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("The create of user %q was interrupted before its answer arrived. If the service created the user, the next apply adopts it.\n\n%s", c.in.UserName, err))
	return nil
}

// created records the user a create of this run made. Unresolved entries
// of earlier runs of this directory are resolved by it: the name is taken,
// so nothing they sent can make the user any more.
func (c *userCreate) created(ctx context.Context, entry keyjournal.Entry, u *identityclient.User) {
	c.warnJournal(ctx, c.j.Set(c.scope, entry.ID, keyjournal.Created, u.UserID, entry.Deadline))
	all, err := c.j.Entries(c.scope)
	c.warnJournal(ctx, err)
	c.warnJournal(ctx, c.j.Drop(c.scope, entryIDs(c.orphanCandidates(all))...))
}

// orphanCandidates are the entries whose user this create may adopt:
// unresolved creates of dead provider instances (keyjournal's stale rules)
// run in this directory. Another directory's entries are another
// configuration's to recover, even on this machine.
func (c *userCreate) orphanCandidates(all []keyjournal.Entry) []keyjournal.Entry {
	var out []keyjournal.Entry
	for _, e := range all {
		if c.j.Stale(e) && e.Dir == c.j.Self().Dir {
			out = append(out, e)
		}
	}
	return out
}

// exists handles a CreateUser refused with EntityAlreadyExists: it adopts
// the user if an interrupted create of this directory made it, and
// otherwise reports the error with the import advice.
func (c *userCreate) exists(ctx context.Context, createErr error) *identityclient.User {
	all, err := c.j.Entries(c.scope)
	c.warnJournal(ctx, err)
	candidates := c.orphanCandidates(all)
	if len(candidates) == 0 {
		c.existsError(createErr, "")
		return nil
	}
	u, err := c.r.clients.Identity.GetUser(ctx, c.in.UserName)
	if err != nil {
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary, fmt.Sprintf("User %q already exists, and an earlier create of it by this provider was interrupted, but reading the user to tell whether that create made it failed, so nothing was adopted. Apply again.\n\n%s",
			c.in.UserName, errors.Join(createErr, err)))
		return nil
	}
	var offset time.Duration
	for _, e := range candidates {
		if e.KeyID == "" {
			offset = serviceClockOffset(ctx, c.r.clients.Identity, c.in.UserName)
			break
		}
	}
	m := matchUser(all, candidates, u, offset)
	if m == nil {
		// The name is taken by a user they did not make: nothing they sent
		// can make one any more.
		c.warnJournal(ctx, c.j.Drop(c.scope, entryIDs(candidates)...))
		c.existsError(createErr, fmt.Sprintf(" An earlier create of this user by the provider was interrupted, but the existing user (id %s, created %s) is not the one it could have made, so the provider does not adopt it.",
			u.UserID, u.CreateDate.UTC().Format(time.RFC3339)))
		return nil
	}
	if u.UserName != c.in.UserName || u.Path != c.in.Path {
		// Adopting it as it is would give the state other values than the
		// plan's, which Terraform refuses; the entry stays for the next try.
		c.diags.AddAttributeError(path.Root("user_name"), createUserSummary,
			fmt.Sprintf("User %q (id %s) with path %q was created by an earlier run of this configuration that was interrupted at %s before Terraform recorded it, but the configuration now asks for user_name %q with path %q. "+
				"Set user_name and path to the user's and apply (the provider adopts the user), then change them (the plan replaces the user); or delete the user and apply.\n\n%s",
				u.UserName, u.UserID, u.Path, m.Started.Format(time.RFC3339), c.in.UserName, c.in.Path, createErr))
		return nil
	}
	tflog.Warn(ctx, "Adopting the user an interrupted create left behind, instead of failing", map[string]any{
		"user_name": c.in.UserName, "user_id": u.UserID, "interrupted_at": m.Started.Format(time.RFC3339),
	})
	var others []string
	for _, e := range candidates {
		if e.ID != m.ID {
			others = append(others, e.ID)
		}
	}
	// Take the entry over, naming the user, so that if this run dies too
	// the next one adopts the same user by its id.
	c.warnJournal(ctx, c.j.Set(c.scope, m.ID, keyjournal.Created, u.UserID, time.Now()))
	c.warnJournal(ctx, c.j.Drop(c.scope, others...))
	c.diags.AddWarning("Identity User Adopted",
		fmt.Sprintf("User %q (id %s) was created by an earlier run of this configuration that was interrupted at %s before Terraform recorded the user. The provider adopted it into the state instead of failing with EntityAlreadyExists; nothing else was created.",
			c.in.UserName, u.UserID, m.Started.Format(time.RFC3339)))
	return u
}

func (c *userCreate) existsError(err error, why string) {
	c.diags.AddAttributeError(path.Root("user_name"), createUserSummary,
		fmt.Sprintf("A user named %q already exists (names are unique regardless of case).%s Choose another user_name, or bring the existing user under Terraform with: terraform import <address> %s\n\n%s",
			c.in.UserName, why, c.in.UserName, err))
}

// matchUser returns the candidate entry whose create made u, or nil. An
// entry naming u's id made it (the create's answer arrived). A pending
// entry with no id made it if u was created within the entry's window
// (Started to Deadline in the service's clock, which is offset ahead of
// ours, widened by clockMargin). A user that another entry names (in a
// state, or a live run's) or may have made (another run's create in
// flight then) is never matched.
func matchUser(all, candidates []keyjournal.Entry, u *identityclient.User, offset time.Duration) *keyjournal.Entry {
	inWindow := func(e keyjournal.Entry) bool {
		return e.State == keyjournal.Pending && e.KeyID == "" && inCreateWindow(e, u.CreateDate, offset)
	}
	isCandidate := map[string]bool{}
	for _, e := range candidates {
		isCandidate[e.ID] = true
	}
	for _, e := range all {
		if !isCandidate[e.ID] && (e.KeyID == u.UserID || inWindow(e)) {
			return nil
		}
	}
	for i := range candidates {
		if candidates[i].KeyID == u.UserID {
			return &candidates[i]
		}
	}
	var best *keyjournal.Entry
	for i := range candidates {
		if e := &candidates[i]; inWindow(*e) && (best == nil || e.Started.Before(best.Started)) {
			best = e
		}
	}
	return best
}

// serviceClockOffset is how far the service's clock is ahead of ours, 0
// when unknown. The client reports the service's clock only with a list of
// a user's keys, so it lists them: this is only done on the way to adopting
// a user.
func serviceClockOffset(ctx context.Context, c *identityclient.Client, userName string) time.Duration {
	out, err := c.ListServiceSpecificCredentials(ctx, userName, "")
	if err != nil {
		return 0
	}
	return clockOffsetOf(out, time.Now())
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
		return nil, fmt.Errorf("%w; no user %q appeared within %s, so most likely nothing was created: apply again (if the user shows up later, the next apply adopts it)", createErr, in.UserName, window)
	}
	return nil, fmt.Errorf("%w; reading the user to learn the outcome also failed (%w): apply again (if the user was created, the next apply adopts it)", createErr, err)
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
		r.forget(ctx, &state)
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
	// The user is in a state (this Read also follows an import).
	r.confirm(ctx, &state)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// ModifyPlan changes no plan: a user in a state is confirmed in the
// journal, so no recovery ever adopts it elsewhere, even in a run that does
// not refresh (-refresh=false).
func (r *userResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || r.clients == nil {
		return
	}
	var state userModel
	if diags := req.State.Get(ctx, &state); diags.HasError() {
		return
	}
	r.confirm(ctx, &state)
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
	r.confirm(ctx, &state)
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
		r.forget(ctx, &state)
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

// journalScope is the key journal's scope of a user's creates, as this
// provider's identity endpoint and region see them.
func (r *userResource) journalScope(userName string) keyjournal.Scope {
	return keyjournal.UserScope(r.clients.Endpoints.Identity, r.clients.Region, userName)
}

// confirm tells the journal that a user is in a Terraform state, so no
// recovery of an interrupted create adopts it. A journal that cannot be
// written only costs that protection, with a warning.
func (r *userResource) confirm(ctx context.Context, m *userModel) {
	warnJournalUpdate(ctx, r.clients.KeyJournal.Confirm(r.journalScope(m.UserName.ValueString()), m.UserID.ValueString()))
}

// forget removes the journal entries of a deleted user.
func (r *userResource) forget(ctx context.Context, m *userModel) {
	warnJournalUpdate(ctx, r.clients.KeyJournal.Forget(r.journalScope(m.UserName.ValueString()), m.UserID.ValueString()))
}

func flattenUser(u *identityclient.User, m *userModel) {
	m.ID = types.StringValue(u.UserName)
	m.UserName = types.StringValue(u.UserName)
	m.Path = types.StringValue(u.Path)
	m.Arn = types.StringValue(u.Arn)
	m.UserID = types.StringValue(u.UserID)
	m.CreateDate = types.StringValue(u.CreateDate.UTC().Format(time.RFC3339))
}
