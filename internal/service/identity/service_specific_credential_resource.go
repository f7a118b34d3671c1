package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/privatestate"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
)

var (
	_ resource.ResourceWithConfigure      = (*serviceSpecificCredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*serviceSpecificCredentialResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*serviceSpecificCredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*serviceSpecificCredentialResource)(nil)
	_ resource.ResourceWithIdentity       = (*serviceSpecificCredentialResource)(nil)
)

// Limits of a long-term API key, as the identity service has them.
const (
	// DefaultServiceName is the model runtime service's ServiceName.
	DefaultServiceName = "models.cloud.example"
	// privateClockOffset is the private-state key holding how far the
	// service's clock was ahead of ours at the last refresh, in seconds.
	privateClockOffset = "clock_offset_seconds"
	// privateHeld is the private-state key an earlier version set once its
	// refresh had marked an imported key as held: such a key reads as held.
	privateHeld = "held"
)

// supportedServiceNames are the services that accept service-specific
// credentials; the service refuses any other with NotSupportedService.
var supportedServiceNames = []string{DefaultServiceName}

// NewServiceSpecificCredentialResource is the factory of
// cloud_identity_service_specific_credential.
func NewServiceSpecificCredentialResource() resource.Resource {
	return &serviceSpecificCredentialResource{}
}

type serviceSpecificCredentialResource struct {
	clients *conns.Clients
}

type serviceSpecificCredentialModel struct {
	ID                          types.String      `tfsdk:"id"`
	UserName                    types.String      `tfsdk:"user_name"`
	ServiceName                 types.String      `tfsdk:"service_name"`
	CredentialAgeDays           customtypes.Int64 `tfsdk:"credential_age_days"`
	Status                      types.String      `tfsdk:"status"`
	ResetTriggers               types.Map         `tfsdk:"reset_triggers"`
	RenewBeforeDays             customtypes.Int64 `tfsdk:"renew_before_days"`
	ServiceSpecificCredentialID types.String      `tfsdk:"service_specific_credential_id"`
	ServiceAPIKeyValue          types.String      `tfsdk:"service_api_key_value"`
	CreateDate                  types.String      `tfsdk:"create_date"`
	ExpirationDate              types.String      `tfsdk:"expiration_date"`
	Region                      types.String      `tfsdk:"region"`
	Held                        types.Bool        `tfsdk:"held"`
}

func (r *serviceSpecificCredentialResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_identity_service_specific_credential"
	resp.ResourceBehavior = resourceidentity.Behavior
}

