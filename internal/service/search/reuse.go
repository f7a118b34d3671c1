package search

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// The plan Terraform makes at apply, and Create, reuse the dry run of the
// plan before them instead of running another when that plan handed it
// on for exactly their request (handoff.go) and nothing moved since. A
// read costs a round trip; a dry run waits for the service's analysis.
// The rule is in contributing/design.md ("One dry run per reviewed
// change").

const (
	// reuseMaxAge is how old, by the service's clock, a dry run a plan
	// reuses may be: a saved plan is applied within it in a pipeline with
	// a review; after it the plan at apply dry-runs again.
	reuseMaxAge = time.Hour
	// createReuseAge bounds the dry run Create reuses: the one the plan at
	// apply made just before (Terraform runs Create right after it), whose
	// analysis took at most dryRunTimeout.
	createReuseAge = dryRunTimeout + time.Minute
)

// handable reports whether a dry run of in may be handed on: a completed
// Verbose dry run whose verdict needs no clock (dynamic or none: the
// off-peak window rule reads the clock for blue/green), made with no
// change running, of a request that sets nothing the service never shows
// (a password, the master user), which a request's digest may not stand
// for.
func (p *planning) handable(in *searchclient.UpdateDomainConfigInput, dr *dryRunResult) bool {
	return dr != nil && dr.mode == searchclient.DryRunModeVerbose && dr.status == searchclient.DryRunStatusCompleted &&
		(dr.deploymentType == searchclient.DeploymentTypeDynamic || dr.deploymentType == searchclient.DeploymentTypeNone) &&
		!dr.afterRunning && !shape.SetsHidden(p.req.Config.Raw, p.ch.sections) && !setsPassword(in)
}

// startingRead is the read record this plan starts from (the private
// state's, domain_read.go), raw, when a dry run may be handed on from it:
// a read that found no change running.
func (p *planning) startingRead(ctx context.Context) ([]byte, *domainRead) {
	rd := readDomainRead(ctx, p.req.Private)
	if rd == nil || rd.Running {
		return nil, nil
	}
	raw, _ := p.req.Private.GetKey(ctx, privateDomainRead)
	return raw, rd
}

// handOn hands dr, this plan's own dry run of in, to what follows: at
// creation to Create in this process, else to the plan Terraform makes at
// apply from the same read (a note).
func (p *planning) handOn(ctx context.Context, in *searchclient.UpdateDomainConfigInput, dr *dryRunResult) {
	if !p.handable(in, dr) {
		return
	}
	if p.creating() {
		handToCreate(p.h.handoffName(in, nil), dr)
		return
	}
	if raw, _ := p.startingRead(ctx); raw != nil {
		p.warnUnsafe(p.h.leaveNote(ctx, p.h.handoffName(in, raw), handoffNote{ID: dr.id, Mode: dr.mode, Created: time.Now()}))
	}
}

// reuseDryRun is the plan's verdict without a dry run of its own: the
// domain's latest dry run, when a note names it for exactly in and the
// service's record of it proves it analysed in on the domain as it is now
// (provenDryRun). Then it is the reviewed plan's own dry run, or one of
// the same change from the same starting point, and this the plan
// Terraform makes at apply. nil otherwise, and the plan dry-runs: a note
// is only a saving, never evidence.
func (p *planning) reuseDryRun(ctx context.Context, in *searchclient.UpdateDomainConfigInput) *dryRunResult {
	if p.creating() || p.set.DryRunMode.ValueString() != searchclient.DryRunModeVerbose || p.h.refreshed.Has(p.domain) {
		// A fresh plan (its refresh read the domain in this walk) runs its
		// own dry run.
		return nil
	}
	raw, rd := p.startingRead(ctx)
	if raw == nil {
		return nil
	}
	note, unsafe := p.h.takeNote(ctx, p.h.handoffName(in, raw))
	p.warnUnsafe(unsafe)
	if note == nil {
		return nil
	}
	dr, why := p.provenDryRun(ctx, in, note.ID, rd)
	if why != "" {
		tflog.Debug(ctx, "The dry run a note names does not stand for this change", map[string]any{"domain_name": p.domain, "dry_run_id": note.ID, "reason": why})
		return nil
	}
	tflog.Info(ctx, "Search domain dry run reused", map[string]any{"domain_name": p.domain, "dry_run_id": dr.id, "deployment_type": dr.deploymentType})
	return dr
}

