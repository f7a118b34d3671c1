package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

var (
	_ resource.ResourceWithConfigure   = (*domainConfigResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*domainConfigResource)(nil)
	_ resource.ResourceWithImportState = (*domainConfigResource)(nil)
	_ resource.ResourceWithIdentity    = (*domainConfigResource)(nil)
)

// NewDomainConfigResource is the factory of cloud_search_domain_config.
func NewDomainConfigResource() resource.Resource { return &domainConfigResource{} }

type domainConfigResource struct {
	clients *conns.Clients
}

func (r *domainConfigResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_search_domain_config"
	resp.ResourceBehavior = resourceidentity.Behavior
}

func (r *domainConfigResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = domainConfigSchema(ctx)
}

// IdentitySchema is the resource identity: domain_name, region, account_id
// (domain_config_identity.go).
func (r *domainConfigResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = domainIdentityType.Schema()
}

func (r *domainConfigResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan plans the change (domain_config_plan.go): the spec's rules
// that need no call, then a dry run of the planned change, whose verdict
// the plan shows.
func (r *domainConfigResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.AddWarning("Destroy Only Stops Managing the Domain Configuration",
			"Destroying cloud_search_domain_config removes it from state and changes nothing on the domain: the domain and its configuration stay as they are.")
		return
	}
	if r.clients == nil || r.clients.Search == nil {
		return // the provider is not configured yet (validation)
	}
	planChange(withPasswords(ctx, req.Config), r.clients.Search, handoffOf(r.clients), req, resp)
}

// Create adopts the domain: it applies the configured sections that differ
// from the domain's configuration, and waits for the change.
func (r *domainConfigResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx = withPasswords(ctx, req.Config)
	var set settings
	resp.Diagnostics.Append(tfmodel.GetAttributes(ctx, req.Plan, &set)...)
	if resp.Diagnostics.HasError() {
		return
	}
	domain := set.DomainName.ValueString()
	// The identity first: an apply that stops in its wait still saves state.
	if resp.Diagnostics.Append(domainIdentityType.Write(ctx, r.clients, nil, domainIdentity(domain, r.clients.Region), domainWhat(domain), resp.Identity)...); resp.Diagnostics.HasError() {
		return
	}
	live, err := findDomainConfig(ctx, r.clients.Search, domain, req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("domain_name"), "Unable to Create Search Domain Config", readError(domain, err))
		return
	}
	timeout, d := set.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	ar := applyRequest{config: req.Config, set: set, plan: req.Plan, timeout: timeout, woChanged: set.woChanged(customtypes.Int64{}),
		review: review{planned: plannedVerdict(ctx, req.Plan)}, private: resp.Private}
	if err := ar.compare(live); err != nil {
		resp.Diagnostics.AddError("Unable to Create Search Domain Config", "Comparing the configuration with the domain failed; this is a bug in the provider: "+err.Error())
		return
	}
	applyChange(ctx, r.clients, ar, result{changeID: live.latestChange, status: live.latestStatus, actual: live}, &resp.State, &resp.Diagnostics)
}

