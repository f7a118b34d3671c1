package search

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
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
)

// dryRunTimeout bounds the plan-time wait for a dry run.
const dryRunTimeout = 5 * time.Minute

// lastDryRun holds, per domain, the id of the latest dry run this process
// planned. Create gets no planned private state from the framework, so the
// id travels from plan to apply this way.
var lastDryRun sync.Map

// adoptedConfig holds, per domain, the configuration the plan of a creation
// read. Terraform plans again in the apply's provider process just before
// Create, so Create takes it from there instead of reading it a second
// time; it is used once.
var adoptedConfig sync.Map

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
	var config domainConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	set, diags := readSettings(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || set.DomainName.IsUnknown() {
		return
	}
	domain := set.DomainName.ValueString()

	// What the configuration is compared with: the state, or at creation
	// the domain's configuration as the service has it now.
	current := req.State.Raw
	state := newModel(set)
	if req.State.Raw.IsNull() {
		cfg, err := r.clients.Search.DescribeDomainConfig(ctx, domain)
		if errors.Is(err, client.ErrNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("domain_name"), "Search Domain Not Found",
				fmt.Sprintf("There is no search domain %q. cloud_search_domain_config manages the configuration of an existing domain; check domain_name.", domain))
			return
		}
		if err != nil {
			resp.Diagnostics.AddWarning("Unable to Read Search Domain Configuration",
				fmt.Sprintf("The plan cannot compare the configuration with domain %q or run a dry run, so dry_run is unknown: %s", domain, err))
			return
		}
		adoptedConfig.Store(domain, cfg)
		// The master user is never returned, so it is always sent when set.
		flattenDomainConfig(cfg, &state)
		raw, diags := modelToRaw(ctx, req.Plan, &state)
		resp.Diagnostics.Append(diags...)
		if diags.HasError() {
			return
		}
		current = raw
		// Sections the configuration leaves out are not unknown: they are
		// what the domain has now, and stay so.
		filled, err := fillUnknown(req.Plan.Raw, raw)
		if err != nil {
			resp.Diagnostics.AddError("Unable to Plan Search Domain Config", "Filling the plan from the domain's configuration failed; this is a bug in the provider: "+err.Error())
			return
		}
		resp.Plan.Raw = filled
	} else {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	checkImmutable(&config, &state, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	changed, unknown := changedSections(req.Config.Raw, current)
	// At creation Create sends a write-only password whenever its version
	// is set (the model built from the domain copies the version, so the
	// comparison alone would miss it).
	woChanged := !set.WOVersion.IsNull() && (req.State.Raw.IsNull() || !set.WOVersion.Equal(state.MasterUserPasswordWOVersion))
	if woChanged {
		changed["advanced_security_options"] = true
	}
	if len(changed) == 0 && !unknown {
		dryRun, status := state.DryRun, state.ConfigChangeStatus
		if dryRun.IsNull() || dryRun.IsUnknown() {
			dryRun = dryRunNull()
		}
		if changeInFlight(state.ConfigChangeStatus) && set.WaitForCompletion.ValueBool() {
			// Apply waits for the change a previous apply left running.
			status = types.StringUnknown()
			resp.Diagnostics.AddWarning("Search Domain Change Still Running",
				fmt.Sprintf("Change %s on domain %q is still running (%s). Apply waits for it to finish; nothing is sent again.", state.ChangeID.ValueString(), domain, state.ConfigChangeStatus.ValueString()))
		}
		setComputed(ctx, resp, dryRun, state.ChangeID, status)
		return
	}

	mode := set.DryRunMode.ValueString()
	if unknown || mode == "Off" || set.DryRunMode.IsUnknown() {
		if unknown && mode != "Off" {
			resp.Diagnostics.AddWarning("Dry Run Skipped",
				fmt.Sprintf("Some configured values of domain %q are known only after apply, so the plan cannot run a dry run of the change; dry_run is unknown.", domain))
		}
		setComputed(ctx, resp, types.ObjectUnknown(dryRunAttrTypes), types.StringUnknown(), types.StringUnknown())
		return
	}

	in := expandRequest(ctx, &config, changed)
	withWriteOnlyPassword(in, &config, woChanged)
	in.DryRun, in.DryRunMode = ptr(true), ptr(mode)
	in.AcceptedWarnings = stringSlice(ctx, set.AcceptedWarnings)
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	dr, err := r.dryRun(dctx, domain, in)
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
		"domain_name": domain, "dry_run_id": dr.id, "deployment_type": dr.deploymentType, "status": dr.status,
		"sections": sortedKeys(changed), "validation_failures": len(dr.failures),
	})
	reportDryRun(dr, set, domain, &resp.Diagnostics)
	lastDryRun.Store(domain, dr.id)
	setComputed(ctx, resp, dr.object(types.StringUnknown()), types.StringUnknown(), types.StringUnknown())
}

