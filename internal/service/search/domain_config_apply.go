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
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
	"github.com/cloudlabs/terraform-provider-cloud/internal/privatestate"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// Apply: what Create and Update share. applyChange reads top to bottom:
// follow a change found running, send what still differs (once more after
// following a change that started since the plan), wait for the change,
// write the state. A step that fails reports it and returns false (send
// returns the error, which notSent reports when it is not the one case
// that follows a new change and sends once more), and apply stops there.

// applyRequest is what Create and Update hand to apply.
type applyRequest struct {
	config    tfsdk.Config
	set       settings
	plan      tfsdk.Plan
	prior     *tfsdk.State // nil at creation (creating)
	ch        change
	woChanged bool
	timeout   time.Duration
	// review is what the plan showed of the change; sendReviewed keeps
	// apply to it.
	review review
	// private is where writeState records the domain as apply last saw
	// it (domain_read.go).
	private privatestate.Setter
}

// creating reports an apply that creates the resource (adopts the
// domain): there is no prior state.
func (ar applyRequest) creating() bool { return ar.prior == nil }

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
	clients *conns.Clients
	ar      applyRequest
	res     result
	state   *tfsdk.State
	diags   *diag.Diagnostics
	summary string
	// submitted is when this apply sent a change (zero when it sent none).
	submitted time.Time
}

// applyChange follows a change found running (it is adopted, never sent
// again), sends the sections that still differ, waits for the change, and
// writes the state. When the wait is cut short the state is still
// written, with the submitted values and the change id, so nothing is
// lost and the next plan sees the change in flight.
func applyChange(ctx context.Context, clients *conns.Clients, ar applyRequest, res result, state *tfsdk.State, diags *diag.Diagnostics) {
	a := &applying{clients: clients, ar: ar, res: res, state: state, diags: diags, summary: "Unable to Update Search Domain Config"}
	if ar.creating() {
		a.summary = "Unable to Create Search Domain Config"
	}
	if !a.followRunning(ctx) {
		return
	}
	err := a.send(ctx)
	if errors.Is(err, client.ErrLimitExceeded) && a.adoptNewChange(ctx) {
		// A change started since the plan (another apply, the console):
		// it is followed first, then what still differs is sent, once,
		// after sendReviewed dry-runs it again (the domain changed since
		// the plan's dry run).
		if !a.followRunning(ctx) {
			return
		}
		err = a.send(ctx)
	}
	if err != nil {
		a.notSent(err)
		return
	}
	if !a.waitForSent(ctx) {
		return
	}
	a.finish(ctx)
}

func (a *applying) domain() string { return a.ar.set.DomainName.ValueString() }

func (a *applying) waits() bool { return a.ar.set.WaitForCompletion.ValueBool() }

// followRunning follows a change found running to its end when there is
// something to send or apply waits: the service takes one change at a
// time. Then it compares the configuration again with where that change
// left the domain.
func (a *applying) followRunning(ctx context.Context) bool {
	if !searchclient.ChangeRunning(a.res.status) || (a.ar.ch.empty() && !a.waits()) {
		return true
	}
	tflog.Info(ctx, "Following a running search domain change", map[string]any{"domain_name": a.domain(), "change_id": a.res.changeID})
	p, err := a.wait(ctx, time.Time{})
	if err != nil {
		a.stopped(ctx, p, err)
		return false
	}
	live, err := findDomainConfig(ctx, a.clients.Search, a.domain(), a.ar.plan.Raw)
	if err == nil {
		err = a.ar.compare(live)
	}
	if err != nil {
		a.diags.AddError(a.summary, readError(a.domain(), err))
		return false
	}
	a.res = result{changeID: live.latestChange, status: live.latestStatus, actual: live}
	return true
}

// applyFailure is a change apply could not send, or sent and could not
// read the answer of, for a reason its detail says.
type applyFailure struct{ detail string }

func (e *applyFailure) Error() string { return e.detail }

// send sends what still differs from the domain, if anything, as
// sendReviewed allows, and takes the answer; a lost answer is learned from
// the domain (recoverLostUpdate). It returns why no change is known to be
// sent: a *notSentError, an *applyFailure, or the service's error.
func (a *applying) send(ctx context.Context) error {
	if a.ar.ch.empty() {
		return nil
	}
	in, err := changeRequest(ctx, a.ar.config, a.ar.set, a.ar.ch)
	if err != nil {
		return &applyFailure{"Building the request failed; this is a bug in the provider: " + err.Error()}
	}
	rv := a.ar.review
	if a.ar.creating() && rv.handed == nil {
		// Terraform hands Create no private state: the plan at apply
		// hands its dry run on in memory.
		rv.handed, rv.found = reviewedAtCreate(handoffOf(a.clients), rv.planned, a.ar.woChanged, a.ar.set, in)
	}
	a.submitted = time.Now()
	out, used, err := sendReviewed(ctx, a.clients.Search, a.ar.set, rv, in)
	if errors.Is(err, client.ErrOutcomeUnknown) {
		var live *domainState
		window := a.clients.Config.WithDefaults().AttemptTimeout
		if live, err = recoverLostUpdate(ctx, a.clients.Search, window, a.domain(), a.res.changeID, err, a.ar.plan.Raw); err == nil {
			a.res = result{changeID: live.latestChange, status: live.latestStatus, actual: live, dryRun: used}
			return nil
		}
	}
	if err != nil {
		return err
	}
	live, err := newDomainState(out.DomainConfig, a.ar.plan.Raw)
	if err != nil {
		return &applyFailure{fmt.Sprintf("The change to domain %q was sent, but its answer could not be read: %s. Run terraform plan: it reads the domain and shows what is left to do.", a.domain(), err)}
	}
	a.res = result{changeID: live.latestChange, status: live.latestStatus, actual: live, dryRun: used}
	tflog.Info(ctx, "Search domain change submitted", map[string]any{"domain_name": a.domain(), "change_id": a.res.changeID, "sections": a.ar.ch.names()})
	return nil
}

