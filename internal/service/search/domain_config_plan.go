package search

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// planChange runs the spec's rules that need no call, then a dry run of the
// planned change, and puts what the service says into the plan. Its steps,
// in order, are the methods of planning below. c reads the domain and runs
// the dry run; h hands it on.
func planChange(ctx context.Context, c *searchclient.Client, h handoff, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	p := &planning{c: c, h: h, req: req, resp: resp}
	if !p.start(ctx) || !p.readCurrent(ctx) {
		return
	}
	checkImmutable(req.Config.Raw, p.current, p.domain, p.diags())
	if p.diags().HasError() {
		return
	}
	p.compare(ctx)
	if p.ch.empty() && !p.ch.unknown {
		p.planNoChange(ctx)
		return
	}
	if p.dryRunDeferred(ctx) {
		return
	}
	p.planDryRun(ctx)
}

// planning is one plan in progress.
type planning struct {
	c *searchclient.Client
	// h hands this plan's dry run on (handoff.go).
	h    handoff
	req  resource.ModifyPlanRequest
	resp *resource.ModifyPlanResponse
	set  settings
	// domain is the domain's name, known.
	domain string
	// current is what the configuration is compared with: the state, or
	// at creation the domain's configuration as the service has it now;
	// changeID and status name its latest change.
	current          tftypes.Value
	changeID, status types.String
	ch               change
}

// diags are the plan's diagnostics.
func (p *planning) diags() *diag.Diagnostics { return &p.resp.Diagnostics }

// creating reports a plan that creates the resource (adopts the domain).
func (p *planning) creating() bool { return p.req.State.Raw.IsNull() }

// start forgets any earlier plan's dry run (only a dry run of this plan
// may stand for the change at apply) and reads the settings; false when
// the plan can go no further (domain_name unknown).
func (p *planning) start(ctx context.Context) bool {
	p.diags().Append(forgetReviewed(ctx, p.resp.Private)...)
	var set settings
	p.diags().Append(tfmodel.GetAttributes(ctx, p.req.Plan, &set)...)
	if p.diags().HasError() {
		return false
	}
	if set.DomainName.IsUnknown() {
		p.diags().AddAttributeWarning(path.Root("domain_name"), "Dry Run Deferred to Apply",
			"domain_name is known only after apply, so the plan cannot read the domain or run a dry run of the change; dry_run is unknown. "+deferredNote)
		return false
	}
	p.set, p.domain = set, set.DomainName.ValueString()
	return true
}

// readCurrent sets what the configuration is compared with.
func (p *planning) readCurrent(ctx context.Context) bool {
	if p.creating() {
		return p.readDomain(ctx)
	}
	p.current = p.req.State.Raw
	p.diags().Append(p.req.State.GetAttribute(ctx, path.Root("change_id"), &p.changeID)...)
	p.diags().Append(p.req.State.GetAttribute(ctx, path.Root("config_change_status"), &p.status)...)
	// A policy or a time the configuration spells differently (key order,
	// whitespace, number spelling; another offset) but means the same as
	// the state's is no change: plan the state's text, which Terraform
	// accepts as equivalent to the configuration's, so adopting a matching
	// domain (import) plans nothing.
	if kept, err := shape.KeepEquivalent(p.req.Plan.Raw, p.req.Config.Raw, p.req.State.Raw); err == nil {
		p.resp.Plan.Raw = kept
	}
	return true
}

// readDomain reads the domain a creation adopts. Sections the
// configuration leaves out are not unknown in the plan: they are what the
// domain has now, and stay so.
func (p *planning) readDomain(ctx context.Context) bool {
	live, err := findDomainConfig(ctx, p.c, p.domain, p.req.Plan.Raw)
	if errors.Is(err, errDomainNotFound) {
		p.diags().AddAttributeError(path.Root("domain_name"), "Search Domain Not Found",
			diagnostics.NoSearchDomain(p.domain))
		return false
	}
	if err != nil {
		p.diags().AddWarning("Unable to Read Search Domain Configuration",
			fmt.Sprintf("The plan cannot compare the configuration with domain %q or run a dry run, so dry_run is unknown: %s", p.domain, err))
		return false
	}
	current, err := tfvalue.WithAttributes(p.req.Plan.Raw, live.sections)
	if err == nil {
		p.resp.Plan.Raw, err = shape.FillSections(p.req.Plan.Raw, p.req.Config.Raw, live.sections)
	}
	if err != nil {
		p.diags().AddError("Unable to Plan Search Domain Config", "Filling the plan from the domain's configuration failed; this is a bug in the provider: "+err.Error())
		return false
	}
	p.diags().Append(p.resp.Plan.SetAttribute(ctx, path.Root("id"), p.domain)...)
	p.current = current
	p.changeID, p.status = nullIfEmpty(live.latestChange), nullIfEmpty(live.latestStatus)
	return true
}