// setComputed sets the plan's computed results.
func setComputed(ctx context.Context, resp *resource.ModifyPlanResponse, dryRun types.Object, changeID, status types.String) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("dry_run"), dryRun)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("change_id"), changeID)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("config_change_status"), status)...)
}

// checkImmutable applies the spec's rules that need no call.
func checkImmutable(config, state *domainConfigModel, diags *diag.Diagnostics) {
	if v, cur := config.EngineMode, state.EngineMode; known(v) && known(cur) && v.ValueString() != cur.ValueString() {
		diags.AddAttributeError(path.Root("engine_mode"), "Engine Mode Cannot Change",
			fmt.Sprintf("Domain %q was created with engine_mode %s, and the engine mode cannot be changed after a domain is created. Set engine_mode = %q or remove it.",
				state.DomainName.ValueString(), cur.ValueString(), cur.ValueString()))
	}
	if v, cur := config.IPAddressType, state.IPAddressType; known(v) && known(cur) && cur.ValueString() == sc.IPAddressTypeDualstack && v.ValueString() != sc.IPAddressTypeDualstack {
		diags.AddAttributeError(path.Root("ip_address_type"), "IP Address Type Cannot Go Back",
			fmt.Sprintf("Domain %q uses dualstack, and a domain set to dualstack cannot be changed back to %s. Set ip_address_type = \"dualstack\" or remove it.",
				state.DomainName.ValueString(), v.ValueString()))
	}
}

func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }

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
	id, status, deploymentType, message string
	failures                            []sc.ValidationFailure
}

func (r *domainConfigResource) dryRun(ctx context.Context, domain string, in *sc.UpdateDomainConfigInput) (*dryRunResult, error) {
	submitted := time.Now()
	out, err := r.clients.Search.UpdateDomainConfig(ctx, in)
	if err != nil {
		return nil, err
	}
	status, results, err := waitForDryRun(ctx, r.clients.Search, domain, out, submitted)
	if err != nil {
		return nil, err
	}
	dr := &dryRunResult{id: deref(status.DryRunId), status: deref(status.DryRunStatus), failures: append([]sc.ValidationFailure(nil), status.ValidationFailures...)}
	if results != nil {
		dr.deploymentType, dr.message = deref(results.DeploymentType), deref(results.Message)
	}
	sort.SliceStable(dr.failures, func(i, j int) bool { return deref(dr.failures[i].Code) < deref(dr.failures[j].Code) })
	return dr, nil
}

// object is the dry_run attribute; the id is passed in because the plan
// holds it as unknown (a repeat dry run gets a new id).
func (dr *dryRunResult) object(id types.String) types.Object {
	failures := make([]attr.Value, 0, len(dr.failures))
	for _, f := range dr.failures {
		failures = append(failures, types.ObjectValueMust(failureAttrTypes, map[string]attr.Value{
			"code": types.StringValue(deref(f.Code)), "message": types.StringValue(deref(f.Message)), "severity": types.StringValue(deref(f.Severity)),
		}))
	}
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id":                  id,
		"status":              types.StringValue(dr.status),
		"deployment_type":     types.StringValue(dr.deploymentType),
		"message":             types.StringValue(dr.message),
		"validation_failures": types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures),
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
		code, msg, sev := deref(f.Code), deref(f.Message), deref(f.Severity)
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

// withWriteOnlyPassword adds the write-only master user password to a
// request when its version changed.
func withWriteOnlyPassword(in *sc.UpdateDomainConfigInput, config *domainConfigModel, changed bool) {
	if !changed || config.MasterUserPasswordWO.IsNull() || config.MasterUserPasswordWO.IsUnknown() {
		return
	}
	if in.AdvancedSecurityOptions == nil {
		in.AdvancedSecurityOptions = &sc.AdvancedSecurityOptionsInput{}
	}
	if in.AdvancedSecurityOptions.MasterUserOptions == nil {
		in.AdvancedSecurityOptions.MasterUserOptions = &sc.MasterUserOptions{}
	}
	in.AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword = ptr(config.MasterUserPasswordWO.ValueString())
}

// changeInFlight reports a ConfigChangeStatus of a change still running.
func changeInFlight(s types.String) bool {
	switch s.ValueString() {
	case sc.ConfigChangeStatusPending, sc.ConfigChangeStatusInitializing, sc.ConfigChangeStatusValidating, sc.ConfigChangeStatusApplyingChanges:
		return true
	}
	return false
}

func sortedKeys(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func ptr[T any](v T) *T { return &v }

// modelToRaw converts a model to the resource's raw value, for comparison.
func modelToRaw(ctx context.Context, like tfsdk.Plan, m *domainConfigModel) (tftypes.Value, diag.Diagnostics) {
	st := tfsdk.State{Schema: like.Schema, Raw: like.Raw.Copy()}
	diags := st.Set(ctx, m)
	return st.Raw, diags
}
