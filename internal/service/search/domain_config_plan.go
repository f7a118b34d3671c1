package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// dryRunTimeout bounds the plan-time wait for a dry run.
const dryRunTimeout = 5 * time.Minute

// ModifyPlan runs the spec's rules that need no call, then a dry run of the
// planned change, and puts what the service says into the plan.
func (r *domainConfigResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.AddWarning("Destroy Only Stops Managing the Domain Configuration",
			"Destroying cloud_search_domain_config removes it from state and changes nothing on the domain: the domain and its configuration stay as they are.")
		return
	}
	if r.clients == nil || r.clients.Search == nil {
		return // the provider is not configured yet (validation)
	}
	// Only a dry run of this plan may stand for the change at apply.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateReviewed, nil)...)
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if set.DomainName.IsUnknown() {
		resp.Diagnostics.AddAttributeWarning(path.Root("domain_name"), "Dry Run Deferred to Apply",
			"domain_name is known only after apply, so the plan cannot read the domain or run a dry run of the change; dry_run is unknown. "+deferredNote)
		return
	}
	domain := set.DomainName.ValueString()

	// What the configuration is compared with: the state, or at creation
	// the domain's configuration as the service has it now.
	current := req.State.Raw
	var changeID, status types.String
	diags = req.State.GetAttribute(ctx, path.Root("change_id"), &changeID)
	diags.Append(req.State.GetAttribute(ctx, path.Root("config_change_status"), &status)...)
	if req.State.Raw.IsNull() {
		ds, err := findDomainConfig(ctx, r.clients.Search, domain, req.Plan.Raw)
		if errors.Is(err, errDomainNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("domain_name"), "Search Domain Not Found",
				fmt.Sprintf("There is no search domain %q. cloud_search_domain_config manages the configuration of an existing domain; check domain_name.", domain))
			return
		}
		if err != nil {
			resp.Diagnostics.AddWarning("Unable to Read Search Domain Configuration",
				fmt.Sprintf("The plan cannot compare the configuration with domain %q or run a dry run, so dry_run is unknown: %s", domain, err))
			return
		}
		raw, err := shape.WithAttributes(req.Plan.Raw, ds.sections)
		if err == nil {
			// Sections the configuration leaves out are not unknown: they
			// are what the domain has now, and stay so.
			resp.Plan.Raw, err = shape.FillSections(req.Plan.Raw, req.Config.Raw, ds.sections)
		}
		if err != nil {
			resp.Diagnostics.AddError("Unable to Plan Search Domain Config", "Filling the plan from the domain's configuration failed; this is a bug in the provider: "+err.Error())
			return
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), domain)...)
		current = raw
		changeID, status = nullIfEmpty(ds.latestChange), nullIfEmpty(ds.latestStatus)
	} else {
		resp.Diagnostics.Append(diags...)
		// A policy or a time the configuration spells differently (key
		// order, whitespace, number spelling; another offset) but means the
		// same as the state's is no change: plan the state's text, which
		// Terraform accepts as equivalent to the configuration's, so
		// adopting a matching domain (import) plans nothing.
		if kept, err := shape.KeepEquivalent(req.Plan.Raw, req.Config.Raw, req.State.Raw); err == nil {
			resp.Plan.Raw = kept
		}
	}
	checkImmutable(req.Config.Raw, current, domain, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	var priorVersion customtypes.Int64 // null at creation
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("master_user_password_wo_version"), &priorVersion)...)
	}
	ch := changeOf(req.Config.Raw, current, set.woChanged(priorVersion))

	running := sc.ChangeRunning(status.ValueString())
	if running {
		resp.Diagnostics.AddWarning("Search Domain Change Still Running", runningNote(domain, changeID.ValueString(), status.ValueString(), ch))
	}
	if ch.empty() && !ch.unknown {
		if running && set.WaitForCompletion.ValueBool() {
			status = types.StringUnknown()
		}
		// Nothing to change: the last applied change's dry run in state
		// stays (refresh keeps it too).
		dryRun := dryRunCleared()
		if !req.State.Raw.IsNull() {
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("dry_run"), &dryRun)...)
		}
		setComputed(ctx, resp, dryRun, changeID, status)
		return
	}

	mode := set.DryRunMode.ValueString()
	switch {
	case set.DryRunMode.IsUnknown():
		resp.Diagnostics.AddAttributeWarning(path.Root("dry_run_mode"), "Dry Run Deferred to Apply",
			fmt.Sprintf("dry_run_mode is known only after apply, so the plan runs no dry run of the change to domain %q; dry_run is unknown. %s", domain, deferredNote))
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	case mode == dryRunModeOff:
		setComputed(ctx, resp, dryRunOff(), types.StringUnknown(), types.StringUnknown())
		return
	case ch.unknown:
		resp.Diagnostics.AddWarning("Dry Run Deferred to Apply",
			fmt.Sprintf("Some configured values of domain %q are known only after apply, so the plan cannot run a dry run of the change; dry_run is unknown. %s", domain, deferredNote))
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	}

	in, err := changeRequest(ctx, req.Config, set, ch)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Plan Search Domain Config", "Building the dry run's request failed; this is a bug in the provider: "+err.Error())
		return
	}
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	// A plan always runs its own dry run: a verdict read back from an
	// earlier one could predate someone else's change.
	dr, err := r.dryRun(dctx, asDryRun(in, mode))
	if err != nil {
		if isRefusal(err) {
			resp.Diagnostics.AddError("Search Domain Change Refused",
				fmt.Sprintf("The service refuses the planned change to domain %q, so apply would fail too. Fix the configuration and plan again.\n\n%s", domain, err))
			return
		}
		resp.Diagnostics.AddWarning("Dry Run Unavailable",
			fmt.Sprintf("The plan could not run a dry run of the change to domain %q, so dry_run is unknown and the plan does not show the deployment type or validation failures. %s\n\n%s", domain, deferredNote, err))
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	}
	tflog.Info(ctx, "Search domain dry run", map[string]any{
		"domain_name": domain, "dry_run_id": dr.id, "deployment_type": dr.deploymentType, "status": dr.status,
		"sections": sortedKeys(ch.sections), "validation_failures": len(dr.failures),
	})
	if !req.State.Raw.IsNull() {
		// At apply Terraform plans again from the prior state the reviewed
		// plan's refresh read; if the domain changed since in what this
		// change sets, that plan's verdict cannot be assumed (domain_read.go).
		if detail := r.changedSinceRead(ctx, req.Private, req.State.Raw, domain, ch, dr); detail != "" {
			resp.Diagnostics.AddError("Search Domain Changed Since the Plan", detail)
			return
		}
	}
	reportDryRun(dr, set, domain, &resp.Diagnostics)
	setComputed(ctx, resp, dr.plannedObject(), types.StringUnknown(), types.StringUnknown())
	// Apply sends this request without a dry run of its own only while the
	// service shows no change since this one (sendReviewed).
	b, _ := json.Marshal(reviewedDryRun{ID: dr.id, Request: requestKey(in), After: dr.after})
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateReviewed, b)...)
}