func (r *serviceSpecificCredentialResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A long-term API key of the model runtime service (a service-specific credential of an identity-service user). " +
			"The key takes its permissions from the policies attached to its user, works only in the region it was created in " +
			"(the provider's `region`), and can be deactivated (`status`), reset in place (`reset_triggers`) and renewed before it expires (`renew_before_days`). " +
			"The key value is stored in the state (sensitive): protect the state accordingly. " +
			"A user holds at most 2 keys per service; a renewal with `lifecycle { create_before_destroy = true }` needs one free slot.",
		Attributes: map[string]schema.Attribute{
			"id":                  computedString("`<user_name>/<service_specific_credential_id>`."),
			"user_name":           userNameAttribute("Name of the identity-service user the key belongs to. Changing it replaces the key."),
			"service_name":        serviceNameAttribute(),
			"credential_age_days": credentialAgeDaysAttribute(),
			"status":              keyStatusAttribute(),
			"reset_triggers": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Arbitrary values; when any of them changes, the key is reset in place (ResetServiceSpecificCredential): " +
					"it gets a new `service_api_key_value`, the old value stops working, and the id, status and expiry stay. Use it to rotate a compromised key.",
			},
			"renew_before_days": schema.Int64Attribute{
				CustomType: customtypes.Int64Type{},
				Optional:   true,
				MarkdownDescription: "When set, a plan made this many days or fewer before `expiration_date` (or after it) replaces the key with a new one, " +
					"and says so in a warning. Days are counted against the service's clock as seen at the last refresh. Must be smaller than `credential_age_days`.",
				Validators: []validator.Int64{int64validator.Between(1, rules.CredentialAgeDays.Range.Max-1)},
			},
			"service_specific_credential_id": computedString("Id of the key, as the service gives it."),
			"service_api_key_value": schema.StringAttribute{
				Computed:  true,
				Sensitive: true,
				MarkdownDescription: "The API key, sent as `Authorization: Bearer <value>` to the runtime. Set at creation and by each reset, kept across refreshes " +
					"(the service never shows it again), and null after `terraform import`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"create_date":     computedString("When the key was created (RFC 3339)."),
			"expiration_date": computedString("When the key expires (RFC 3339); null only for an imported key made without an expiry."),
			"region": computedString("Region the key was created in and the only one it works in: the provider's `region` at creation. " +
				"When the provider's region changes, the plan replaces the key with one for the new region."),
			"held": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether no recovery of another configuration's interrupted create can take the key: it is marked on its user as held by a configuration (the user tag `terraform-cloud:key:<id>`, or its create's record `terraform-cloud:creating:<random id>` rewritten as `held <id> <time>`), or it needs no mark. " +
					"A key this resource creates is marked by its create. An imported key needs no mark when it was created more than a minute before the import and no record of an interrupted create on its user covers its creation (the import reads the user's tags to know). " +
					"Otherwise it is `false` until the first apply after the import marks it: a plan never writes, so the plan of that import shows `held` changing to `true` as an update in place (identity:TagUser at apply).",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// IdentitySchema: a key is named by its user and id, in its account and
// the region it works in.
func (r *serviceSpecificCredentialResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = keyIdentityType.Schema()
}

func (r *serviceSpecificCredentialResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig checks that renew_before_days fits inside the key's life.
func (r *serviceSpecificCredentialResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg serviceSpecificCredentialModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Config, &cfg)...)
	// credential_age_days is required: Terraform reports it missing.
	if resp.Diagnostics.HasError() || cfg.RenewBeforeDays.IsNull() || cfg.RenewBeforeDays.IsUnknown() || cfg.CredentialAgeDays.IsNull() || cfg.CredentialAgeDays.IsUnknown() {
		return
	}
	if cfg.RenewBeforeDays.ValueInt64() >= cfg.CredentialAgeDays.ValueInt64() {
		resp.Diagnostics.AddAttributeError(path.Root("renew_before_days"), "Invalid Key Renewal",
			fmt.Sprintf("renew_before_days (%d) must be smaller than credential_age_days (%d); otherwise every plan would replace the key as soon as it is created.",
				cfg.RenewBeforeDays.ValueInt64(), cfg.CredentialAgeDays.ValueInt64()))
	}
}

// ModifyPlan records the region a new key will live in and asks whether
// the caller may create it (create_permission.go), plans a new value
// when reset_triggers change, and plans a replacement when the provider's
// region changed or the key is within renew_before_days of its expiry.
func (r *serviceSpecificCredentialResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.clients == nil {
		return
	}
	var plan, state serviceSpecificCredentialModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		proposed := plan
		plan.Region = types.StringValue(r.clients.Region)
		r.checkCreateAllowed(ctx, &plan, &resp.Diagnostics)
		resp.Diagnostics.Append(tfmodel.SetChanged(ctx, &resp.Plan, &proposed, &plan)...)
		return
	}
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	proposed := plan
	r.planRegionChange(&plan, &state, resp)
	if plan.ResetTriggers.IsUnknown() || !sameTriggers(plan.ResetTriggers, state.ResetTriggers) {
		plan.ServiceAPIKeyValue = types.StringUnknown()
	}
	clock := serviceClock(ctx, req.Private)
	planRenewal(clock.Now(), &plan, &state, resp)
	if !state.Held.ValueBool() && (!state.Held.IsNull() || !readsAsHeld(ctx, &state, req.Private)) {
		// An imported key: the apply marks it (Update), never the plan.
		plan.Held = types.BoolValue(true)
	}
	// An existing key is planned on every refresh, mostly without a change:
	// only what the planning above changed is written back.
	resp.Diagnostics.Append(tfmodel.SetChanged(ctx, &resp.Plan, &proposed, &plan)...)
}