// notSent reports err, why send knows of no change sent. A change apply
// refused to send leaves the state as it was.
func (a *applying) notSent(err error) {
	var failure *applyFailure
	if ns, ok := asNotSent(err); ok {
		a.diags.AddError(a.summary, ns.detail)
		if !a.ar.creating() {
			*a.state = tfsdk.State{Schema: a.ar.prior.Schema, Raw: a.ar.prior.Raw.Copy()}
		}
		return
	}
	if errors.As(err, &failure) {
		a.diags.AddError(a.summary, failure.detail)
		return
	}
	a.diags.AddError(a.summary, diagnostics.SearchUpdateError(a.domain(), err))
}

// adoptNewChange finds a change that started since the plan and makes it
// the one apply follows; false when no change is running.
func (a *applying) adoptNewChange(ctx context.Context) bool {
	live, err := findDomainConfig(ctx, a.clients.Search, a.domain(), a.ar.plan.Raw)
	if err != nil || live.running == "" {
		return false
	}
	tflog.Warn(ctx, "Another search domain change is running; following it before sending this one", map[string]any{"domain_name": a.domain(), "change_id": live.running})
	a.res = result{changeID: live.running, status: live.latestStatus, actual: live}
	return true
}

// waitForSent waits for the change apply sent or found, when asked to.
func (a *applying) waitForSent(ctx context.Context) bool {
	if searchclient.ChangeRunning(a.res.status) && a.waits() {
		p, err := a.wait(ctx, a.submitted)
		if err != nil {
			a.stopped(ctx, p, err)
			return false
		}
		a.res.status = searchclient.Deref(p.ConfigChangeStatus)
	}
	return true
}

// finish reads the domain if apply has not, and writes the state.
func (a *applying) finish(ctx context.Context) {
	if a.res.actual == nil {
		live, err := findDomainConfig(ctx, a.clients.Search, a.domain(), a.ar.plan.Raw)
		if err != nil {
			a.diags.AddError(a.summary, readError(a.domain(), err))
			return
		}
		a.res.actual = live
	}
	a.writeState(ctx)
}

// wait follows the change apply follows within the timeout; submitted is
// when apply sent it (zero for a change found running).
func (a *applying) wait(ctx context.Context, submitted time.Time) (*searchclient.ChangeProgressStatus, error) {
	wctx, cancel := context.WithTimeout(ctx, a.ar.timeout)
	defer cancel()
	return waitForChange(wctx, a.clients.Search, a.domain(), a.res.changeID, submitted)
}

// recoverLostUpdate learns what became of a change whose answer was lost:
// the service starts a change with a new id for every change it accepts, so
// a new latest change is this one (the service takes one change at a time,
// and a running change was followed to its end before sending). No new
// change means nothing was applied, and the next apply sends it again. The
// service may still be handling the request, so the read is repeated for up
// to one attempt's timeout.
func recoverLostUpdate(ctx context.Context, c *searchclient.Client, window time.Duration, domain, before string, lost error, prior tftypes.Value) (*domainState, error) {
	wctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	var found *domainState
	err := poll.Until(wctx, func(ctx context.Context) (bool, time.Duration, error) {
		live, err := findDomainConfig(ctx, c, domain, prior)
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
	if a.ar.creating() {
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
	if dc, err := a.clients.Search.DescribeDomainConfig(ctx, a.domain()); err == nil && changeID(dc.ChangeProgressDetails) == a.res.changeID {
		if m := searchclient.Deref(dc.ChangeProgressDetails.Message); m != "" {
			why = "\n\nThe service says: " + m
		}
	}
	a.diags.AddError(a.summary, fmt.Sprintf("Change %s on domain %q failed: %s%s\n\nNothing of the change was applied. Fix the cause, then apply again to send the change anew.", a.res.changeID, a.domain(), failed, why))
	if !a.ar.creating() {
		// The failed change applied nothing: keep the previous values,
		// with the failed change's id and status.
		*a.state = tfsdk.State{Schema: a.ar.prior.Schema, Raw: a.ar.prior.Raw.Copy()}
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

// errMessage says why a wait stopped.
func errMessage(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the timeout ran out"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	}
	return err.Error()
}
