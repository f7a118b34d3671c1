package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
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
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || set.DomainName.IsUnknown() {
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
		raw, err := withAttributes(req.Plan.Raw, ds.sections)
		if err == nil {
			// Sections the configuration leaves out are not unknown: they
			// are what the domain has now, and stay so.
			resp.Plan.Raw, err = fillSections(req.Plan.Raw, ds.sections)
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
	}
	checkImmutable(req.Config.Raw, current, domain, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	changed, unknown := changedSections(req.Config.Raw, current)
	var priorVersion customtypes.Int64 // null at creation
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("master_user_password_wo_version"), &priorVersion)...)
	}
	woChanged := set.woChanged(priorVersion)
	if woChanged {
		changed["advanced_security_options"] = true
	}

	running := sc.ChangeRunning(status.ValueString())
	if running {
		// Apply follows the change before anything else: a change a killed
		// or timed-out apply left running is adopted, never sent again.
		resp.Diagnostics.AddWarning("Search Domain Change Still Running",
			fmt.Sprintf("Change %s on domain %q is still running (%s). Apply follows it to its end before anything else, and nothing is sent again: the values it is applying are already in the plan.", changeID.ValueString(), domain, status.ValueString()))
	}
	if len(changed) == 0 && !unknown {
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
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	case mode == dryRunModeOff:
		setComputed(ctx, resp, dryRunOff(), types.StringUnknown(), types.StringUnknown())
		return
	case unknown:
		resp.Diagnostics.AddWarning("Dry Run Skipped",
			fmt.Sprintf("Some configured values of domain %q are known only after apply, so the plan cannot run a dry run of the change; dry_run is unknown.", domain))
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	}

	in, err := updateRequest(ctx, req.Config, set, changed, woChanged)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Plan Search Domain Config", "Building the dry run's request failed; this is a bug in the provider: "+err.Error())
		return
	}
	in.DryRun, in.DryRunMode = ptr(true), ptr(mode)
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	dr, err := r.dryRun(dctx, in, changeID.ValueString())
	if err != nil {
		if isRefusal(err) {
			resp.Diagnostics.AddError("Search Domain Change Refused",
				fmt.Sprintf("The service refuses the planned change to domain %q, so apply would fail too. Fix the configuration and plan again.\n\n%s", domain, err))
			return
		}
		resp.Diagnostics.AddWarning("Dry Run Unavailable",
			fmt.Sprintf("The plan could not run a dry run of the change to domain %q, so dry_run is unknown and the plan does not show the deployment type or validation failures. Apply still refuses a change the service refuses.\n\n%s", domain, err))
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	}
	tflog.Info(ctx, "Search domain dry run", map[string]any{
		"domain_name": domain, "dry_run_id": dr.id, "reused": dr.reused, "deployment_type": dr.deploymentType, "status": dr.status,
		"sections": sortedKeys(changed), "validation_failures": len(dr.failures),
	})
	reportDryRun(dr, set, domain, &resp.Diagnostics)
	resp.Diagnostics.AddWarning("Dry Run of the Planned Change", dr.summary(domain, set.acceptedCodes()))
	setComputed(ctx, resp, dr.object(types.StringUnknown()), types.StringUnknown(), types.StringUnknown())
	// The plan holds the id as unknown (a repeat dry run gets a new one);
	// Update records it from the planned private state.
	id, _ := json.Marshal(dr.id)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateDryRunID, id)...)
}

// privateDryRunID is the planned private state's key for the id of the
// plan's dry run.
const privateDryRunID = "dry_run_id"

// setComputed sets the plan's computed results.
func setComputed(ctx context.Context, resp *resource.ModifyPlanResponse, dryRun types.Object, changeID, status types.String) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("dry_run"), dryRun)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("change_id"), changeID)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("config_change_status"), status)...)
}

// updateRequest is UpdateDomainConfig of the changed sections as the
// configuration sets them, with the accepted warnings, and the write-only
// password when its version changed.
func updateRequest(ctx context.Context, config tfsdk.Config, set settings, changed map[string]bool, woChanged bool) (*sc.UpdateDomainConfigInput, error) {
	secs, err := requestSections(config.Raw, changed)
	if err != nil {
		return nil, err
	}
	if woChanged {
		var pw types.String
		if diags := config.GetAttribute(ctx, path.Root("master_user_password_wo"), &pw); diags.HasError() {
			return nil, fmt.Errorf("reading master_user_password_wo: %v", diags)
		}
		if !pw.IsNull() && !pw.IsUnknown() {
			aso, _ := secs["AdvancedSecurityOptions"].(map[string]any)
			if aso == nil {
				aso = map[string]any{}
			}
			mu, _ := aso["MasterUserOptions"].(map[string]any)
			if mu == nil {
				mu = map[string]any{}
			}
			mu["MasterUserPassword"] = pw.ValueString()
			aso["MasterUserOptions"] = mu
			secs["AdvancedSecurityOptions"] = aso
		}
	}
	return &sc.UpdateDomainConfigInput{
		DomainName:       set.DomainName.ValueString(),
		Sections:         secs,
		AcceptedWarnings: stringList(ctx, set.AcceptedWarnings),
	}, nil
}

