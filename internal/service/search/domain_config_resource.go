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
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
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
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	domain := set.DomainName.ValueString()
	ds, err := findDomainConfig(ctx, r.clients.Search, domain, req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("domain_name"), "Unable to Create Search Domain Config", readError(domain, err))
		return
	}
	timeout, d := set.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	ar := applyRequest{config: req.Config, set: set, plan: req.Plan, timeout: timeout, creating: true, woChanged: set.woChanged(customtypes.Int64{}),
		verdict: plannedVerdict(ctx, req.Plan), private: resp.Private}
	if err := ar.compare(ds); err != nil {
		resp.Diagnostics.AddError("Unable to Create Search Domain Config", "Comparing the configuration with the domain failed; this is a bug in the provider: "+err.Error())
		return
	}
	r.apply(ctx, ar, result{changeID: ds.latestChange, status: ds.latestStatus, actual: ds}, &resp.State, &resp.Diagnostics)
}

// Read refreshes the sections from DescribeDomainConfig, with the pending
// values of a running change, and records the domain's latest change.
func (r *domainConfigResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var domain types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("domain_name"), &domain)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ds, err := findDomainConfig(ctx, r.clients.Search, domain.ValueString(), req.State.Raw)
	if errors.Is(err, errDomainNotFound) {
		tflog.Warn(ctx, "Search domain is gone, removing its configuration from state", map[string]any{"domain_name": domain.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Search Domain Config", readError(domain.ValueString(), err))
		return
	}
	raw, err := shape.WithAttributes(req.State.Raw, ds.sections)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Search Domain Config", "Building the state failed; this is a bug in the provider: "+err.Error())
		return
	}
	resp.State.Raw = raw
	resp.Diagnostics.Append(recordRead(ctx, resp.Private, ds)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), domain)...)
	// The last applied change's dry run stays: a refresh that cleared it
	// would be reported as drift by plan -refresh-only. After an import
	// there is none.
	var dryRun types.Object
	resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root("dry_run"), &dryRun)...)
	if dryRun.IsNull() || dryRun.IsUnknown() {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("dry_run"), dryRunCleared())...)
	}
	if ds.latestChange != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("change_id"), ds.latestChange)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("config_change_status"), ds.latestStatus)...)
	}
	if ds.running != "" {
		tflog.Info(ctx, "Search domain change running", map[string]any{"domain_name": domain.ValueString(), "change_id": ds.running, "config_change_status": ds.latestStatus})
	}
}

func (r *domainConfigResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	var changeID, status types.String
	var priorVersion customtypes.Int64
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("change_id"), &changeID)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("config_change_status"), &status)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("master_user_password_wo_version"), &priorVersion)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := set.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	ar := applyRequest{
		config: req.Config, set: set, plan: req.Plan, prior: &req.State, timeout: timeout,
		woChanged: set.woChanged(priorVersion),
		verdict:   plannedVerdict(ctx, req.Plan), reviewed: readReviewed(ctx, req.Private),
		private: resp.Private,
	}
	ar.ch = changeOf(req.Config.Raw, req.State.Raw, ar.woChanged)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateReviewed, nil)...)
	r.apply(ctx, ar, result{changeID: changeID.ValueString(), status: status.ValueString()}, &resp.State, &resp.Diagnostics)
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
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("dry_run_mode"), sc.DryRunModeVerbose)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("wait_for_completion"), true)...)
}

// applyRequest is what Create and Update hand to apply.
type applyRequest struct {
	config    tfsdk.Config
	set       settings
	plan      tfsdk.Plan
	prior     *tfsdk.State // nil at creation
	ch        change
	woChanged bool
	timeout   time.Duration
	creating  bool
	// verdict is what the plan's dry run showed (nil when it showed none);
	// reviewed is that dry run as the plan handed it over (Update gets the
	// planned private state; Create does not). sendReviewed uses both.
	verdict  *verdict
	reviewed *reviewedDryRun
	// private is where writeState records the domain as apply last saw
	// it (domain_read.go).
	private privateSetter
}

// compare sets the change to send: the sections whose configured values
// differ from the domain's.
func (ar *applyRequest) compare(ds *domainState) error {
	current, err := shape.WithAttributes(ar.plan.Raw, ds.sections)
	if err != nil {
		return err
	}
	ar.ch = changeOf(ar.config.Raw, current, ar.woChanged)
	return nil
}

// result is what apply learned, to be written into the state.
type result struct {
	changeID, status string
	actual           *domainState
	// dryRun is the dry run that stands for the change sent, if any.
	dryRun *dryRunResult
}

