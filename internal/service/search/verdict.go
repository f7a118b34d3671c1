package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// The invariant (contributing/design.md): every UpdateDomainConfig that
// apply sends with DryRun false carries exactly the request whose verdict a
// reviewed plan showed, or that apply dry-ran again just before sending and
// found the same. sendReviewed is the one place that keeps it.

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
		v.failures = append(v.failures, fmt.Sprintf("%s (%s)", sc.Deref(f.Code), sc.Deref(f.Severity)))
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

// notSentError is a change apply refused to send: the service's verdict on
// it is not the one reviewed, or blocked.
type notSentError struct{ detail string }

func (e *notSentError) Error() string { return e.detail }

// sendReviewed sends in, the change apply is about to make, keeping the
// invariant. It sends at once only when the plan's own dry run stands for
// it: the plan handed over that dry run (Update), it analysed exactly in,
// and the service shows no change to the domain since (the same latest
// change, none running). Otherwise (creation, someone else's change ran
// first, the request differs, the plan had no verdict) it dry-runs in and
// sends only when the new verdict is the reviewed one, or, when the plan
// showed none, when nothing in it blocks the change (allow_blue_green,
// unaccepted Advisories, Critical failures). Else it sends nothing and
// returns a *notSentError naming the new verdict. used is the dry run that
// stands for the change sent (nil when none was made).
func (r *domainConfigResource) sendReviewed(ctx context.Context, ar *applyRequest, in *sc.UpdateDomainConfigInput) (out *sc.UpdateDomainConfigOutput, used *dryRunResult, err error) {
	domain := in.DomainName
	mode := ar.set.DryRunMode.ValueString()
	why := ""
	rv := ar.reviewed
	switch {
	case ar.verdict == nil && mode == dryRunModeOff:
		why = "dry_run_mode is Off"
	case ar.verdict == nil:
		why = "the plan showed no verdict (its dry run was deferred to apply or could not be run)"
	case rv == nil:
		why = "the plan's dry run was not handed to apply (at creation it never is)"
	case rv.Request != requestKey(in):
		why = "the request differs from the one the plan's dry run analysed (the domain changed since the plan)"
	default:
		// Only now is the domain's record worth a read.
		dc, err := r.clients.Search.DescribeDomainConfig(ctx, domain)
		if err != nil {
			return nil, nil, err
		}
		latest := changeID(dc.ChangeProgressDetails)
		if running, _ := dc.RunningChange(); running != "" {
			why = fmt.Sprintf("change %s is running on the domain", running)
		} else if latest != rv.After {
			why = fmt.Sprintf("the domain changed since the plan's dry run (its latest change is now %s)", latest)
		}
	}
	if why == "" {
		tflog.Info(ctx, "Sending the reviewed search domain change", map[string]any{"domain_name": domain, "dry_run_id": rv.ID})
		used = r.readDryRun(ctx, domain, rv.ID, mode)
		out, err = r.clients.Search.UpdateDomainConfig(ctx, in)
		return out, used, err
	}
	if mode == dryRunModeOff && ar.set.AllowBlueGreen.ValueBool() {
		// The user opted out of dry runs, and nothing here needs one.
		out, err = r.clients.Search.UpdateDomainConfig(ctx, in)
		return out, nil, err
	}
	if mode == dryRunModeOff {
		// allow_blue_green = false holds with dry runs off too: a Basic dry
		// run tells the deployment type at once.
		mode = sc.DryRunModeBasic
	}
	tflog.Info(ctx, "Dry-running the search domain change again before sending it", map[string]any{"domain_name": domain, "reason": why})
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	dr, err := r.dryRun(dctx, asDryRun(in, mode))
	if err != nil {
		return nil, nil, &notSentError{fmt.Sprintf("Nothing was sent to domain %q: apply must dry-run the change before sending it because %s, and the dry run failed: %s\n\nRun terraform plan again.", domain, why, err)}
	}
	now := dr.verdict()
	switch {
	case ar.verdict != nil && !ar.verdict.equal(now):
		return nil, dr, &notSentError{fmt.Sprintf("Nothing was sent to domain %q. Apply dry-ran the change again because %s, and the service's verdict is no longer the one the plan showed.\n\nThe plan showed: %s.\nDry run %s now says: %s.\n\nRun terraform plan again to review the new verdict, then apply that plan.", domain, why, ar.verdict, dr.id, now)}
	case ar.verdict == nil:
		if problems := dr.problems(ar.set); len(problems) > 0 {
			lines := make([]string, 0, len(problems))
			for _, p := range problems {
				lines = append(lines, "- "+p.summary+": "+p.detail)
			}
			return nil, dr, &notSentError{fmt.Sprintf("Nothing was sent to domain %q. Apply dry-ran the change first because %s, and dry run %s says: %s, which this configuration does not allow:\n%s", domain, why, dr.id, now, strings.Join(lines, "\n"))}
		}
	}
	out, err = r.clients.Search.UpdateDomainConfig(ctx, in)
	return out, dr, err
}

// readDryRun reads a finished dry run back by id, to record it in state;
// nil when it cannot be read (the state then holds what the plan showed).
func (r *domainConfigResource) readDryRun(ctx context.Context, domain, id, mode string) *dryRunResult {
	out, err := r.clients.Search.DescribeDryRunProgress(ctx, sc.DescribeDryRunProgressInput{DomainName: domain, DryRunID: id, LoadDryRunConfig: mode == sc.DryRunModeVerbose})
	if err != nil || out.DryRunProgressStatus == nil {
		return nil
	}
	var props []sc.ModifyingProperty
	if out.DryRunConfig != nil {
		props = out.DryRunConfig.ModifyingProperties
	}
	return newDryRunResult(mode, out.DryRunProgressStatus, out.DryRunResults, props, "")
}

// asNotSent reports whether err is a change apply refused to send.
func asNotSent(err error) (*notSentError, bool) {
	var ns *notSentError
	ok := errors.As(err, &ns)
	return ns, ok
}