// deferredNote says what apply does when the plan showed no verdict.
const deferredNote = "Apply dry-runs the change before sending it and stops without sending anything if the service's verdict is a blue/green deployment while allow_blue_green is false, or has a Critical failure or an Advisory warning whose code is not in accepted_warnings."

// runningNote is the plan's word on a change found running: what apply
// will do about it.
func runningNote(domain, changeID, status string, ch change) string {
	head := fmt.Sprintf("Change %s on domain %q is still running (%s). Apply follows it to its end before anything else.", changeID, domain, status)
	if ch.empty() && !ch.unknown {
		return head + " Nothing else differs from the configuration, so nothing is sent again: the values it is applying are already in the plan."
	}
	return head + " Then it compares the configuration with the domain as that change left it; what still differs is sent only after apply dry-runs it again and the service's verdict is the one this plan shows (otherwise apply stops and asks for a new plan)."
}

// setComputed sets the plan's computed results.
func setComputed(ctx context.Context, resp *resource.ModifyPlanResponse, dryRun types.Object, changeID, status types.String) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("dry_run"), dryRun)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("change_id"), changeID)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("config_change_status"), status)...)
}

// checkImmutable applies the rules that need no call.
func checkImmutable(config, current tftypes.Value, domain string, diags *diag.Diagnostics) {
	cfg, cur := shape.Attributes(config), shape.Attributes(current)
	v, now := shape.KnownString(cfg["engine_mode"]), shape.KnownString(cur["engine_mode"])
	if v != "" && now != "" && v != now {
		diags.AddAttributeError(path.Root("engine_mode"), "Engine Mode Cannot Change",
			fmt.Sprintf("Domain %q was created with engine_mode %s, and the engine mode cannot be changed after a domain is created. Set engine_mode = %q or remove it.", domain, now, now))
	}
	v, now = shape.KnownString(cfg["ip_address_type"]), shape.KnownString(cur["ip_address_type"])
	if v != "" && now == sc.IPAddressTypeDualstack && v != sc.IPAddressTypeDualstack {
		diags.AddAttributeError(path.Root("ip_address_type"), "IP Address Type Cannot Go Back",
			fmt.Sprintf("Domain %q uses dualstack, and a domain set to dualstack cannot be changed back to %s. Set ip_address_type = \"dualstack\" or remove it.", domain, v))
	}
	checkDedicatedMasters(shape.Attributes(cfg["cluster_config"]), shape.Attributes(cur["cluster_config"]), domain, diags)
}