// compare sets the change: the sections that differ from current, and the
// write-only password when its version changed. A change found running is
// reported with what apply will do about it.
func (p *planning) compare(ctx context.Context) {
	var priorVersion customtypes.Int64 // null at creation
	if !p.creating() {
		p.diags().Append(p.req.State.GetAttribute(ctx, path.Root("master_user_password_wo_version"), &priorVersion)...)
	}
	p.ch = changeOf(p.req.Config.Raw, p.current, p.set.woChanged(priorVersion))
	if searchclient.ChangeRunning(p.status.ValueString()) {
		p.diags().AddWarning("Search Domain Change Still Running", runningNote(p.domain, p.changeID.ValueString(), p.status.ValueString(), p.ch, p.foundAtImport(ctx)))
	}
}

// foundAtImport reports whether the state's latest change is the one the
// import found on the domain (someone else's).
func (p *planning) foundAtImport(ctx context.Context) bool {
	return !p.creating() && importFound(ctx, p.req.Private, p.changeID.ValueString())
}

// planNoChange plans nothing to send: the last applied change's dry run
// in state stays (refresh keeps it too); a running change's status is
// unknown when apply waits for it. Apply does not wait for a change an
// import found (someone else's): its status stays as read.
func (p *planning) planNoChange(ctx context.Context) {
	status := p.status
	if searchclient.ChangeRunning(status.ValueString()) && p.set.WaitForCompletion.ValueBool() && !p.foundAtImport(ctx) {
		status = types.StringUnknown()
	}
	dryRun := dryRunCleared()
	if !p.creating() {
		p.diags().Append(p.req.State.GetAttribute(ctx, path.Root("dry_run"), &dryRun)...)
	}
	p.setComputed(ctx, dryRun, p.changeID, status)
}