// apply follows a change found running (it is adopted, never sent again),
// sends the sections that still differ, waits for the change, and writes
// the state. When the wait is cut short the state is still written, with
// the submitted values and the change id, so nothing is lost and the next
// plan sees the change in flight.
func (r *domainConfigResource) apply(ctx context.Context, ar applyRequest, res result, state *tfsdk.State, diags *diag.Diagnostics) {
	domain := ar.set.DomainName.ValueString()
	summary := "Unable to Update Search Domain Config"
	if ar.creating {
		summary = "Unable to Create Search Domain Config"
	}
	var submitted time.Time // when this apply sent a change
	for adopted := false; ; adopted = true {
		send := !ar.ch.empty()
		if sc.ChangeRunning(res.status) && (send || ar.set.WaitForCompletion.ValueBool()) {
			// The service takes one change at a time: follow the running one
			// to its end, then compare again with where it left the domain.
			tflog.Info(ctx, "Following a running search domain change", map[string]any{"domain_name": domain, "change_id": res.changeID})
			p, err := r.wait(ctx, domain, res.changeID, time.Time{}, ar.timeout)
			if err != nil {
				r.stopped(ctx, ar, res, p, err, state, diags, summary)
				return
			}
			ds, err := findDomainConfig(ctx, r.clients.Search, domain, ar.plan.Raw)
			if err == nil {
				err = ar.compare(ds)
			}
			if err != nil {
				diags.AddError(summary, readError(domain, err))
				return
			}
			res = result{changeID: ds.latestChange, status: ds.latestStatus, actual: ds}
			send = !ar.ch.empty()
		}
		if !send {
			break
		}
		in, err := changeRequest(ctx, ar.config, ar.set, ar.ch)
		if err != nil {
			diags.AddError(summary, "Building the request failed; this is a bug in the provider: "+err.Error())
			return
		}
		submitted = time.Now()
		out, used, err := r.sendReviewed(ctx, &ar, in)
		if ns, ok := asNotSent(err); ok {
			diags.AddError(summary, ns.detail)
			if ar.prior != nil {
				// Nothing was sent: the state stays as it was.
				*state = tfsdk.State{Schema: ar.prior.Schema, Raw: ar.prior.Raw.Copy()}
			}
			return
		}
		if errors.Is(err, client.ErrOutcomeUnknown) {
			var ds *domainState
			if ds, err = r.recoverLostUpdate(ctx, domain, res.changeID, err, ar.plan.Raw); err == nil {
				res = result{changeID: ds.latestChange, status: ds.latestStatus, actual: ds, dryRun: used}
				break
			}
		}
		if errors.Is(err, client.ErrLimitExceeded) && !adopted {
			// A change started since the plan (another apply, the console):
			// follow it first, then send what is still different, after
			// sendReviewed dry-runs it again (the domain changed since the
			// plan's dry run).
			if ds, ferr := findDomainConfig(ctx, r.clients.Search, domain, ar.plan.Raw); ferr == nil && ds.running != "" {
				tflog.Warn(ctx, "Another search domain change is running; following it before sending this one", map[string]any{"domain_name": domain, "change_id": ds.running})
				res = result{changeID: ds.running, status: ds.latestStatus, actual: ds}
				continue
			}
		}
		if err != nil {
			diags.AddError(summary, updateError(domain, err))
			return
		}
		ds, err := newDomainState(out.DomainConfig, ar.plan.Raw)
		if err != nil {
			diags.AddError(summary, fmt.Sprintf("The change to domain %q was sent, but its answer could not be read: %s. Run terraform plan: it reads the domain and shows what is left to do.", domain, err))
			return
		}
		res = result{changeID: ds.latestChange, status: ds.latestStatus, actual: ds, dryRun: used}
		tflog.Info(ctx, "Search domain change submitted", map[string]any{"domain_name": domain, "change_id": res.changeID, "sections": sortedKeys(ar.ch.sections)})
		break
	}
	if sc.ChangeRunning(res.status) && ar.set.WaitForCompletion.ValueBool() {
		p, err := r.wait(ctx, domain, res.changeID, submitted, ar.timeout)
		if err != nil {
			r.stopped(ctx, ar, res, p, err, state, diags, summary)
			return
		}
		res.status = sc.Deref(p.ConfigChangeStatus)
	}
	if res.actual == nil {
		ds, err := findDomainConfig(ctx, r.clients.Search, domain, ar.plan.Raw)
		if err != nil {
			diags.AddError(summary, readError(domain, err))
			return
		}
		res.actual = ds
	}
	r.writeState(ctx, ar, res, state, diags)
}