// checkDedicatedMasters refuses a dedicated master count that the
// configuration sets, or that dedicated_master_enabled = true meets on the
// domain, which is not allowed with dedicated masters enabled
// (rules.DedicatedMasterCountAllowed), each value the configuration's
// where it sets one, else the domain's. The service's dry run would fail
// with CRIT_DEDICATED_MASTER_COUNT_INVALID; this says so before any call,
// whatever dry_run_mode.
func checkDedicatedMasters(cfg, cur map[string]tftypes.Value, domain string, diags *diag.Diagnostics) {
	_, setsCount := shape.KnownValue(cfg["dedicated_master_count"])
	_, setsEnabled := shape.KnownValue(cfg["dedicated_master_enabled"])
	if !setsCount && !setsEnabled {
		return
	}
	pick := func(name string) tftypes.Value {
		if v, ok := shape.KnownValue(cfg[name]); ok {
			return v
		}
		if v, ok := shape.KnownValue(cur[name]); ok {
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

// dryRunResult is what a finished dry run says.
type dryRunResult struct {
	id, mode, status, deploymentType, message string
	failures                                  []sc.ValidationFailure
	properties                                []sc.ModifyingProperty
	// after is the domain's latest change when the dry run was made, by
	// the service's record ("" for none); afterRunning, whether it was
	// still running.
	after        string
	afterRunning bool
}

// dryRun runs the dry run in and waits for its verdict.
func (r *domainConfigResource) dryRun(ctx context.Context, in *sc.UpdateDomainConfigInput) (*dryRunResult, error) {
	mode := sc.Deref(in.DryRunMode)
	submitted := time.Now()
	up, err := r.clients.Search.UpdateDomainConfig(ctx, in)
	if err != nil {
		return nil, err
	}
	status, results := up.DryRunProgressStatus, up.DryRunResults
	if status == nil || status.DryRunId == nil {
		return nil, errors.New("the service's answer to the dry run has no DryRunId")
	}
	var props []sc.ModifyingProperty
	after, afterRunning := "", false
	if up.DomainConfig != nil {
		props = up.DomainConfig.ModifyingProperties
		after = changeID(up.DomainConfig.ChangeProgressDetails)
		running, _ := up.DomainConfig.RunningChange()
		afterRunning = running != ""
	}
	if dryRunRunning(status) || (props == nil && mode == sc.DryRunModeVerbose) {
		// The planned configuration (with ModifyingProperties) is kept for
		// Verbose dry runs only.
		load := mode == sc.DryRunModeVerbose
		var started time.Time
		if dryRunRunning(status) {
			started = submitted
		}
		out, err := waitForDryRun(ctx, r.clients.Search, sc.DescribeDryRunProgressInput{DomainName: in.DomainName, DryRunID: *status.DryRunId, LoadDryRunConfig: load}, started, dryRunTimeout)
		if err != nil {
			return nil, err
		}
		if out.DryRunProgressStatus != nil {
			status = out.DryRunProgressStatus
		}
		if out.DryRunResults != nil {
			results = out.DryRunResults
		}
		if out.DryRunConfig != nil {
			props = out.DryRunConfig.ModifyingProperties
		}
	}
	dr := newDryRunResult(mode, status, results, props, after)
	dr.afterRunning = afterRunning
	return dr, nil
}

func newDryRunResult(mode string, status *sc.DryRunProgressStatus, results *sc.DryRunResults, props []sc.ModifyingProperty, after string) *dryRunResult {
	dr := &dryRunResult{
		mode: mode, id: sc.Deref(status.DryRunId), status: sc.Deref(status.DryRunStatus),
		failures:   append([]sc.ValidationFailure(nil), status.ValidationFailures...),
		properties: append([]sc.ModifyingProperty(nil), props...),
		after:      after,
	}
	if results != nil {
		dr.deploymentType, dr.message = sc.Deref(results.DeploymentType), sc.Deref(results.Message)
	}
	sort.SliceStable(dr.failures, func(i, j int) bool {
		a, b := dr.failures[i], dr.failures[j]
		if sc.Deref(a.Code) != sc.Deref(b.Code) {
			return sc.Deref(a.Code) < sc.Deref(b.Code)
		}
		return sc.Deref(a.Severity) < sc.Deref(b.Severity)
	})
	sort.SliceStable(dr.properties, func(i, j int) bool { return sc.Deref(dr.properties[i].Name) < sc.Deref(dr.properties[j].Name) })
	return dr
}

// plannedObject is dry_run as the plan holds it: only what a repeat dry
// run of the same change on the same domain reproduces (mode, status,
// deployment type, the failures' codes and severities). Terraform plans
// again at apply and refuses values that changed, so the id (new with
// every dry run), the messages (they gain a sentence while another change
// runs) and the modifying properties (their active values move with other
// people's changes) are unknown until apply; the plan's warning shows them.
func (dr *dryRunResult) plannedObject() types.Object {
	failures := make([]attr.Value, 0, len(dr.failures))
	for _, f := range dr.failures {
		failures = append(failures, types.ObjectValueMust(failureAttrTypes, map[string]attr.Value{
			"code": types.StringValue(sc.Deref(f.Code)), "message": types.StringUnknown(), "severity": types.StringValue(sc.Deref(f.Severity)),
		}))
	}
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id":                   types.StringUnknown(),
		"mode":                 types.StringValue(dr.mode),
		"status":               types.StringValue(dr.status),
		"deployment_type":      types.StringValue(dr.deploymentType),
		"message":              types.StringUnknown(),
		"validation_failures":  types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures),
		"modifying_properties": types.ListUnknown(types.ObjectType{AttrTypes: propertyAttrTypes}),
	})
}