// checkImmutable applies the spec's rules that need no call.
func checkImmutable(config, current tftypes.Value, domain string, diags *diag.Diagnostics) {
	cfg, cur := attributes(config), attributes(current)
	v, now := knownString(cfg["engine_mode"]), knownString(cur["engine_mode"])
	if v != "" && now != "" && v != now {
		diags.AddAttributeError(path.Root("engine_mode"), "Engine Mode Cannot Change",
			fmt.Sprintf("Domain %q was created with engine_mode %s, and the engine mode cannot be changed after a domain is created. Set engine_mode = %q or remove it.", domain, now, now))
	}
	v, now = knownString(cfg["ip_address_type"]), knownString(cur["ip_address_type"])
	if v != "" && now == sc.IPAddressTypeDualstack && v != sc.IPAddressTypeDualstack {
		diags.AddAttributeError(path.Root("ip_address_type"), "IP Address Type Cannot Go Back",
			fmt.Sprintf("Domain %q uses dualstack, and a domain set to dualstack cannot be changed back to %s. Set ip_address_type = \"dualstack\" or remove it.", domain, v))
	}
}

// knownString is a known string value, else "".
func knownString(v tftypes.Value) string {
	var s string
	if v.Type() == nil || !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
		return ""
	}
	return s
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
	// reused: the verdict was read back from an earlier dry run of the same
	// change rather than run again.
	reused bool
}

// dryRun gets the service's verdict on in: read back from the domain's
// latest dry run when that one analysed the same change (see
// findReusableDryRun), else from a new dry run, waited for.
func (r *domainConfigResource) dryRun(ctx context.Context, in *sc.UpdateDomainConfigInput, latestChange string) (*dryRunResult, error) {
	mode := sc.Deref(in.DryRunMode)
	if out := findReusableDryRun(ctx, r.clients.Search, in, latestChange); out != nil {
		dr := newDryRunResult(mode, out.DryRunProgressStatus, out.DryRunResults, out.DryRunConfig.ModifyingProperties)
		dr.reused = true
		return dr, nil
	}
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
	if up.DomainConfig != nil {
		props = up.DomainConfig.ModifyingProperties
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
	return newDryRunResult(mode, status, results, props), nil
}

func newDryRunResult(mode string, status *sc.DryRunProgressStatus, results *sc.DryRunResults, props []sc.ModifyingProperty) *dryRunResult {
	dr := &dryRunResult{
		mode: mode, id: sc.Deref(status.DryRunId), status: sc.Deref(status.DryRunStatus),
		failures:   append([]sc.ValidationFailure(nil), status.ValidationFailures...),
		properties: append([]sc.ModifyingProperty(nil), props...),
	}
	if results != nil {
		dr.deploymentType, dr.message = sc.Deref(results.DeploymentType), sc.Deref(results.Message)
	}
	sort.SliceStable(dr.failures, func(i, j int) bool { return sc.Deref(dr.failures[i].Code) < sc.Deref(dr.failures[j].Code) })
	sort.SliceStable(dr.properties, func(i, j int) bool { return sc.Deref(dr.properties[i].Name) < sc.Deref(dr.properties[j].Name) })
	return dr
}

// object is the dry_run attribute; the id is passed in because the plan
// holds it as unknown (a repeat dry run gets a new id).
func (dr *dryRunResult) object(id types.String) types.Object {
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
		if sensitiveProperty(name) {
			active, pending = types.StringValue(sensitiveValue), types.StringValue(sensitiveValue)
		}
		props = append(props, types.ObjectValueMust(propertyAttrTypes, map[string]attr.Value{
			"name": types.StringValue(name), "active_value": active, "pending_value": pending, "value_type": types.StringPointerValue(p.ValueType),
		}))
	}
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id":                   id,
		"mode":                 types.StringValue(dr.mode),
		"status":               types.StringValue(dr.status),
		"deployment_type":      types.StringValue(dr.deploymentType),
		"message":              types.StringValue(dr.message),
		"validation_failures":  types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures),
		"modifying_properties": types.ListValueMust(types.ObjectType{AttrTypes: propertyAttrTypes}, props),
	})
}

