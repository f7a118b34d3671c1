package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

var (
	_ resource.ResourceWithConfigure   = (*domainConfigResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*domainConfigResource)(nil)
	_ resource.ResourceWithImportState = (*domainConfigResource)(nil)
)

// Default waits for a change to complete.
const (
	defaultCreateTimeout = 90 * time.Minute
	defaultUpdateTimeout = 90 * time.Minute
)

// Resources lists the service's resources.
func Resources() []func() resource.Resource {
	return []func() resource.Resource{NewDomainConfigResource}
}

// NewDomainConfigResource is the factory of cloud_search_domain_config.
func NewDomainConfigResource() resource.Resource { return &domainConfigResource{} }

type domainConfigResource struct {
	clients *conns.Clients
}

func (r *domainConfigResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_search_domain_config"
}

func (r *domainConfigResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = domainConfigSchema(ctx)
}

func (r *domainConfigResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

// Create adopts the domain: it applies the configured sections that differ
// from the domain's configuration, and waits for the change.
func (r *domainConfigResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var config domainConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	domain := set.DomainName.ValueString()
	// The plan made just before in this process read the domain's
	// configuration; read it only when that plan could not.
	var current *sc.DomainConfig
	if v, ok := adoptedConfig.LoadAndDelete(domain); ok {
		current = v.(*sc.DomainConfig) //nolint:forcetypeassert // only configs are stored
	} else {
		cfg, err := r.clients.Search.DescribeDomainConfig(ctx, domain)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("domain_name"), "Unable to Create Search Domain Config", readError(domain, err))
			return
		}
		current = cfg
	}
	cur := newModel(set)
	flattenDomainConfig(current, &cur)
	curRaw, diags := modelToRaw(ctx, req.Plan, &cur)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	changed, _ := changedSections(req.Config.Raw, curRaw)
	timeout, d := set.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	r.apply(ctx, applyRequest{
		config: &config, set: set, plan: req.Plan, current: current, changed: changed, woChanged: !set.WOVersion.IsNull(),
		timeout: timeout, creating: true,
	}, &resp.State, &resp.Diagnostics)
}

func (r *domainConfigResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state domainConfigModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	domain := state.DomainName.ValueString()
	cfg, err := r.clients.Search.DescribeDomainConfig(ctx, domain)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "Search domain is gone, removing its configuration from state", map[string]any{"domain_name": domain})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Search Domain Config", readError(domain, err))
		return
	}
	// While a change this resource made is still running, the service
	// reports the old values as active: keep the submitted ones, so the plan
	// neither shows the change again nor sends it twice.
	if d := cfg.ChangeProgressDetails; d != nil && d.ChangeId != nil && *d.ChangeId == state.ChangeID.ValueString() {
		state.ConfigChangeStatus = types.StringValue(deref(d.ConfigChangeStatus))
	}
	if !changeInFlight(state.ConfigChangeStatus) {
		flattenDomainConfig(cfg, &state)
	}
	state.ID = state.DomainName
	if state.ChangeID.IsNull() && cfg.ChangeProgressDetails != nil && cfg.ChangeProgressDetails.ChangeId != nil {
		// After import: the domain's latest change.
		state.ChangeID = types.StringValue(*cfg.ChangeProgressDetails.ChangeId)
		state.ConfigChangeStatus = types.StringValue(deref(cfg.ChangeProgressDetails.ConfigChangeStatus))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *domainConfigResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var config, state domainConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	changed, _ := changedSections(req.Config.Raw, req.State.Raw)
	woChanged := !set.WOVersion.IsNull() && !set.WOVersion.Equal(state.MasterUserPasswordWOVersion)
	timeout, d := set.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	r.apply(ctx, applyRequest{
		config: &config, set: set, plan: req.Plan, prior: &state, changed: changed, woChanged: woChanged, timeout: timeout,
	}, &resp.State, &resp.Diagnostics)
}

// Delete stops managing the configuration; it changes nothing remotely.
func (r *domainConfigResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var domain types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("domain_name"), &domain)...)
	resp.Diagnostics.AddWarning("Search Domain Configuration No Longer Managed",
		fmt.Sprintf("Terraform no longer manages the configuration of domain %q. Nothing was changed on the domain: it keeps its current configuration.", domain.ValueString()))
}