// object is the dry_run attribute in state: the dry run that stands for
// the change apply sent, whole.
func (dr *dryRunResult) object() types.Object {
	failures := make([]attr.Value, 0, len(dr.failures))
	for _, f := range dr.failures {
		failures = append(failures, types.ObjectValueMust(failureAttrTypes, map[string]attr.Value{
			"code": types.StringValue(sc.Deref(f.Code)), "message": types.StringValue(sc.Deref(f.Message)), "severity": types.StringValue(sc.Deref(f.Severity)),
		}))
	}
	props := make([]attr.Value, 0, len(dr.properties))
	for _, p := range dr.properties {
		name := sc.Deref(p.Name)
		active, pending := types.StringPointerValue(p.ActiveValue), types.StringPointerValue(p.PendingValue)
		if shape.SensitiveProperty(name) {
			active, pending = types.StringValue(shape.SensitiveValue), types.StringValue(shape.SensitiveValue)
		}
		props = append(props, types.ObjectValueMust(propertyAttrTypes, map[string]attr.Value{
			"name": types.StringValue(name), "active_value": active, "pending_value": pending, "value_type": types.StringPointerValue(p.ValueType),
		}))
	}
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id":                   types.StringValue(dr.id),
		"mode":                 types.StringValue(dr.mode),
		"status":               types.StringValue(dr.status),
		"deployment_type":      types.StringValue(dr.deploymentType),
		"message":              types.StringValue(dr.message),
		"validation_failures":  types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures),
		"modifying_properties": types.ListValueMust(types.ObjectType{AttrTypes: propertyAttrTypes}, props),
	})
}

