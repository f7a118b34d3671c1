package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// The dry run of a change and its verdict, from plan to apply, in this
// order: running a dry run (dryRun), its verdict and what in it blocks a
// change (problems), how the plan shows it (reportDryRun, plannedObject),
// how the plan hands it to apply (reviewedDryRun), and how apply keeps to
// it (sendReviewed).
//
// The invariant (contributing/design.md): every UpdateDomainConfig that
// apply sends with DryRun false carries exactly the request whose verdict a
// reviewed plan showed, or that apply dry-ran again just before sending and
// found the same. sendReviewed is the one place that keeps it.

// dryRunTimeout bounds the plan-time wait for a dry run.
const dryRunTimeout = 5 * time.Minute

// dryRunResult is what a finished dry run says.
type dryRunResult struct {
	id, mode, status, deploymentType, message string
	failures                                  []searchclient.ValidationFailure
	properties                                []searchclient.ModifyingProperty
	// after is the domain's latest change when the dry run was made, by
	// the service's record ("" for none); afterRunning, whether it was
	// still running.
	after        string
	afterRunning bool
}

// dryRun runs the dry run in and waits for its verdict.
func (r *domainConfigResource) dryRun(ctx context.Context, in *searchclient.UpdateDomainConfigInput) (*dryRunResult, error) {
	mode := searchclient.Deref(in.DryRunMode)
	submitted := time.Now()
	up, err := r.clients.Search.UpdateDomainConfig(ctx, in)
	if err != nil {
		return nil, err
	}
	status, results := up.DryRunProgressStatus, up.DryRunResults
	if status == nil || status.DryRunId == nil {
		return nil, errors.New("the service's answer to the dry run has no DryRunId")
	}
	var props []searchclient.ModifyingProperty
	after, afterRunning := "", false
	if up.DomainConfig != nil {
		props = up.DomainConfig.ModifyingProperties
		after = changeID(up.DomainConfig.ChangeProgressDetails)
		running, _ := up.DomainConfig.RunningChange()
		afterRunning = running != ""
	}
	if dryRunRunning(status) || (props == nil && mode == searchclient.DryRunModeVerbose) {
		// The planned configuration (with ModifyingProperties) is kept for
		// Verbose dry runs only.
		load := mode == searchclient.DryRunModeVerbose
		var started time.Time
		if dryRunRunning(status) {
			started = submitted
		}
		out, err := waitForDryRun(ctx, r.clients.Search, searchclient.DescribeDryRunProgressInput{DomainName: in.DomainName, DryRunID: *status.DryRunId, LoadDryRunConfig: load}, started, dryRunTimeout)
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

func newDryRunResult(mode string, status *searchclient.DryRunProgressStatus, results *searchclient.DryRunResults, props []searchclient.ModifyingProperty, after string) *dryRunResult {
	dr := &dryRunResult{
		mode: mode, id: searchclient.Deref(status.DryRunId), status: searchclient.Deref(status.DryRunStatus),
		failures:   append([]searchclient.ValidationFailure(nil), status.ValidationFailures...),
		properties: append([]searchclient.ModifyingProperty(nil), props...),
		after:      after,
	}
	if results != nil {
		dr.deploymentType, dr.message = searchclient.Deref(results.DeploymentType), searchclient.Deref(results.Message)
	}
	sort.SliceStable(dr.failures, func(i, j int) bool {
		a, b := dr.failures[i], dr.failures[j]
		if searchclient.Deref(a.Code) != searchclient.Deref(b.Code) {
			return searchclient.Deref(a.Code) < searchclient.Deref(b.Code)
		}
		return searchclient.Deref(a.Severity) < searchclient.Deref(b.Severity)
	})
	sort.SliceStable(dr.properties, func(i, j int) bool {
		return searchclient.Deref(dr.properties[i].Name) < searchclient.Deref(dr.properties[j].Name)
	})
	return dr
}

// readDryRun reads a finished dry run back by id, to record it in state;
// nil when it cannot be read (the state then holds what the plan showed).
func (r *domainConfigResource) readDryRun(ctx context.Context, domain, id, mode string) *dryRunResult {
	out, err := r.clients.Search.DescribeDryRunProgress(ctx, searchclient.DescribeDryRunProgressInput{DomainName: domain, DryRunID: id, LoadDryRunConfig: mode == searchclient.DryRunModeVerbose})
	if err != nil || out.DryRunProgressStatus == nil {
		return nil
	}
	var props []searchclient.ModifyingProperty
	if out.DryRunConfig != nil {
		props = out.DryRunConfig.ModifyingProperties
	}
	return newDryRunResult(mode, out.DryRunProgressStatus, out.DryRunResults, props, "")
}

// verdict is what a dry run says of a change, the part a reviewer approves:
// its status, deployment type and validation failures (code and severity,
// sorted). The accepted codes are part of the request.
type verdict struct {
	status, deploymentType string
	failures               []string
}

func (dr *dryRunResult) verdict() verdict {
	v := verdict{status: dr.status, deploymentType: dr.deploymentType, failures: []string{}}
	for _, f := range dr.failures {
		v.failures = append(v.failures, fmt.Sprintf("%s (%s)", searchclient.Deref(f.Code), searchclient.Deref(f.Severity)))
	}
	return v
}

func (v verdict) equal(o verdict) bool {
	return v.status == o.status && v.deploymentType == o.deploymentType && slices.Equal(v.failures, o.failures)
}

func (v verdict) String() string {
	s := "deployment type " + v.deploymentType
	if len(v.failures) == 0 {
		return s + ", no validation failures"
	}
	return s + ", validation failures " + strings.Join(v.failures, ", ")
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
		code, msg, sev := searchclient.Deref(f.Code), searchclient.Deref(f.Message), searchclient.Deref(f.Severity)
		switch {
		case sev == searchclient.SeverityAdvisory && accepted[code]:
		case sev == searchclient.SeverityAdvisory:
			out = append(out, problem{"accepted_warnings", "Unaccepted Dry Run Warning",
				fmt.Sprintf("The dry run warns %s: %s\n\nThe service refuses a change with an Advisory warning that is not accepted. If the change is intended, accept it by adding %q to accepted_warnings, then plan again.", code, msg, code)})
		case sev == searchclient.SeverityCritical:
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
	case searchclient.DeploymentTypeDynamic, searchclient.DeploymentTypeNone:
	case searchclient.DeploymentTypeBlueGreen:
		out = append(out, problem{"allow_blue_green", "Blue/Green Deployment Not Allowed",
			fmt.Sprintf("The dry run says this change is applied by a blue/green deployment, and allow_blue_green is false. Change something that deploys dynamically, or set allow_blue_green = true. %s", dr.message)})
	default:
		out = append(out, problem{"allow_blue_green", "Unknown Deployment Type",
			fmt.Sprintf("The dry run reports deployment type %q, which this provider does not know; it is treated as possibly blue/green, and allow_blue_green is false, so the change stops. %s", dr.deploymentType, dr.message)})
	}
	return out
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
	case dr.mode == searchclient.DryRunModeBasic:
		b.WriteString("; nothing validated (dry_run_mode Basic).")
	case len(dr.failures) == 0:
		b.WriteString("; no validation failures.")
	default:
		b.WriteString("; validation failures:")
		for _, f := range dr.failures {
			code, sev := searchclient.Deref(f.Code), searchclient.Deref(f.Severity)
			note := "blocks the change"
			if sev == searchclient.SeverityAdvisory && accepted[code] {
				note = "accepted in accepted_warnings, so apply goes ahead"
			}
			fmt.Fprintf(&b, "\n  - %s (%s, %s): %s", code, sev, note, searchclient.Deref(f.Message))
		}
	}
	if dr.status == searchclient.DryRunStatusFailed {
		b.WriteString("\nThe dry run finished with status failed.")
	}
	switch dr.deploymentType {
	case searchclient.DeploymentTypeDynamic, searchclient.DeploymentTypeNone:
	case searchclient.DeploymentTypeBlueGreen:
		b.WriteString("\nA blue/green deployment builds a new environment and copies the data, which can take hours.")
	default:
		fmt.Fprintf(&b, "\nThis provider does not know deployment type %q; treat it as possibly blue/green.", dr.deploymentType)
	}
	if dr.message != "" {
		b.WriteString("\nThe service says: " + dr.message)
	}
	for _, p := range dr.properties {
		name := searchclient.Deref(p.Name)
		switch {
		case shape.SensitiveProperty(name):
			fmt.Fprintf(&b, "\n  %s: %s", name, shape.SensitiveValue)
		case p.ActiveValue == nil && p.PendingValue == nil:
			fmt.Fprintf(&b, "\n  %s: (value not shown by the service)", name)
		default:
			fmt.Fprintf(&b, "\n  %s: %q -> %q", name, clip(searchclient.Deref(p.ActiveValue)), clip(searchclient.Deref(p.PendingValue)))
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

// deferredNote says what apply does when the plan showed no verdict.
const deferredNote = "Apply dry-runs the change before sending it and stops without sending anything if the service's verdict is a blue/green deployment while allow_blue_green is false, or has a Critical failure or an Advisory warning whose code is not in accepted_warnings."

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
			"code": types.StringValue(searchclient.Deref(f.Code)), "message": types.StringUnknown(), "severity": types.StringValue(searchclient.Deref(f.Severity)),
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
			"code": types.StringValue(searchclient.Deref(f.Code)), "message": types.StringValue(searchclient.Deref(f.Message)), "severity": types.StringValue(searchclient.Deref(f.Severity)),
		}))
	}
	props := make([]attr.Value, 0, len(dr.properties))
	for _, p := range dr.properties {
		name := searchclient.Deref(p.Name)
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

// dryRunOff is dry_run when dry_run_mode is Off: the mode, and no verdict.
func dryRunOff() types.Object {
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id": types.StringNull(), "mode": types.StringValue(dryRunModeOff), "status": types.StringNull(),
		"deployment_type": types.StringNull(), "message": types.StringNull(),
		"validation_failures":  types.ListNull(types.ObjectType{AttrTypes: failureAttrTypes}),
		"modifying_properties": types.ListNull(types.ObjectType{AttrTypes: propertyAttrTypes}),
	})
}