// dryRunDeferred plans a change the plan cannot dry-run (dry_run_mode
// unknown, or a configured value unknown) or must not (dry_run_mode Off);
// false when the plan runs its dry run.
func (p *planning) dryRunDeferred(ctx context.Context) bool {
	switch {
	case p.set.DryRunMode.IsUnknown():
		p.diags().AddAttributeWarning(path.Root("dry_run_mode"), "Dry Run Deferred to Apply",
			fmt.Sprintf("dry_run_mode is known only after apply, so the plan runs no dry run of the change to domain %q; dry_run is unknown. %s", p.domain, deferredNote))
		p.setComputed(ctx, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
	case p.set.DryRunMode.ValueString() == dryRunModeOff:
		p.setComputed(ctx, dryRunOff(), types.StringUnknown(), types.StringUnknown())
	case p.ch.unknown:
		p.diags().AddWarning("Dry Run Deferred to Apply",
			fmt.Sprintf("Some configured values of domain %q are known only after apply, so the plan cannot run a dry run of the change; dry_run is unknown. %s", p.domain, deferredNote))
		p.setComputed(ctx, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
	default:
		return false
	}
	return true
}

// planDryRun runs the plan's own dry run of the change and hands it on
// (handOn), or, in the plan Terraform makes at apply, takes the reviewed
// plan's (reuseDryRun); it reports the verdict and hands it to apply in
// the private state.
func (p *planning) planDryRun(ctx context.Context) {
	in, err := changeRequest(ctx, p.req.Config, p.set, p.ch)
	if err != nil {
		p.diags().AddError("Unable to Plan Search Domain Config", "Building the dry run's request failed; this is a bug in the provider: "+err.Error())
		return
	}
	dr := p.reuseDryRun(ctx, in)
	if dr == nil {
		dr = p.runDryRun(ctx, in)
		p.handOn(ctx, in, dr)
	}
	if dr == nil || p.stopIfChangedSinceRead(ctx, dr) {
		return
	}
	reportDryRun(dr, p.set, p.domain, p.diags())
	p.setComputed(ctx, dr.plannedObject(), types.StringUnknown(), types.StringUnknown())
	// Apply sends this request without a dry run of its own only while the
	// service shows no change since this one (sendReviewed).
	p.diags().Append(handReviewed(ctx, p.resp.Private, dr, in)...)
}

// runDryRun dry-runs in; nil when there is no verdict, with the reason
// reported: the service refuses the change (an error), or gave no answer
// (a warning, and dry_run unknown).
func (p *planning) runDryRun(ctx context.Context, in *searchclient.UpdateDomainConfigInput) *dryRunResult {
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	dr, err := dryRun(dctx, p.c, asDryRun(in, p.set.DryRunMode.ValueString()))
	switch {
	case err == nil:
		tflog.Info(ctx, "Search domain dry run", map[string]any{
			"domain_name": p.domain, "dry_run_id": dr.id, "deployment_type": dr.deploymentType, "status": dr.status,
			"sections": p.ch.names(), "validation_failures": len(dr.failures),
		})
		return dr
	case isRefusal(err):
		p.diags().AddError("Search Domain Change Refused",
			fmt.Sprintf("The service refuses the planned change to domain %q, so apply would fail too. Fix the configuration and plan again.\n\n%s", p.domain, err))
	default:
		p.diags().AddWarning("Dry Run Unavailable",
			fmt.Sprintf("The plan could not run a dry run of the change to domain %q, so dry_run is unknown and the plan does not show the deployment type or validation failures. %s\n\n%s", p.domain, deferredNote, err))
		p.setComputed(ctx, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
	}
	return nil
}

// stopIfChangedSinceRead stops the plan when the domain changed since
// Terraform last read it in what this change sets (changedSinceRead): at
// apply Terraform plans again from the prior state the reviewed plan's
// refresh read, and that plan's verdict cannot be assumed (domain_read.go):
// the dry run dr analysed another starting point than the reviewed plan's
// did. Never at creation.
func (p *planning) stopIfChangedSinceRead(ctx context.Context, dr *dryRunResult) bool {
	if p.creating() {
		return false
	}
	changed, live := changedSinceRead(ctx, p.c, readDomainRead(ctx, p.req.Private), p.domain, p.req.State.Raw, p.ch.sections, dr.after, dr.afterRunning)
	if len(changed) == 0 {
		return false
	}
	latest := "no change"
	if live.latestChange != "" {
		latest = fmt.Sprintf("change %s (%s)", live.latestChange, live.latestStatus)
	}
	verdict := dr.verdict().String()
	if dr.deploymentType == searchclient.DeploymentTypeNone {
		verdict += " (the domain already has what this change sets, as if someone made the same change)"
	}
	p.diags().AddError("Search Domain Changed Since the Plan", fmt.Sprintf("Domain %q changed after Terraform last read it (in the refresh of this plan; for a plan made with -refresh=false, at the last apply or refresh): its latest change is now %s, and it changed %s, which this change sets. "+
		"The diff and verdict the plan showed were worked out against the domain as Terraform read it, so they can no longer be assumed: a dry run (%s) of the same change now says %s.\n\n"+
		"Nothing was sent. Run terraform plan again, with refresh (the default), to review the change against the domain as it is now, then apply that plan.",
		p.domain, latest, strings.Join(changed, ", "), dr.id, verdict))
	return true
}

// setComputed sets the plan's computed results.
func (p *planning) setComputed(ctx context.Context, dryRun types.Object, changeID, status types.String) {
	p.diags().Append(p.resp.Plan.SetAttribute(ctx, path.Root("dry_run"), dryRun)...)
	p.diags().Append(p.resp.Plan.SetAttribute(ctx, path.Root("change_id"), changeID)...)
	p.diags().Append(p.resp.Plan.SetAttribute(ctx, path.Root("config_change_status"), status)...)
}

// runningNote is the plan's word on a change found running: what apply
// will do about it.
func runningNote(domain, changeID, status string, ch change, atImport bool) string {
	if atImport && ch.empty() && !ch.unknown {
		return fmt.Sprintf("Change %s on domain %q, found running when it was imported, is still running (%s). Nothing differs from the configuration, so apply sends nothing and does not wait for it; the next refresh records its status.", changeID, domain, status)
	}
	head := fmt.Sprintf("Change %s on domain %q is still running (%s). Apply follows it to its end before anything else.", changeID, domain, status)
	if ch.empty() && !ch.unknown {
		return head + " Nothing else differs from the configuration, so nothing is sent again: the values it is applying are already in the plan."
	}
	return head + " Then it compares the configuration with the domain as that change left it; what still differs is sent only after apply dry-runs it again and the service's verdict is the one this plan shows (otherwise apply stops and asks for a new plan)."
}

// checkImmutable applies the rules that need no call.
func checkImmutable(config, current tftypes.Value, domain string, diags *diag.Diagnostics) {
	cfg, cur := tfvalue.Attributes(config), tfvalue.Attributes(current)
	v, now := tfvalue.KnownString(cfg["engine_mode"]), tfvalue.KnownString(cur["engine_mode"])
	if v != "" && now != "" && v != now {
		diags.AddAttributeError(path.Root("engine_mode"), "Engine Mode Cannot Change",
			fmt.Sprintf("Domain %q was created with engine_mode %s, and the engine mode cannot be changed after a domain is created. Set engine_mode = %q or remove it.", domain, now, now))
	}
	v, now = tfvalue.KnownString(cfg["ip_address_type"]), tfvalue.KnownString(cur["ip_address_type"])
	if v != "" && now == searchclient.IPAddressTypeDualstack && v != searchclient.IPAddressTypeDualstack {
		diags.AddAttributeError(path.Root("ip_address_type"), "IP Address Type Cannot Go Back",
			fmt.Sprintf("Domain %q uses dualstack, and a domain set to dualstack cannot be changed back to %s. Set ip_address_type = \"dualstack\" or remove it.", domain, v))
	}
	checkDedicatedMasters(tfvalue.Attributes(cfg["cluster_config"]), tfvalue.Attributes(cur["cluster_config"]), domain, diags)
}

// checkDedicatedMasters refuses a dedicated master count that the
// configuration sets, or that dedicated_master_enabled = true meets on the
// domain, which is not allowed with dedicated masters enabled
// (rules.DedicatedMasterCountAllowed), each value the configuration's
// where it sets one, else the domain's. The service's dry run would fail
// with CRIT_DEDICATED_MASTER_COUNT_INVALID; this says so before any call,
// whatever dry_run_mode.
func checkDedicatedMasters(cfg, cur map[string]tftypes.Value, domain string, diags *diag.Diagnostics) {
	_, setsCount := tfvalue.KnownValue(cfg["dedicated_master_count"])
	_, setsEnabled := tfvalue.KnownValue(cfg["dedicated_master_enabled"])
	if !setsCount && !setsEnabled {
		return
	}
	pick := func(name string) tftypes.Value {
		if v, ok := tfvalue.KnownValue(cfg[name]); ok {
			return v
		}
		if v, ok := tfvalue.KnownValue(cur[name]); ok {
			return v
		}
		return tftypes.Value{}
	}
	enabledV, countV := pick("dedicated_master_enabled"), pick("dedicated_master_count")
	var enabled bool
	var count big.Float
	if enabledV.Type() == nil || countV.Type() == nil || enabledV.As(&enabled) != nil || countV.As(&count) != nil {
		return
	}
	n, acc := count.Int64()
	if acc != big.Exact || rules.DedicatedMasterCountAllowed(enabled, n) {
		return
	}
	at := path.Root("cluster_config").AtName("dedicated_master_count")
	if !setsCount {
		at = path.Root("cluster_config").AtName("dedicated_master_enabled")
	}
	diags.AddAttributeError(at, "Invalid Dedicated Master Count",
		fmt.Sprintf("With dedicated master nodes enabled, domain %q needs dedicated_master_count = %s, not %d; the service would refuse the change (CRIT_DEDICATED_MASTER_COUNT_INVALID). Set cluster_config.dedicated_master_count to %s.",
			domain, rules.Alternatives(rules.DedicatedMasterCountsEnabled), n, rules.Alternatives(rules.DedicatedMasterCountsEnabled)))
}

// isRefusal tells an answer that refuses the request itself (the change is
// wrong) from a failure to get an answer (network, permissions, outage).
func isRefusal(err error) bool {
	for _, k := range []error{client.ErrValidation, client.ErrInvalidType, client.ErrLimitExceeded, client.ErrNotFound, client.ErrBase, client.ErrDisabledOperation} {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}