// summary is the plan's one warning about its dry run: the verdict, every
// validation failure with whether it is accepted, what the deployment type
// means, and what each property would become. One warning, whose title
// names the domain, so that Terraform's folding of warnings with the same
// title hides nothing; errors for what blocks the change come on their own
// (reportDryRun).
func (dr *dryRunResult) summary(domain string, set settings) string {
	accepted := set.acceptedCodes()
	var b strings.Builder
	fmt.Fprintf(&b, "Dry run %s (%s) of the change to domain %q: deployment type %s", dr.id, dr.mode, domain, dr.deploymentType)
	switch {
	case dr.mode == sc.DryRunModeBasic:
		b.WriteString("; nothing validated (dry_run_mode Basic).")
	case len(dr.failures) == 0:
		b.WriteString("; no validation failures.")
	default:
		b.WriteString("; validation failures:")
		for _, f := range dr.failures {
			code, sev := sc.Deref(f.Code), sc.Deref(f.Severity)
			note := "blocks the change"
			if sev == sc.SeverityAdvisory && accepted[code] {
				note = "accepted in accepted_warnings, so apply goes ahead"
			}
			fmt.Fprintf(&b, "\n  - %s (%s, %s): %s", code, sev, note, sc.Deref(f.Message))
		}
	}
	if dr.status == sc.DryRunStatusFailed {
		b.WriteString("\nThe dry run finished with status failed.")
	}
	switch dr.deploymentType {
	case sc.DeploymentTypeDynamic, sc.DeploymentTypeNone:
	case sc.DeploymentTypeBlueGreen:
		b.WriteString("\nA blue/green deployment builds a new environment and copies the data, which can take hours.")
	default:
		fmt.Fprintf(&b, "\nThis provider does not know deployment type %q; treat it as possibly blue/green.", dr.deploymentType)
	}
	if dr.message != "" {
		b.WriteString("\nThe service says: " + dr.message)
	}
	for _, p := range dr.properties {
		name := sc.Deref(p.Name)
		switch {
		case shape.SensitiveProperty(name):
			fmt.Fprintf(&b, "\n  %s: %s", name, shape.SensitiveValue)
		case p.ActiveValue == nil && p.PendingValue == nil:
			fmt.Fprintf(&b, "\n  %s: (value not shown by the service)", name)
		default:
			fmt.Fprintf(&b, "\n  %s: %q -> %q", name, clip(sc.Deref(p.ActiveValue)), clip(sc.Deref(p.PendingValue)))
		}
	}
	return b.String()
}

// clip shortens a long value (a policy document) for a diagnostic; the
// plan's dry_run holds it whole.
func clip(s string) string {
	const most = 120
	if r := []rune(s); len(r) > most {
		return string(r[:most]) + "…"
	}
	return s
}