// dryRunCleared is dry_run before any change was planned (at creation
// without a change, after an import): every attribute null, so references
// such as dry_run.deployment_type read null rather than fail.
func dryRunCleared() types.Object {
	attrs := make(map[string]attr.Value, len(dryRunAttrTypes))
	for name, t := range dryRunAttrTypes {
		v, _ := t.ValueFromTerraform(context.Background(), tftypes.NewValue(t.TerraformType(context.Background()), nil))
		attrs[name] = v
	}
	return types.ObjectValueMust(dryRunAttrTypes, attrs)
}

// plannedVerdict is the verdict the plan showed (its dry_run), nil when it
// showed none: the dry run was deferred to apply, could not be run, or
// dry_run_mode is Off.
func plannedVerdict(ctx context.Context, plan tfsdk.Plan) *verdict {
	var obj types.Object
	if plan.GetAttribute(ctx, path.Root("dry_run"), &obj).HasError() || obj.IsNull() || obj.IsUnknown() {
		return nil
	}
	attrs := obj.Attributes()
	status, _ := attrs["status"].(types.String)
	kind, _ := attrs["deployment_type"].(types.String)
	list, _ := attrs["validation_failures"].(types.List)
	if status.IsUnknown() || status.IsNull() || kind.IsUnknown() || kind.IsNull() || list.IsUnknown() || list.IsNull() {
		return nil
	}
	v := &verdict{status: status.ValueString(), deploymentType: kind.ValueString(), failures: []string{}}
	for _, e := range list.Elements() {
		f, ok := e.(types.Object)
		if !ok {
			return nil
		}
		code, _ := f.Attributes()["code"].(types.String)
		sev, _ := f.Attributes()["severity"].(types.String)
		v.failures = append(v.failures, fmt.Sprintf("%s (%s)", code.ValueString(), sev.ValueString()))
	}
	return v
}