// provenDryRun is the dry run id when the service proves it stands for in:
// it is the domain's latest dry run (nobody dry-ran since), a completed
// dynamic Verbose one made at most reuseMaxAge ago by the service's clock
// from the change the read record rd names; the domain's latest change is
// still that one, none is running; and its DryRunConfig is the domain as
// it is now with in laid over (notAnalysed). Else why not.
func (p *planning) provenDryRun(ctx context.Context, in *searchclient.UpdateDomainConfigInput, id string, rd *domainRead) (*dryRunResult, string) {
	out, err := p.c.DescribeDryRunProgress(ctx, searchclient.DescribeDryRunProgressInput{DomainName: in.DomainName, LoadDryRunConfig: true})
	if err != nil || out.DryRunProgressStatus == nil || out.DryRunConfig == nil {
		return nil, "no answer"
	}
	st, planned := out.DryRunProgressStatus, out.DryRunConfig
	if searchclient.Deref(st.DryRunId) != id {
		return nil, "someone dry-ran the domain since"
	}
	created, perr := time.Parse(time.RFC3339, searchclient.Deref(st.CreationDate))
	switch {
	case perr != nil || !out.Clock.Known():
		return nil, "no creation date or service clock"
	case out.Clock.At.Sub(created) > reuseMaxAge:
		return nil, "too old"
	}
	dr := newDryRunResult(searchclient.DryRunModeVerbose, st, out.DryRunResults, planned.ModifyingProperties, changeID(planned.ChangeProgressDetails))
	if d := planned.ChangeProgressDetails; d != nil {
		dr.afterRunning = searchclient.ChangeRunning(searchclient.Deref(d.ConfigChangeStatus))
	}
	switch {
	case !p.handable(in, dr):
		return nil, "not a completed dynamic Verbose dry run"
	case dr.after != rd.Change:
		return nil, "made from another change than the one last read"
	}
	live, err := findDomainConfig(ctx, p.c, p.domain, p.req.State.Raw)
	switch {
	case err != nil:
		return nil, "the domain could not be read: " + err.Error()
	case live.latestChange != rd.Change || live.running != "":
		return nil, "the domain changed since the read"
	}
	if why := notAnalysed(planned, st.AcceptedWarnings, live, in, p.req.State.Raw); why != "" {
		return nil, why
	}
	return dr, ""
}

// setsPassword reports whether in carries the master user password.
func setsPassword(in *searchclient.UpdateDomainConfigInput) bool {
	aso, _ := in.Sections["AdvancedSecurityOptions"].(map[string]any)
	mu, _ := aso["MasterUserOptions"].(map[string]any)
	_, ok := mu["MasterUserPassword"]
	return ok
}

// reviewedAtCreate is the dry run Create may send on (sendReviewed): the
// one the plan at apply made just before in this process and handed on
// for exactly in, when its verdict is the one the plan showed. nil when
// there is none; sendReviewed then dry-runs again. sendReviewed still
// checks that the domain shows no change since it.
func reviewedAtCreate(h handoff, planned *verdict, woChanged bool, set settings, in *searchclient.UpdateDomainConfigInput) (*reviewedDryRun, *dryRunResult) {
	if planned == nil || woChanged || set.DryRunMode.ValueString() != searchclient.DryRunModeVerbose {
		return nil, nil
	}
	dr := takeForCreate(h.handoffName(in, nil))
	if dr == nil || !dr.verdict().equal(*planned) {
		return nil, nil
	}
	return &reviewedDryRun{ID: dr.id, Request: requestKey(in), After: dr.after}, dr
}