// recoverLostUpdate learns what became of a change whose answer was lost:
// the service starts a change with a new id for every change it accepts, so
// a new latest change is this one (the service takes one change at a time,
// and a running change was followed to its end before sending). No new
// change means nothing was applied, and the next apply sends it again. The
// service may still be handling the request, so the read is repeated for up
// to one attempt's timeout.
func (r *domainConfigResource) recoverLostUpdate(ctx context.Context, domain, before string, lost error, prior tftypes.Value) (*domainState, error) {
	window := r.clients.Config.WithDefaults().AttemptTimeout
	wctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	var found *domainState
	err := poll.Until(wctx, func(ctx context.Context) (bool, time.Duration, error) {
		ds, err := findDomainConfig(ctx, r.clients.Search, domain, prior)
		if err != nil {
			return false, 0, err
		}
		if ds.latestChange != "" && ds.latestChange != before {
			found = ds
			return true, 0, nil
		}
		return false, 250 * time.Millisecond, nil
	})
	switch {
	case found != nil:
		tflog.Warn(ctx, "UpdateDomainConfig answer lost; the domain shows the change, following it", map[string]any{"domain_name": domain, "change_id": found.latestChange})
		return found, nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%w: %w", lost, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("%w; the domain shows no new change %s after the request, so nothing was applied: apply again", lost, window)
	}
	return nil, fmt.Errorf("%w; reading the domain to learn the outcome also failed: %w", lost, err)
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
		if dc, rerr := r.clients.Search.DescribeDomainConfig(ctx, domain); rerr == nil && changeID(dc.ChangeProgressDetails) == res.changeID {
			if m := sc.Deref(dc.ChangeProgressDetails.Message); m != "" {
				why = "\n\nThe service says: " + m
			}
		}
		diags.AddError(summary, fmt.Sprintf("Change %s on domain %q failed: %s%s\n\nNothing of the change was applied. Fix the cause, then apply again to send the change anew.", res.changeID, domain, failed, why))
		if ar.prior != nil {
			// The failed change applied nothing: keep the previous values,
			// with the failed change's id and status.
			*state = tfsdk.State{Schema: ar.prior.Schema, Raw: ar.prior.Raw.Copy()}
			diags.Append(state.SetAttribute(ctx, path.Root("change_id"), res.changeID)...)
			diags.Append(state.SetAttribute(ctx, path.Root("config_change_status"), res.status)...)
		}
		return
	}
	if !sc.ChangeRunning(res.status) {
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
	diags.Append(planned.SetAttribute(ctx, path.Root("dry_run"), appliedDryRun(dryRun, res.dryRun))...)
	diags.Append(planned.SetAttribute(ctx, path.Root("change_id"), nullIfEmpty(res.changeID))...)
	diags.Append(planned.SetAttribute(ctx, path.Root("config_change_status"), nullIfEmpty(res.status))...)
	if diags.HasError() {
		return
	}
	actual := planned.Raw
	if res.actual != nil {
		var err error
		if actual, err = shape.WithAttributes(planned.Raw, res.actual.sections); err != nil {
			diags.AddError("Unable to Save Search Domain Config", "Building the new state failed; this is a bug in the provider: "+err.Error())
			return
		}
	}
	merged, err := shape.FillUnknown(planned.Raw, actual)
	if err != nil {
		diags.AddError("Unable to Save Search Domain Config", "Building the new state failed; this is a bug in the provider: "+err.Error())
		return
	}
	*state = tfsdk.State{Schema: planned.Schema, Raw: merged}
	// A plan made with -refresh=false compares the domain with this: the
	// domain as apply last saw it, with the change as apply left it.
	var seen *domainState
	if res.actual != nil {
		s := *res.actual
		s.latestChange, s.latestStatus, s.running = res.changeID, res.status, ""
		if sc.ChangeRunning(res.status) {
			s.running = res.changeID
		}
		seen = &s
	}
	diags.Append(recordRead(ctx, ar.private, seen)...)
}

// appliedDryRun is dry_run in state after apply: the dry run that stands
// for the change sent (its verdict is the planned one, sendReviewed made
// sure), whole; else the planned one, what it left unknown null.
func appliedDryRun(planned types.Object, used *dryRunResult) types.Object {
	if planned.IsNull() {
		return dryRunCleared()
	}
	if used != nil && (planned.IsUnknown() || attrString(planned.Attributes()["mode"]) == used.mode) {
		return used.object()
	}
	return planned
}

func attrString(v any) string {
	if s, ok := v.(types.String); ok {
		return s.ValueString()
	}
	return ""
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
	if errors.Is(err, errDomainNotFound) {
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