// reviewedDryRun is the plan's dry run as handed to apply in the planned
// private state: its id, the request it analysed (requestKey) and the
// domain's latest change when it was made, by the service's own record.
type reviewedDryRun struct {
	ID      string `json:"id"`
	Request string `json:"request"`
	After   string `json:"after"`
}

// privateReviewed is the planned private state's key for reviewedDryRun.
const privateReviewed = "reviewed_dry_run"

func readReviewed(ctx context.Context, p privateGetter) *reviewedDryRun {
	b, d := p.GetKey(ctx, privateReviewed)
	if d.HasError() || len(b) == 0 {
		return nil
	}
	var rv reviewedDryRun
	if json.Unmarshal(b, &rv) != nil || rv.ID == "" {
		return nil
	}
	return &rv
}

// review is what apply gets of the plan's dry run: the verdict the plan
// showed (nil when it showed none) and that dry run as the plan handed it
// over (Update gets the planned private state; Create does not).
type review struct {
	planned *verdict
	handed  *reviewedDryRun
	// found is the handed dry run as the plan at apply handed it to Create
	// (reviewedAtCreate), so it is not read again; nil otherwise.
	found *dryRunResult
}

// notSentError is a change apply refused to send: the service's verdict on
// it is not the one reviewed, or blocked.
type notSentError struct{ detail string }

func (e *notSentError) Error() string { return e.detail }

// asNotSent reports whether err is a change apply refused to send.
func asNotSent(err error) (*notSentError, bool) {
	var ns *notSentError
	ok := errors.As(err, &ns)
	return ns, ok
}