// keyAddress names the key in plan diagnostics, as its import id.
func keyAddress(state *serviceSpecificCredentialModel) string {
	return fmt.Sprintf("%s/%s", state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString())
}

// planRegionChange plans a replacement when the provider's region is no
// longer the key's: a key works only in its own.
func (r *serviceSpecificCredentialResource) planRegionChange(plan, state *serviceSpecificCredentialModel, resp *resource.ModifyPlanResponse) {
	if state.Region.IsNull() || state.Region.ValueString() == r.clients.Region {
		return
	}
	plan.Region = types.StringValue(r.clients.Region)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("region"))
	resp.Diagnostics.AddWarning("Identity Service Specific Credential Will Be Replaced for a New Region",
		fmt.Sprintf("Key %s works only in %s, and the provider now uses %s. The plan replaces it with a new key for %s; clients must switch to the new service_api_key_value.",
			keyAddress(state), state.Region.ValueString(), r.clients.Region, r.clients.Region))
}

// planRenewal plans a replacement when, at now (by the service's clock),
// the key is within renew_before_days of its expiry or past it.
func planRenewal(now time.Time, plan, state *serviceSpecificCredentialModel, resp *resource.ModifyPlanResponse) {
	if plan.RenewBeforeDays.IsNull() || plan.RenewBeforeDays.IsUnknown() || state.ExpirationDate.IsNull() {
		return
	}
	exp, err := time.Parse(time.RFC3339, state.ExpirationDate.ValueString())
	if err != nil {
		return
	}
	renewAt := exp.Add(-time.Duration(plan.RenewBeforeDays.ValueInt64()) * 24 * time.Hour)
	if now.Before(renewAt) {
		return
	}
	// Terraform replaces only for a path whose planned value differs from
	// the prior one: the new key's expiry is not known yet.
	plan.ExpirationDate = types.StringUnknown()
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("expiration_date"))
	when := fmt.Sprintf("expires at %s, in %.1f days", exp.Format(time.RFC3339), exp.Sub(now).Hours()/24)
	if !now.Before(exp) {
		when = fmt.Sprintf("expired at %s", exp.Format(time.RFC3339))
	}
	resp.Diagnostics.AddWarning("Identity Service Specific Credential Will Be Renewed",
		fmt.Sprintf("Key %s %s, which is within renew_before_days = %d. The plan replaces it with a new key (a new service_api_key_value); "+
			"clients must switch to the new value. To keep the old key working until then, set lifecycle { create_before_destroy = true } (the user needs a free key slot).",
			keyAddress(state), when, plan.RenewBeforeDays.ValueInt64()))
}

// serviceClock is the service's clock as the last refresh learned it
// (ours when unknown).
func serviceClock(ctx context.Context, p privatestate.Getter) client.ServiceClock {
	b, _ := p.GetKey(ctx, privateClockOffset)
	if len(b) == 0 {
		return client.ServiceClock{}
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return client.ServiceClock{}
	}
	return client.ClockAhead(time.Duration(secs * float64(time.Second)))
}