// dryRunOff is dry_run when dry_run_mode is Off: the mode, and no verdict.
func dryRunOff() types.Object {
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id": types.StringNull(), "mode": types.StringValue(dryRunModeOff), "status": types.StringNull(),
		"deployment_type": types.StringNull(), "message": types.StringNull(),
		"validation_failures":  types.ListNull(types.ObjectType{AttrTypes: failureAttrTypes}),
		"modifying_properties": types.ListNull(types.ObjectType{AttrTypes: propertyAttrTypes}),
	})
}

// problem is one thing in a dry run's verdict that stops the change; at
// is the attribute to change about it (empty for none).
type problem struct {
	at              string
	summary, detail string
}

// problems lists what in the verdict stops the change under set: a
// Critical failure, an Advisory warning whose code is not accepted, a
// failure of a severity this provider does not know (it blocks like
// Critical, accepted or not), and a blue/green or unknown deployment type
// while allow_blue_green is false. Plan reports them as errors; apply,
// when it dry-runs a change the plan showed no verdict for, refuses to send
// it (sendReviewed). One home for the rules, so both agree.
func (dr *dryRunResult) problems(set settings) []problem {
	accepted := set.acceptedCodes()
	var out []problem
	for _, f := range dr.failures {
		code, msg, sev := sc.Deref(f.Code), sc.Deref(f.Message), sc.Deref(f.Severity)
		switch {
		case sev == sc.SeverityAdvisory && accepted[code]:
		case sev == sc.SeverityAdvisory:
			out = append(out, problem{"accepted_warnings", "Unaccepted Dry Run Warning",
				fmt.Sprintf("The dry run warns %s: %s\n\nThe service refuses a change with an Advisory warning that is not accepted. If the change is intended, accept it by adding %q to accepted_warnings, then plan again.", code, msg, code)})
		case sev == sc.SeverityCritical:
			out = append(out, problem{"", "Dry Run Found a Critical Failure",
				fmt.Sprintf("The dry run fails %s: %s\n\nCritical failures cannot be accepted; the service would refuse the change. Change the configuration.", code, msg)})
		default:
			out = append(out, problem{"", "Dry Run Found a Failure of Unknown Severity",
				fmt.Sprintf("The dry run reports %s with severity %q, which this provider does not know, so it blocks the change like a Critical failure: %s", code, sev, msg)})
		}
	}
	if set.AllowBlueGreen.ValueBool() {
		return out
	}
	switch dr.deploymentType {
	case sc.DeploymentTypeDynamic, sc.DeploymentTypeNone:
	case sc.DeploymentTypeBlueGreen:
		out = append(out, problem{"allow_blue_green", "Blue/Green Deployment Not Allowed",
			fmt.Sprintf("The dry run says this change is applied by a blue/green deployment, and allow_blue_green is false. Change something that deploys dynamically, or set allow_blue_green = true. %s", dr.message)})
	default:
		out = append(out, problem{"allow_blue_green", "Unknown Deployment Type",
			fmt.Sprintf("The dry run reports deployment type %q, which this provider does not know; it is treated as possibly blue/green, and allow_blue_green is false, so the change stops. %s", dr.deploymentType, dr.message)})
	}
	return out
}

// reportDryRun turns the dry run into the plan's diagnostics: one warning
// with the whole verdict (summary), and an error for each problem.
func reportDryRun(dr *dryRunResult, set settings, domain string, diags *diag.Diagnostics) {
	diags.AddWarning(fmt.Sprintf("Dry Run of the Change to Domain %q: %s", domain, dr.deploymentType), dr.summary(domain, set))
	ref := fmt.Sprintf("Dry run %s of domain %q. ", dr.id, domain)
	for _, p := range dr.problems(set) {
		if p.at != "" {
			diags.AddAttributeError(path.Root(p.at), p.summary, ref+p.detail)
		} else {
			diags.AddError(p.summary, ref+p.detail)
		}
	}
}

func sortedKeys(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func ptr[T any](v T) *T { return &v }