// sendReviewed sends in, the change apply is about to make, keeping the
// invariant. It sends at once only when the plan's own dry run stands for
// it (whyDryRunAgain). Otherwise (creation with no dry run handed on
// for it, someone else's change ran first, the request differs,
// the plan had no verdict) it dry-runs in and sends only when the new
// verdict is the reviewed one, or, when the plan showed none, when
// nothing in it blocks the change (dryRunAgain). Else it
// sends nothing and returns a *notSentError naming the new verdict. used
// is the dry run that stands for the change sent (nil when none was made).
func (r *domainConfigResource) sendReviewed(ctx context.Context, set settings, rv review, in *searchclient.UpdateDomainConfigInput) (out *searchclient.UpdateDomainConfigOutput, used *dryRunResult, err error) {
	mode := set.DryRunMode.ValueString()
	why, err := r.whyDryRunAgain(ctx, mode, rv, in)
	switch {
	case err != nil:
		return nil, nil, err
	case why == "":
		tflog.Info(ctx, "Sending the reviewed search domain change", map[string]any{"domain_name": in.DomainName, "dry_run_id": rv.handed.ID})
		if used = rv.found; used == nil || used.id != rv.handed.ID {
			used = r.readDryRun(ctx, in.DomainName, rv.handed.ID, mode)
		}
	case mode == dryRunModeOff && set.AllowBlueGreen.ValueBool():
		// The user opted out of dry runs, and nothing here needs one.
	default:
		if used, err = r.dryRunAgain(ctx, set, rv, in, why); err != nil {
			return nil, used, err
		}
	}
	out, err = r.clients.Search.UpdateDomainConfig(ctx, in)
	return out, used, err
}

// whyDryRunAgain says why the plan's own dry run cannot stand for in; ""
// when it can: the plan handed over that dry run, it analysed exactly in,
// and the service shows no change to the domain since (the same latest
// change, none running).
func (r *domainConfigResource) whyDryRunAgain(ctx context.Context, mode string, rv review, in *searchclient.UpdateDomainConfigInput) (string, error) {
	switch {
	case rv.planned == nil && mode == dryRunModeOff:
		return "dry_run_mode is Off", nil
	case rv.planned == nil:
		return "the plan showed no verdict (its dry run was deferred to apply or could not be run)", nil
	case rv.handed == nil:
		return "the plan's dry run was not handed to apply (Terraform hands Create none) and the plan at apply handed on none for the request", nil
	case rv.handed.Request != requestKey(in):
		return "the request differs from the one the plan's dry run analysed (the domain changed since the plan)", nil
	}
	// Only now is the domain's record worth a read.
	dc, err := r.clients.Search.DescribeDomainConfig(ctx, in.DomainName)
	if err != nil {
		return "", err
	}
	latest := changeID(dc.ChangeProgressDetails)
	if running, _ := dc.RunningChange(); running != "" {
		return fmt.Sprintf("change %s is running on the domain", running), nil
	}
	if latest != rv.handed.After {
		return fmt.Sprintf("the domain changed since the plan's dry run (its latest change is now %s)", latest), nil
	}
	return "", nil
}

// dryRunAgain dry-runs in before apply sends it, because of why: a
// *notSentError when the dry run fails, when its verdict is not the one
// the plan showed, or, when the plan showed none, when something in it
// blocks the change (allow_blue_green, unaccepted Advisories, Critical
// failures).
func (r *domainConfigResource) dryRunAgain(ctx context.Context, set settings, rv review, in *searchclient.UpdateDomainConfigInput, why string) (*dryRunResult, error) {
	domain, mode := in.DomainName, set.DryRunMode.ValueString()
	if mode == dryRunModeOff {
		// allow_blue_green = false holds with dry runs off too: a Basic dry
		// run tells the deployment type at once.
		mode = searchclient.DryRunModeBasic
	}
	tflog.Info(ctx, "Dry-running the search domain change again before sending it", map[string]any{"domain_name": domain, "reason": why})
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	dr, err := r.dryRun(dctx, asDryRun(in, mode))
	if err != nil {
		return nil, &notSentError{fmt.Sprintf("Nothing was sent to domain %q: apply must dry-run the change before sending it because %s, and the dry run failed: %s\n\nRun terraform plan again.", domain, why, err)}
	}
	now := dr.verdict()
	if rv.planned != nil && !rv.planned.equal(now) {
		return dr, &notSentError{fmt.Sprintf("Nothing was sent to domain %q. Apply dry-ran the change again because %s, and the service's verdict is no longer the one the plan showed.\n\nThe plan showed: %s.\nDry run %s now says: %s.\n\nRun terraform plan again to review the new verdict, then apply that plan.", domain, why, rv.planned, dr.id, now)}
	}
	if problems := dr.problems(set); rv.planned == nil && len(problems) > 0 {
		lines := make([]string, 0, len(problems))
		for _, p := range problems {
			lines = append(lines, "- "+p.summary+": "+p.detail)
		}
		return dr, &notSentError{fmt.Sprintf("Nothing was sent to domain %q. Apply dry-ran the change first because %s, and dry run %s says: %s, which this configuration does not allow:\n%s", domain, why, dr.id, now, strings.Join(lines, "\n"))}
	}
	return dr, nil
}