func sameTriggers(a, b types.Map) bool {
	ea, eb := a.Elements(), b.Elements()
	if len(ea) != len(eb) {
		return false
	}
	for k, v := range ea {
		if w, ok := eb[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// Create creates the key, or adopts the key an interrupted create left
// behind (key_create.go, internal/recovery).
func (r *serviceSpecificCredentialResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan serviceSpecificCredentialModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	defer r.clients.Listings.Forget(plan.UserName.ValueString())
	in := identityclient.CreateServiceSpecificCredentialInput{
		UserName:          plan.UserName.ValueString(),
		ServiceName:       plan.ServiceName.ValueString(),
		CredentialAgeDays: int(plan.CredentialAgeDays.ValueInt64()),
	}
	want := recovery.WantKey{AgeDays: plan.CredentialAgeDays.ValueInt64(), RenewBeforeDays: plan.RenewBeforeDays.ValueInt64()}
	status := plan.Status.ValueString() // flattenCredential sets the key's
	cred := createKey(ctx, r.clients, in, want, &resp.Diagnostics)
	if cred == nil {
		return
	}
	flattenCredential(cred, &plan)
	plan.ServiceAPIKeyValue = types.StringValue(cred.ServiceAPIKeyValue)
	plan.Region = types.StringValue(r.clients.Identity.Region())
	plan.Held = types.BoolValue(true) // marked by the create (hold), or warned about
	r.setCreatedStatus(ctx, cred, status, &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(keyIdentityType.Write(ctx, r.clients, nil, keyIdentityOf(&plan), "key "+keyAddress(&plan), resp.Identity)...)
}

// setCreatedStatus gives a key just created or adopted the planned status.
// A new key starts Active (an adopted one may be either): the status is set
// now, so the key is never in use as another. plan holds the key already
// (flattenCredential), its user name too.
func (r *serviceSpecificCredentialResource) setCreatedStatus(ctx context.Context, cred *identityclient.ServiceSpecificCredential, want string, plan *serviceSpecificCredentialModel, diags *diag.Diagnostics) {
	if want == cred.Status {
		return
	}
	if err := r.clients.Identity.UpdateServiceSpecificCredential(ctx, plan.UserName.ValueString(), cred.ServiceSpecificCredentialID, want); err != nil {
		diags.AddAttributeError(path.Root("status"), createSummary,
			fmt.Sprintf("Key %s was created, but setting its status to %s failed, so it is %s. Terraform saves it as tainted: the next apply replaces it with a new key, created and set to %s, and deletes this one.\n\n%s", cred.ServiceSpecificCredentialID, want, cred.Status, want, err))
		return
	}
	plan.Status = types.StringValue(want)
}

func (r *serviceSpecificCredentialResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state serviceSpecificCredentialModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	user, id := state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString()
	prior := keyIdentityType.CheckRefresh(ctx, r.clients, req.Identity, "key "+state.ID.ValueString(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	found, serverTime, listed, gone, err := r.findCredential(ctx, user, state.ServiceName.ValueString(), id)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Identity Service Specific Credential",
			fmt.Sprintf("Listing the keys of user %q failed: %s", user, err))
		return
	}
	if found == nil {
		tflog.Warn(ctx, gone, map[string]any{"user_name": user, "service_specific_credential_id": id})
		resp.State.RemoveResource(ctx)
		resp.Diagnostics.Append(resourceidentity.Gone(ctx, resp.Identity, keyIdentity(user, id, state.Region.ValueString()))...)
		return
	}
	flattenCredential(found, &state)
	if state.Region.IsNull() || state.Region.IsUnknown() {
		// After import: the service does not report a key's region; assume
		// the provider's, where the import found it.
		state.Region = types.StringValue(r.clients.Region)
	}
	if state.ServiceAPIKeyValue.IsUnknown() {
		state.ServiceAPIKeyValue = types.StringNull()
	}
	// The identity first, as in every path: nothing is written (the
	// state) for a key whose identity is refused.
	if resp.Diagnostics.Append(keyIdentityType.WriteRefresh(ctx, r.clients, prior, keyIdentityOf(&state), "key "+keyAddress(&state), resp.Identity)...); resp.Diagnostics.HasError() {
		return
	}
	if state.Held.IsNull() || state.Held.IsUnknown() {
		held := readsAsHeld(ctx, &state, req.Private)
		if !held {
			var taken *recovery.HeldElsewhere
			if held, taken = r.beyondRecovery(ctx, found, serverTime, listed); taken != nil {
				heldElsewhereError(taken, &resp.Diagnostics)
				return
			}
		}
		state.Held = types.BoolValue(held)
	} else if !state.Held.ValueBool() && r.markedElsewhere(ctx, &state, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(recordClockOffset(ctx, serverTime, req.Private, resp.Private)...)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &state)...)
}

// findCredential reads key id of user from the user's listing, one for
// every key of the user this command reads (conns.Listings); nil when it
// or the user is gone, and gone then says which, as the log's message.
// serverTime is the service's clock at the answer, listed when this
// provider instance had it.
func (r *serviceSpecificCredentialResource) findCredential(ctx context.Context, user, service, id string) (found *identityclient.ServiceSpecificCredential, serverTime time.Time, listed conns.Answered, gone string, err error) {
	out, listed, err := r.clients.Listings.Keys(ctx, user, service)
	if errors.Is(err, client.ErrNotFound) {
		return nil, serverTime, listed, "The key's user is gone, removing the key from state", nil
	}
	if err != nil {
		return nil, serverTime, listed, "", err
	}
	for _, c := range out.Credentials {
		if c.ServiceSpecificCredentialID == id {
			return &c, out.ServerTime, listed, "", nil
		}
	}
	return nil, out.ServerTime, listed, "Key is gone, removing it from state", nil
}

// recordClockOffset keeps the service's clock (serverTime, the service's
// time now) as its offset from ours, for renew_before_days. The offset
// matters at the scale of days: it is recorded only when it moved by more
// than a minute, so that the Date header's one-second rounding does not
// change the private state on every refresh (plan -refresh-only
// -detailed-exitcode would report it).
func recordClockOffset(ctx context.Context, serverTime time.Time, prior privatestate.Getter, next privatestate.Setter) diag.Diagnostics {
	if serverTime.IsZero() {
		return nil
	}
	clock := client.ClockRead(serverTime)
	was := serviceClock(ctx, prior)
	if moved := clock.Offset() - was.Offset(); moved <= time.Minute && moved >= -time.Minute {
		return nil
	}
	offset, _ := json.Marshal(math.Round(clock.Offset().Seconds()))
	return next.SetKey(ctx, privateClockOffset, offset)
}

func (r *serviceSpecificCredentialResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state serviceSpecificCredentialModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Computed values stay as they are unless a call below changes them.
	plan.ID, plan.ServiceSpecificCredentialID = state.ID, state.ServiceSpecificCredentialID
	plan.CreateDate, plan.ExpirationDate, plan.Region = state.CreateDate, state.ExpirationDate, state.Region
	plan.ServiceAPIKeyValue = state.ServiceAPIKeyValue
	defer r.clients.Listings.Forget(state.UserName.ValueString())
	prior := keyIdentityType.CheckPrior(ctx, r.clients, req.Identity, "key "+state.ID.ValueString(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.Held = types.BoolValue(state.Held.ValueBool() || r.markHeld(ctx, &state, &resp.Diagnostics))
	if resp.Diagnostics.HasError() {
		// Held elsewhere: nothing was written, and the state stays as it
		// was (the plan's held = true would claim a mark never set).
		resp.State.Raw = req.State.Raw.Copy()
		return
	}

	if !plan.Status.Equal(state.Status) && !r.updateStatus(ctx, &state, plan.Status.ValueString(), &resp.Diagnostics) {
		return
	}
	if !sameTriggers(plan.ResetTriggers, state.ResetTriggers) && !r.reset(ctx, &plan, &state, resp) {
		return
	}
	if plan.ServiceAPIKeyValue.IsUnknown() {
		plan.ServiceAPIKeyValue = state.ServiceAPIKeyValue
	}
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(keyIdentityType.Write(ctx, r.clients, prior, keyIdentityOf(&plan), "key "+keyAddress(&plan), resp.Identity)...)
}

// updateStatus sets the key's status, reporting whether it did.
func (r *serviceSpecificCredentialResource) updateStatus(ctx context.Context, state *serviceSpecificCredentialModel, status string, diags *diag.Diagnostics) bool {
	user, id := state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString()
	if err := r.clients.Identity.UpdateServiceSpecificCredential(ctx, user, id, status); err != nil {
		diags.AddAttributeError(path.Root("status"), "Unable to Update Identity Service Specific Credential",
			fmt.Sprintf("Setting the status of key %s of user %q to %s failed. If the key was deleted outside Terraform, refresh and apply again to create a new one.\n\n%s",
				id, user, status, err))
		return false
	}
	return true
}

// reset resets the key into plan, reporting whether it did. The client
// repeats a reset whose answer was lost; when every attempt fails, one of
// them may still have landed and the value in state may no longer work.
// So the old reset_triggers are saved with the rest, and the next plan
// resets again.
func (r *serviceSpecificCredentialResource) reset(ctx context.Context, plan, state *serviceSpecificCredentialModel, resp *resource.UpdateResponse) bool {
	user, id := state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString()
	cred, err := r.clients.Identity.ResetServiceSpecificCredential(ctx, user, id)
	if err == nil {
		flattenCredential(cred, plan)
		plan.ServiceAPIKeyValue = types.StringValue(cred.ServiceAPIKeyValue)
		return true
	}
	detail := fmt.Sprintf("Resetting key %s of user %q failed. The service may have reset it anyway, so the value in state may no longer work: "+
		"reset_triggers keep their old values in state, and the next apply resets the key again and records the new value.\n\n%s", id, user, err)
	if errors.Is(err, client.ErrNotFound) {
		detail = fmt.Sprintf("Key %s of user %q no longer exists. Refresh (terraform plan) to drop it from state, then apply to create a new one.\n\n%s", id, user, err)
	}
	plan.ResetTriggers = state.ResetTriggers
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, plan)...)
	resp.Diagnostics.AddAttributeError(path.Root("reset_triggers"), "Unable to Reset Identity Service Specific Credential", detail)
	return false
}

func (r *serviceSpecificCredentialResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state serviceSpecificCredentialModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if keyIdentityType.CheckPrior(ctx, r.clients, req.Identity, "key "+state.ID.ValueString(), &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	if !state.Held.IsNull() && !state.Held.ValueBool() && r.markedElsewhere(ctx, &state, &resp.Diagnostics) {
		return
	}
	user, id := state.UserName.ValueString(), state.ServiceSpecificCredentialID.ValueString()
	err := r.clients.Identity.DeleteServiceSpecificCredential(ctx, user, id)
	r.clients.Listings.Forget(user)
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		diagnostics.AddKeyDeleteError(&resp.Diagnostics, user, id, err)
		return
	}
	// The key's mark stays on its user: recovery's sweepStaleMarks says
	// why, and when it goes.
}

// ImportState takes `<user_name>/<service_specific_credential_id>`, or an
// identity with both (and account_id and region when they are the
// provider's). The key's value cannot be read, so service_api_key_value
// stays null.
func (r *serviceSpecificCredentialResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	user, id, ok := strings.Cut(req.ID, "/")
	if req.ID == "" {
		ident, imported := keyIdentityType.Import(ctx, r.clients, req.Identity, func(id resourceidentity.Identity) string {
			return fmt.Sprintf("key %s/%s", id.Attrs["user_name"], id.Attrs["service_specific_credential_id"])
		}, &resp.Diagnostics)
		if !imported {
			return
		}
		user, id, ok = ident.Attrs["user_name"], ident.Attrs["service_specific_credential_id"], true
		resp.Diagnostics.Append(resourceidentity.Set(ctx, resp.Identity, ident)...)
	}
	if !ok || !validUserName(user) || rules.CredentialID.CheckString(id) != nil {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Import a key as <user_name>/<service_specific_credential_id>, for example alice/ACCAEXAMPLE234567ABCDE, or by an identity with both; got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), user+"/"+id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("user_name"), user)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("service_specific_credential_id"), id)...)
}

// flattenCredential copies what the service reports; the key value is
// handled by the callers, since only Create and Reset return it.
func flattenCredential(c *identityclient.ServiceSpecificCredential, m *serviceSpecificCredentialModel) {
	m.ID = types.StringValue(c.UserName + "/" + c.ServiceSpecificCredentialID)
	m.UserName = types.StringValue(c.UserName)
	m.ServiceName = types.StringValue(c.ServiceName)
	m.ServiceSpecificCredentialID = types.StringValue(c.ServiceSpecificCredentialID)
	m.Status = types.StringValue(c.Status)
	m.CreateDate = types.StringValue(c.CreateDate.UTC().Format(time.RFC3339))
	if c.ExpirationDate.IsZero() {
		m.ExpirationDate = types.StringNull()
		m.CredentialAgeDays = customtypes.NewInt64Null()
	} else {
		m.ExpirationDate = types.StringValue(c.ExpirationDate.UTC().Format(time.RFC3339))
		m.CredentialAgeDays = customtypes.NewInt64Value(int64(math.Round(c.ExpirationDate.Sub(c.CreateDate).Hours() / 24)))
	}
}