// summary is the dry run in a few lines, shown as a warning with every
// plan of a change: the plan's diff shows only what differs from the
// previous dry run (a dynamic change after a dynamic change hides the
// deployment type as unchanged), and a reviewer must see the verdict.
func (dr *dryRunResult) summary(domain string, accepted map[string]bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Dry run %s (%s) of the change to domain %q: deployment type %s", dr.id, dr.mode, domain, dr.deploymentType)
	switch {
	case dr.mode == sc.DryRunModeBasic:
		b.WriteString("; nothing validated (dry_run_mode Basic).")
	case len(dr.failures) == 0:
		b.WriteString("; no validation failures.")
	default:
		b.WriteString("; validation failures:")
		for i, f := range dr.failures {
			code := sc.Deref(f.Code)
			note := ""
			if accepted[code] {
				note = ", accepted"
			}
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %s (%s%s)", sep, code, sc.Deref(f.Severity), note)
		}
		b.WriteString(".")
	}
	for _, p := range dr.properties {
		name := sc.Deref(p.Name)
		switch {
		case sensitiveProperty(name):
			fmt.Fprintf(&b, "\n  %s: %s", name, sensitiveValue)
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

// reportDryRun turns the dry run into the plan's diagnostics.
func reportDryRun(dr *dryRunResult, set settings, domain string, diags *diag.Diagnostics) {
	accepted := set.acceptedCodes()
	ref := fmt.Sprintf("Dry run %s of domain %q", dr.id, domain)
	if dr.status == sc.DryRunStatusFailed {
		diags.AddWarning("Dry Run Failed", fmt.Sprintf("%s finished with status failed: %s", ref, dr.message))
	}
	for _, f := range dr.failures {
		code, msg, sev := sc.Deref(f.Code), sc.Deref(f.Message), sc.Deref(f.Severity)
		switch {
		case sev == sc.SeverityAdvisory && accepted[code]:
			diags.AddWarning("Accepted Dry Run Warning",
				fmt.Sprintf("%s warns %s: %s\n\nThe code is in accepted_warnings, so apply goes ahead.", ref, code, msg))
		case sev == sc.SeverityAdvisory:
			diags.AddAttributeError(path.Root("accepted_warnings"), "Unaccepted Dry Run Warning",
				fmt.Sprintf("%s warns %s: %s\n\nThe service refuses a change with an Advisory warning that is not accepted. If the change is intended, accept it by adding %q to accepted_warnings, then plan again.", ref, code, msg, code))
		case sev == sc.SeverityCritical:
			diags.AddError("Dry Run Found a Critical Failure",
				fmt.Sprintf("%s fails %s: %s\n\nCritical failures cannot be accepted; the service would refuse the change. Change the configuration.", ref, code, msg))
		default:
			diags.AddError("Dry Run Found a Failure of Unknown Severity",
				fmt.Sprintf("%s reports %s with severity %q, which this provider does not know, so it blocks the plan like a Critical failure: %s", ref, code, sev, msg))
		}
	}
	switch dr.deploymentType {
	case sc.DeploymentTypeDynamic, sc.DeploymentTypeNone:
	case sc.DeploymentTypeBlueGreen:
		if set.AllowBlueGreen.ValueBool() {
			diags.AddWarning("Change Deploys Blue/Green",
				fmt.Sprintf("%s says this change is applied by a blue/green deployment: a new environment is built and the data copied, which can take hours. %s", ref, dr.message))
		} else {
			diags.AddAttributeError(path.Root("allow_blue_green"), "Blue/Green Deployment Not Allowed",
				fmt.Sprintf("%s says this change is applied by a blue/green deployment, and allow_blue_green is false. Change something that deploys dynamically, or set allow_blue_green = true. %s", ref, dr.message))
		}
	default:
		detail := fmt.Sprintf("%s reports deployment type %q, which this provider does not know; treat it as possibly blue/green. %s", ref, dr.deploymentType, dr.message)
		if set.AllowBlueGreen.ValueBool() {
			diags.AddWarning("Unknown Deployment Type", detail)
		} else {
			diags.AddAttributeError(path.Root("allow_blue_green"), "Unknown Deployment Type", detail+" allow_blue_green is false, so the plan stops.")
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