func (r *domainConfigResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if err := sc.ValidDomainName(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("Import a domain configuration by the domain's name: %s", err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("domain_name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("allow_blue_green"), true)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("dry_run_mode"), "Verbose")...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("wait_for_completion"), true)...)
}

// applyRequest is what Create and Update hand to apply.
type applyRequest struct {
	config    *domainConfigModel
	set       settings
	plan      tfsdk.Plan
	prior     *domainConfigModel // nil at creation
	current   *sc.DomainConfig   // the domain's configuration, at creation
	changed   map[string]bool
	woChanged bool
	timeout   time.Duration
	creating  bool
}

// result is what apply learned, to be written into the state.
type result struct {
	changeID, status string
	actual           *sc.DomainConfig
}

// apply sends the changed sections, waits for the change, and writes the
// state. When the wait is cut short the state is still written, with the
// submitted values and the change id, so nothing is lost and the next plan
// sees the change in flight.
func (r *domainConfigResource) apply(ctx context.Context, ar applyRequest, state *tfsdk.State, diags *diag.Diagnostics) {
	domain := ar.set.DomainName.ValueString()
	summary := "Unable to Update Search Domain Config"
	if ar.creating {
		summary = "Unable to Create Search Domain Config"
	}
	res := result{actual: ar.current}
	if ar.prior != nil {
		res.changeID, res.status = ar.prior.ChangeID.ValueString(), ar.prior.ConfigChangeStatus.ValueString()
	}
	inFlight := ar.prior != nil && changeInFlight(ar.prior.ConfigChangeStatus)
	var submitted time.Time // when this apply sent a change

	if len(ar.changed) > 0 || ar.woChanged {
		if inFlight {
			// The service takes one change at a time: let the running one end.
			p, err := r.wait(ctx, domain, res.changeID, time.Time{}, ar.timeout)
			if err != nil {
				r.stopped(ctx, ar, res, p, err, state, diags, summary)
				return
			}
		}
		in := expandRequest(ctx, ar.config, ar.changed)
		withWriteOnlyPassword(in, ar.config, ar.woChanged)
		in.AcceptedWarnings = stringSlice(ctx, ar.set.AcceptedWarnings)
		submitted = time.Now()
		upd, err := r.clients.Search.UpdateDomainConfig(ctx, in)
		out := updateOutcome{UpdateDomainConfigOutput: upd}
		if errors.Is(err, client.ErrOutcomeUnknown) {
			out, err = r.recoverLostUpdate(ctx, domain, previousChangeID(ar), err)
		}
		if err != nil {
			diags.AddError(summary, updateError(domain, err))
			return
		}
		res.actual = out.DomainConfig
		res.changeID, res.status = "", ""
		if d := out.DomainConfig; d != nil && d.ChangeProgressDetails != nil {
			res.changeID, res.status = deref(d.ChangeProgressDetails.ChangeId), deref(d.ChangeProgressDetails.ConfigChangeStatus)
		}
		if out.recovered {
			// The domain's sections still show the old values while the
			// change runs; the wait and the read after it settle them.
			res.actual = nil
		}
		inFlight = res.changeID != ""
		tflog.Info(ctx, "Search domain change submitted", map[string]any{"domain_name": domain, "change_id": res.changeID, "sections": sortedKeys(ar.changed)})
	}
	if inFlight && ar.set.WaitForCompletion.ValueBool() {
		p, err := r.wait(ctx, domain, res.changeID, submitted, ar.timeout)
		if err != nil {
			r.stopped(ctx, ar, res, p, err, state, diags, summary)
			return
		}
		res.status = deref(p.ConfigChangeStatus)
	}
	if res.actual == nil {
		cfg, err := r.clients.Search.DescribeDomainConfig(ctx, domain)
		if err != nil {
			diags.AddError(summary, readError(domain, err))
			return
		}
		res.actual = cfg
	}
	r.writeState(ctx, ar, res, state, diags)
}

// previousChangeID is the id of the domain's latest change before this
// apply sent its own.
func previousChangeID(ar applyRequest) string {
	if ar.prior != nil {
		return ar.prior.ChangeID.ValueString()
	}
	if ar.current != nil && ar.current.ChangeProgressDetails != nil {
		return deref(ar.current.ChangeProgressDetails.ChangeId)
	}
	return ""
}

// updateOutcome is an UpdateDomainConfig answer, or what a read taught
// after the answer was lost.
type updateOutcome struct {
	*sc.UpdateDomainConfigOutput
	recovered bool
}

// recoverLostUpdate learns what became of a change whose answer was lost:
// the service starts a change with a new id for every change it accepts, so
// a new latest change is this one (the service takes one change at a time,
// and the plan's dry run checked none was running). No new change means
// nothing was applied, and the next apply sends it again. The service may
// still be handling the request, so the read is repeated for up to one
// attempt's timeout.
func (r *domainConfigResource) recoverLostUpdate(ctx context.Context, domain, before string, lost error) (updateOutcome, error) {
	window := r.clients.Config.AttemptTimeout
	if window <= 0 {
		window = client.DefaultAttemptTimeout
	}
	deadline := time.Now().Add(window)
	for {
		cfg, err := r.clients.Search.DescribeDomainConfig(ctx, domain)
		if err != nil {
			return updateOutcome{}, fmt.Errorf("%w; reading the domain to learn the outcome also failed: %w", lost, err)
		}
		if d := cfg.ChangeProgressDetails; d != nil && deref(d.ChangeId) != "" && deref(d.ChangeId) != before {
			tflog.Warn(ctx, "UpdateDomainConfig answer lost; the domain shows the change, following it", map[string]any{"domain_name": domain, "change_id": deref(d.ChangeId)})
			return updateOutcome{UpdateDomainConfigOutput: &sc.UpdateDomainConfigOutput{DomainConfig: cfg}, recovered: true}, nil
		}
		if time.Now().After(deadline) {
			return updateOutcome{}, fmt.Errorf("%w; the domain shows no new change %s after the request, so nothing was applied: apply again", lost, window)
		}
		select {
		case <-ctx.Done():
			return updateOutcome{}, fmt.Errorf("%w: %w", lost, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// wait follows a change within timeout.
func (r *domainConfigResource) wait(ctx context.Context, domain, changeID string, submitted time.Time, timeout time.Duration) (*sc.ChangeProgressStatus, error) {
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return waitForChange(wctx, r.clients.Search, domain, changeID, submitted)
}

// stopped handles a wait that ended without the change completing: the
// change failed, the timeout ran out, or Terraform was interrupted.
func (r *domainConfigResource) stopped(ctx context.Context, ar applyRequest, res result, p *sc.ChangeProgressStatus, err error, state *tfsdk.State, diags *diag.Diagnostics, summary string) {
	domain := ar.set.DomainName.ValueString()
	if p != nil && p.ConfigChangeStatus != nil {
		res.status = *p.ConfigChangeStatus
	}
	var failed *changeFailedError
	if errors.As(err, &failed) {
		// ChangeProgressStatus has no message; the domain's change details do.
		why := ""
		if cfg, rerr := r.clients.Search.DescribeDomainConfig(ctx, domain); rerr == nil && cfg.ChangeProgressDetails != nil &&
			deref(cfg.ChangeProgressDetails.ChangeId) == res.changeID && deref(cfg.ChangeProgressDetails.Message) != "" {
			why = "\n\nThe service says: " + deref(cfg.ChangeProgressDetails.Message)
		}
		diags.AddError(summary, fmt.Sprintf("Change %s on domain %q failed: %s%s\n\nNothing of the change was applied. Fix the cause, then apply again to send the change anew.", res.changeID, domain, failed, why))
		if ar.prior != nil {
			// The failed change applied nothing: keep the previous values,
			// with the failed change's id and status.
			prior := *ar.prior
			prior.ChangeID, prior.ConfigChangeStatus = types.StringValue(res.changeID), types.StringValue(res.status)
			diags.Append(state.Set(ctx, &prior)...)
		}
		return
	}
	if !changeInFlight(types.StringValue(res.status)) {
		res.status = sc.ConfigChangeStatusPending
	}
	progress := ""
	if p != nil {
		progress = progressSummary(p)
	}
	detail := fmt.Sprintf("Apply stopped waiting for change %s on domain %q (%s) %s. The change goes on; the state holds it, and the next apply waits for it without sending it again.", res.changeID, domain, errMessage(err), progress)
	if ar.creating {
		// An error here would taint the resource and plan its replacement; a
		// warning keeps it, and the next plan shows the wait.
		diags.AddWarning("Search Domain Change Still Running", detail)
	} else {
		diags.AddError(summary, detail+" Raise timeouts.update to wait longer.")
	}
	r.writeState(context.WithoutCancel(ctx), ar, res, state, diags)
}

// writeState writes the plan with its computed results, every other
// unknown value filled from the domain's configuration as last seen.
func (r *domainConfigResource) writeState(ctx context.Context, ar applyRequest, res result, state *tfsdk.State, outer *diag.Diagnostics) {
	// Own diagnostics: the state is written even after an error was reported.
	var diags diag.Diagnostics
	defer func() { outer.Append(diags...) }()
	domain := ar.set.DomainName.ValueString()
	planned := tfsdk.State{Schema: ar.plan.Schema, Raw: ar.plan.Raw.Copy()}
	var dryRun types.Object
	diags.Append(planned.GetAttribute(ctx, path.Root("dry_run"), &dryRun)...)
	diags.Append(planned.SetAttribute(ctx, path.Root("id"), domain)...)
	diags.Append(planned.SetAttribute(ctx, path.Root("dry_run"), withDryRunID(dryRun, domain, &diags))...)
	diags.Append(planned.SetAttribute(ctx, path.Root("change_id"), nullIfEmpty(res.changeID))...)
	diags.Append(planned.SetAttribute(ctx, path.Root("config_change_status"), nullIfEmpty(res.status))...)

	got := newModel(ar.set)
	if ar.prior != nil {
		got.AdvancedSecurityOptions = ar.prior.AdvancedSecurityOptions
	}
	if res.actual != nil {
		flattenDomainConfig(res.actual, &got)
	}
	actual, d := modelToRaw(ctx, ar.plan, &got)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	merged, err := fillUnknown(planned.Raw, actual)
	if err != nil {
		diags.AddError("Unable to Save Search Domain Config", "Building the new state failed; this is a bug in the provider: "+err.Error())
		return
	}
	state.Raw = merged
}

func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// withDryRunID fills in dry_run.id with the id of the dry run that the
// plan made in this provider process (Terraform plans again just before it
// applies, so that is the dry run of exactly what is applied).
func withDryRunID(dr types.Object, domain string, diags *diag.Diagnostics) types.Object {
	if dr.IsNull() || dr.IsUnknown() {
		return dryRunNull()
	}
	attrs := dr.Attributes()
	if v, ok := attrs["id"]; ok && v.IsUnknown() {
		attrs["id"] = types.StringNull()
		if id, ok := lastDryRun.Load(domain); ok {
			attrs["id"] = types.StringValue(id.(string)) //nolint:forcetypeassert // only strings are stored
		}
	}
	obj, d := types.ObjectValue(dryRunAttrTypes, attrs)
	diags.Append(d...)
	return obj
}

func progressSummary(p *sc.ChangeProgressStatus) string {
	done := 0
	current := ""
	for _, s := range p.ChangeProgressStages {
		switch deref(s.Status) {
		case sc.ChangeStatusCompleted:
			done++
		case sc.ChangeStatusProcessing:
			current = deref(s.Name)
		}
	}
	out := fmt.Sprintf("after %d of %d stages", done, derefInt(p.TotalNumberOfStages))
	if current != "" {
		out += ", in stage " + current
	}
	return out
}

func errMessage(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the timeout ran out"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	}
	return err.Error()
}

func readError(domain string, err error) string {
	if errors.Is(err, client.ErrNotFound) {
		return fmt.Sprintf("There is no search domain %q. cloud_search_domain_config manages the configuration of an existing domain; check domain_name.\n\n%s", domain, err)
	}
	return fmt.Sprintf("Reading the configuration of domain %q failed: %s", domain, err)
}

func updateError(domain string, err error) string {
	switch {
	case errors.Is(err, client.ErrOutcomeUnknown):
		return fmt.Sprintf("The change to domain %q was sent but its answer was lost: %s\n\nIf in doubt, run terraform plan: it reads the domain and shows what is left to do.", domain, err)
	case errors.Is(err, client.ErrLimitExceeded):
		return fmt.Sprintf("The service refused the change to domain %q: %s\n\nIf another change is running, wait for it (data source cloud_search_domain_change_progress shows it) and apply again.", domain, err)
	case errors.Is(err, client.ErrValidation):
		return fmt.Sprintf("The service refused the change to domain %q: %s\n\nIf the plan's dry run was clean, the service's verdict changed since the plan; plan again to review it.", domain, err)
	}
	return fmt.Sprintf("Updating the configuration of domain %q failed: %s", domain, err)
}
