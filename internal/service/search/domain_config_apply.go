package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// Apply: what Create and Update share. apply runs a small state machine
// of named steps (followRunning -> send -> waitForSent -> finish): each
// step does its part and returns the next, or nil when apply is done, so
// every way apply ends is a return of nil from a step.

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
	// review is what the plan showed of the change; sendReviewed keeps
	// apply to it.
	review review
	// private is where writeState records the domain as apply last saw
	// it (domain_read.go).
	private privateSetter
}

// compare sets the change to send: the sections whose configured values
// differ from the domain's.
func (ar *applyRequest) compare(live *domainState) error {
	current, err := tfvalue.WithAttributes(ar.plan.Raw, live.sections)
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

// applying is one apply in progress: what it was asked, what it learned so
// far, and where it reports.
type applying struct {
	r       *domainConfigResource
	ar      applyRequest
	res     result
	state   *tfsdk.State
	diags   *diag.Diagnostics
	summary string
	// submitted is when this apply sent a change (zero when it sent none).
	submitted time.Time
	// adopted: a change that started since the plan was followed already.
	adopted bool
}

// applyStep is one step of apply; it returns the next (nil: done).
type applyStep func(context.Context) applyStep

// apply follows a change found running (it is adopted, never sent again),
// sends the sections that still differ, waits for the change, and writes
// the state. When the wait is cut short the state is still written, with
// the submitted values and the change id, so nothing is lost and the next
// plan sees the change in flight.
func (r *domainConfigResource) apply(ctx context.Context, ar applyRequest, res result, state *tfsdk.State, diags *diag.Diagnostics) {
	a := &applying{r: r, ar: ar, res: res, state: state, diags: diags, summary: "Unable to Update Search Domain Config"}
	if ar.creating {
		a.summary = "Unable to Create Search Domain Config"
	}
	for step := a.followRunning; step != nil; {
		step = step(ctx)
	}
}

func (a *applying) domain() string { return a.ar.set.DomainName.ValueString() }

func (a *applying) waits() bool { return a.ar.set.WaitForCompletion.ValueBool() }

// followRunning follows a change found running to its end when there is
// something to send or apply waits: the service takes one change at a
// time. Then it compares the configuration again with where that change
// left the domain.
func (a *applying) followRunning(ctx context.Context) applyStep {
	if !searchclient.ChangeRunning(a.res.status) || (a.ar.ch.empty() && !a.waits()) {
		return a.send
	}
	tflog.Info(ctx, "Following a running search domain change", map[string]any{"domain_name": a.domain(), "change_id": a.res.changeID})
	p, err := a.r.wait(ctx, a.domain(), a.res.changeID, time.Time{}, a.ar.timeout)
	if err != nil {
		a.stopped(ctx, p, err)
		return nil
	}
	live, err := findDomainConfig(ctx, a.r.clients.Search, a.domain(), a.ar.plan.Raw)
	if err == nil {
		err = a.ar.compare(live)
	}
	if err != nil {
		a.diags.AddError(a.summary, readError(a.domain(), err))
		return nil
	}
	a.res = result{changeID: live.latestChange, status: live.latestStatus, actual: live}
	return a.send
}

// send sends what still differs from the domain, as sendReviewed allows.
func (a *applying) send(ctx context.Context) applyStep {
	if a.ar.ch.empty() {
		return a.waitForSent
	}
	in, err := changeRequest(ctx, a.ar.config, a.ar.set, a.ar.ch)
	if err != nil {
		a.diags.AddError(a.summary, "Building the request failed; this is a bug in the provider: "+err.Error())
		return nil
	}
	rv := a.ar.review
	if a.ar.creating && rv.handed == nil {
		// Terraform hands Create no private state: the plan at apply
		// hands its dry run on in memory.
		rv.handed, rv.found = a.r.reviewedAtCreate(a.ar, in)
	}
	a.submitted = time.Now()
	out, used, err := a.r.sendReviewed(ctx, a.ar.set, rv, in)
	return a.sent(ctx, out, used, err)
}

// sent takes the answer to the change sent: refused before sending, lost,
// refused because another change started, failed, or accepted.
func (a *applying) sent(ctx context.Context, out *searchclient.UpdateDomainConfigOutput, used *dryRunResult, err error) applyStep {
	if ns, ok := asNotSent(err); ok {
		a.diags.AddError(a.summary, ns.detail)
		if a.ar.prior != nil {
			// Nothing was sent: the state stays as it was.
			*a.state = tfsdk.State{Schema: a.ar.prior.Schema, Raw: a.ar.prior.Raw.Copy()}
		}
		return nil
	}
	if errors.Is(err, client.ErrOutcomeUnknown) {
		var live *domainState
		if live, err = a.r.recoverLostUpdate(ctx, a.domain(), a.res.changeID, err, a.ar.plan.Raw); err == nil {
			a.res = result{changeID: live.latestChange, status: live.latestStatus, actual: live, dryRun: used}
			return a.waitForSent
		}
	}
	if errors.Is(err, client.ErrLimitExceeded) && !a.adopted {
		if next := a.adoptNewChange(ctx); next != nil {
			return next
		}
	}
	if err != nil {
		a.diags.AddError(a.summary, updateError(a.domain(), err))
		return nil
	}
	live, err := newDomainState(out.DomainConfig, a.ar.plan.Raw)
	if err != nil {
		a.diags.AddError(a.summary, fmt.Sprintf("The change to domain %q was sent, but its answer could not be read: %s. Run terraform plan: it reads the domain and shows what is left to do.", a.domain(), err))
		return nil
	}
	a.res = result{changeID: live.latestChange, status: live.latestStatus, actual: live, dryRun: used}
	tflog.Info(ctx, "Search domain change submitted", map[string]any{"domain_name": a.domain(), "change_id": a.res.changeID, "sections": a.ar.ch.names()})
	return a.waitForSent
}

// adoptNewChange handles a change that started since the plan (another
// apply, the console): it is followed first, then what is still different
// is sent, after sendReviewed dry-runs it again (the domain changed since
// the plan's dry run). Once only; nil when no change is running.
func (a *applying) adoptNewChange(ctx context.Context) applyStep {
	live, err := findDomainConfig(ctx, a.r.clients.Search, a.domain(), a.ar.plan.Raw)
	if err != nil || live.running == "" {
		return nil
	}
	tflog.Warn(ctx, "Another search domain change is running; following it before sending this one", map[string]any{"domain_name": a.domain(), "change_id": live.running})
	a.res = result{changeID: live.running, status: live.latestStatus, actual: live}
	a.adopted = true
	return a.followRunning
}

// waitForSent waits for the change apply sent or found, when asked to.
func (a *applying) waitForSent(ctx context.Context) applyStep {
	if searchclient.ChangeRunning(a.res.status) && a.waits() {
		p, err := a.r.wait(ctx, a.domain(), a.res.changeID, a.submitted, a.ar.timeout)
		if err != nil {
			a.stopped(ctx, p, err)
			return nil
		}
		a.res.status = searchclient.Deref(p.ConfigChangeStatus)
	}
	return a.finish
}

// finish reads the domain if apply has not, and writes the state.
func (a *applying) finish(ctx context.Context) applyStep {
	if a.res.actual == nil {
		live, err := findDomainConfig(ctx, a.r.clients.Search, a.domain(), a.ar.plan.Raw)
		if err != nil {
			a.diags.AddError(a.summary, readError(a.domain(), err))
			return nil
		}
		a.res.actual = live
	}
	a.writeState(ctx)
	return nil
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
		live, err := findDomainConfig(ctx, r.clients.Search, domain, prior)
		if err != nil {
			return false, 0, err
		}
		if live.latestChange != "" && live.latestChange != before {
			found = live
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
func (r *domainConfigResource) wait(ctx context.Context, domain, changeID string, submitted time.Time, timeout time.Duration) (*searchclient.ChangeProgressStatus, error) {
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return waitForChange(wctx, r.clients.Search, domain, changeID, submitted)
}

// stopped handles a wait that ended without the change completing: the
// change failed, the timeout ran out, or Terraform was interrupted.
func (a *applying) stopped(ctx context.Context, p *searchclient.ChangeProgressStatus, err error) {
	if p != nil && p.ConfigChangeStatus != nil {
		a.res.status = *p.ConfigChangeStatus
	}
	var failed *changeFailedError
	if errors.As(err, &failed) {
		a.changeFailed(ctx, failed)
		return
	}
	if !searchclient.ChangeRunning(a.res.status) {
		a.res.status = searchclient.ConfigChangeStatusPending
	}
	progress := ""
	if p != nil {
		progress = progressSummary(p)
	}
	detail := fmt.Sprintf("Apply stopped waiting for change %s on domain %q (%s) %s. The change goes on; the state holds it, and the next apply waits for it without sending it again.", a.res.changeID, a.domain(), errMessage(err), progress)
	if a.ar.creating {
		// An error here would taint the resource and plan its replacement; a
		// warning keeps it, and the next plan shows the wait.
		a.diags.AddWarning("Search Domain Change Still Running", detail)
	} else {
		a.diags.AddError(a.summary, detail+" Raise timeouts.update to wait longer.")
	}
	a.writeState(context.WithoutCancel(ctx))
}

// changeFailed reports a change the service failed. ChangeProgressStatus
// has no message; the domain's change details do.
func (a *applying) changeFailed(ctx context.Context, failed *changeFailedError) {
	why := ""
	if dc, err := a.r.clients.Search.DescribeDomainConfig(ctx, a.domain()); err == nil && changeID(dc.ChangeProgressDetails) == a.res.changeID {
		if m := searchclient.Deref(dc.ChangeProgressDetails.Message); m != "" {
			why = "\n\nThe service says: " + m
		}
	}
	a.diags.AddError(a.summary, fmt.Sprintf("Change %s on domain %q failed: %s%s\n\nNothing of the change was applied. Fix the cause, then apply again to send the change anew.", a.res.changeID, a.domain(), failed, why))
	if prior := a.ar.prior; prior != nil {
		// The failed change applied nothing: keep the previous values,
		// with the failed change's id and status.
		*a.state = tfsdk.State{Schema: prior.Schema, Raw: prior.Raw.Copy()}
		a.diags.Append(a.state.SetAttribute(ctx, path.Root("change_id"), a.res.changeID)...)
		a.diags.Append(a.state.SetAttribute(ctx, path.Root("config_change_status"), a.res.status)...)
	}
}

// writeState writes the plan with its computed results, every other
// unknown value filled from the domain's configuration as last seen.
func (a *applying) writeState(ctx context.Context) {
	// Own diagnostics: the state is written even after an error was reported.
	var diags diag.Diagnostics
	defer func() { a.diags.Append(diags...) }()
	planned := tfsdk.State{Schema: a.ar.plan.Schema, Raw: a.ar.plan.Raw.Copy()}
	var dryRun types.Object
	diags.Append(planned.GetAttribute(ctx, path.Root("dry_run"), &dryRun)...)
	diags.Append(planned.SetAttribute(ctx, path.Root("id"), a.domain())...)
	diags.Append(planned.SetAttribute(ctx, path.Root("dry_run"), appliedDryRun(dryRun, a.res.dryRun))...)
	diags.Append(planned.SetAttribute(ctx, path.Root("change_id"), nullIfEmpty(a.res.changeID))...)
	diags.Append(planned.SetAttribute(ctx, path.Root("config_change_status"), nullIfEmpty(a.res.status))...)
	if diags.HasError() {
		return
	}
	actual := planned.Raw
	if a.res.actual != nil {
		var err error
		if actual, err = tfvalue.WithAttributes(planned.Raw, a.res.actual.sections); err != nil {
			diags.AddError("Unable to Save Search Domain Config", "Building the new state failed; this is a bug in the provider: "+err.Error())
			return
		}
	}
	merged, err := shape.FillUnknown(planned.Raw, actual)
	if err != nil {
		diags.AddError("Unable to Save Search Domain Config", "Building the new state failed; this is a bug in the provider: "+err.Error())
		return
	}
	*a.state = tfsdk.State{Schema: planned.Schema, Raw: merged}
	diags.Append(recordRead(ctx, a.ar.private, seenAfterApply(a.res))...)
}

// seenAfterApply is the domain as apply last saw it, with the change as
// apply left it: a plan made with -refresh=false compares the domain with
// this. nil when apply read nothing.
func seenAfterApply(res result) *domainState {
	if res.actual == nil {
		return nil
	}
	s := *res.actual
	s.latestChange, s.latestStatus, s.running = res.changeID, res.status, ""
	if searchclient.ChangeRunning(res.status) {
		s.running = res.changeID
	}
	return &s
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