// Read refreshes the sections from DescribeDomainConfig, with the pending
// values of a running change, and records the domain's latest change.
func (r *domainConfigResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx = withPasswords(ctx, req.State)
	var domain types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("domain_name"), &domain)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A state of another region or account is refused before any read: the
	// provider would read a domain of the same name elsewhere.
	what := domainWhat(domain.ValueString())
	prior := domainIdentityType.CheckRefresh(ctx, r.clients, req.Identity, what, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if resp.Diagnostics.Append(domainIdentityType.WriteRefresh(ctx, r.clients, prior, domainIdentity(domain.ValueString(), r.clients.Region), what, resp.Identity)...); resp.Diagnostics.HasError() {
		return
	}
	live, err := findDomainConfig(ctx, r.clients.Search, domain.ValueString(), req.State.Raw)
	if errors.Is(err, errDomainNotFound) {
		tflog.Warn(ctx, "Search domain is gone, removing its configuration from state", map[string]any{"domain_name": domain.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Search Domain Config", readError(domain.ValueString(), err))
		return
	}
	if resp.Diagnostics.Append(readInto(ctx, &resp.State, domain.ValueString(), live)...); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(recordRead(ctx, resp.Private, live)...)
	r.clients.Refreshed.Add(domain.ValueString())
	resp.Diagnostics.Append(recordImportedChange(ctx, resp.Private, live)...)
	if live.running != "" {
		tflog.Info(ctx, "Search domain change running", map[string]any{"domain_name": domain.ValueString(), "change_id": live.running, "config_change_status": live.latestStatus})
	}
}

func (r *domainConfigResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx = withPasswords(ctx, req.Config)
	var set settings
	resp.Diagnostics.Append(tfmodel.GetAttributes(ctx, req.Plan, &set)...)
	var was recorded
	resp.Diagnostics.Append(tfmodel.GetAttributes(ctx, req.State, &was)...)
	if resp.Diagnostics.HasError() {
		return
	}
	what := domainWhat(set.DomainName.ValueString())
	prior := domainIdentityType.CheckPrior(ctx, r.clients, req.Identity, what, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if resp.Diagnostics.Append(domainIdentityType.Write(ctx, r.clients, prior, domainIdentity(set.DomainName.ValueString(), r.clients.Region), what, resp.Identity)...); resp.Diagnostics.HasError() {
		return
	}
	timeout, d := set.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	ar := applyRequest{
		config: req.Config, set: set, plan: req.Plan, prior: &req.State, timeout: timeout,
		woChanged: set.woChanged(was.WOVersion),
		review:    review{planned: plannedVerdict(ctx, req.Plan), handed: readReviewed(ctx, req.Private)},
		private:   resp.Private,
	}
	ar.ch = changeOf(req.Config.Raw, req.State.Raw, ar.woChanged)
	resp.Diagnostics.Append(forgetReviewed(ctx, resp.Private)...)
	applyChange(ctx, r.clients, ar, result{changeID: was.ChangeID.ValueString(), status: was.Status.ValueString()}, &resp.State, &resp.Diagnostics)
}

// Delete stops managing the configuration; it changes nothing remotely.
func (r *domainConfigResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var domain types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("domain_name"), &domain)...)
	resp.Diagnostics.AddWarning("Search Domain Configuration No Longer Managed",
		fmt.Sprintf("Terraform no longer manages the configuration of domain %q. Nothing was changed on the domain: it keeps its current configuration.", domain.ValueString()))
}

// ImportState takes the domain's name, or an identity (Terraform 1.12+)
// whose region and account, when set, must be the provider's.
func (r *domainConfigResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if name == "" {
		id, diags := resourceidentity.Get(ctx, req.Identity)
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
		if id != nil {
			name = id.Attrs["domain_name"]
		}
	}
	if err := searchclient.ValidDomainName(name); err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("Import a domain configuration by the domain's name (the import ID, or domain_name in an identity): %s", err))
		return
	}
	if req.ID == "" {
		id, ok := domainIdentityType.Import(ctx, r.clients, req.Identity, func(resourceidentity.Identity) string { return domainWhat(name) }, &resp.Diagnostics)
		if !ok {
			return
		}
		resp.Diagnostics.Append(resourceidentity.Set(ctx, resp.Identity, id)...)
	} else if resp.Diagnostics.Append(domainIdentityType.Write(ctx, r.clients, &resourceidentity.Identity{}, domainIdentity(name, r.clients.Region), domainWhat(name), resp.Identity)...); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setImported(ctx, &resp.State, name)...)
	resp.Diagnostics.Append(markImported(ctx, resp.Private)...)
}

// readInto lays the domain as read over st: its sections, and its latest
// change. Read and the list resource (include_resource) share it.
func readInto(ctx context.Context, st *tfsdk.State, domain string, live *domainState) diag.Diagnostics {
	var diags diag.Diagnostics
	raw, err := tfvalue.WithAttributes(st.Raw, live.sections)
	if err != nil {
		diags.AddError("Unable to Read Search Domain Config", "Building the state failed; this is a bug in the provider: "+err.Error())
		return diags
	}
	st.Raw = raw
	diags.Append(st.SetAttribute(ctx, path.Root("id"), domain)...)
	// The last applied change's dry run stays: a refresh that cleared it
	// would be reported as drift by plan -refresh-only. After an import
	// there is none.
	var dryRun types.Object
	diags.Append(st.GetAttribute(ctx, path.Root("dry_run"), &dryRun)...)
	if dryRun.IsNull() || dryRun.IsUnknown() {
		diags.Append(st.SetAttribute(ctx, path.Root("dry_run"), dryRunCleared())...)
	}
	if live.latestChange != "" {
		diags.Append(st.SetAttribute(ctx, path.Root("change_id"), live.latestChange)...)
		diags.Append(st.SetAttribute(ctx, path.Root("config_change_status"), live.latestStatus)...)
	}
	return diags
}

// setImported sets what an import knows before the first read: the name,
// and the settings at their defaults.
func setImported(ctx context.Context, st *tfsdk.State, name string) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.Append(st.SetAttribute(ctx, path.Root("domain_name"), name)...)
	diags.Append(st.SetAttribute(ctx, path.Root("id"), name)...)
	diags.Append(st.SetAttribute(ctx, path.Root("allow_blue_green"), true)...)
	diags.Append(st.SetAttribute(ctx, path.Root("dry_run_mode"), searchclient.DryRunModeVerbose)...)
	diags.Append(st.SetAttribute(ctx, path.Root("wait_for_completion"), true)...)
	return diags
}

// withPasswords returns ctx whose API answers are scrubbed of the master
// user password that g (the configuration, or the state at refresh) sets,
// in either attribute, so that no run of 12 of its characters a service
// quotes (in a dry run's validation failures, a change stage's
// description) reaches a diagnostic, the log, the plan or the state. The
// password may be unknown or absent; then there is nothing to scrub.
func withPasswords(ctx context.Context, g tfmodel.AttributeGetter) context.Context {
	var pw, wo types.String
	_ = g.GetAttribute(ctx, path.Root("advanced_security_options").AtName("master_user_options").AtName("master_user_password"), &pw)
	_ = g.GetAttribute(ctx, path.Root("master_user_password_wo"), &wo)
	return client.WithSecrets(ctx, pw.ValueString(), wo.ValueString())
}
