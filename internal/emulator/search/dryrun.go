package search

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// maxDryRuns is how many dry runs a domain keeps; the oldest is dropped
// first (README.md), so memory stays bounded however many are made.
const maxDryRuns = 100

// dryRun is one recorded dry run.
type dryRun struct {
	id       string
	mode     string
	created  time.Time
	duration time.Duration
	accepted []string
	kind     string
	message  string
	findings []finding
	props    []propChange
	planned  map[string]any
	// after is the domain's most recent change when the dry run was made:
	// its DryRunConfig names that change as it stood then, so a client can
	// tell a change made since (the dry run is frozen at its own time).
	after *change
}

// startDryRun analyses applying u to its base without applying it. The
// base is the domain's configuration, or the one the running change
// (u.after) will leave. An injected override o (nil for none) sets the
// verdict, which the findings then follow (a blue/green verdict outside
// the off-peak window is advised against), and adds its findings.
func (s *Service) startDryRun(d *domain, u *update, now time.Time, o *core.DryRunOverride) any {
	message := deploymentMessage(u.kind, u.props)
	if o != nil && o.DeploymentType != "" {
		u.kind = o.DeploymentType
		message = "Injected verdict: this change requires a " + o.DeploymentType + " deployment."
	}
	dr := &dryRun{
		id: core.UUID(), mode: u.req.mode, created: now, accepted: slices.Clone(u.req.typed.AcceptedWarnings),
		kind: u.kind, message: message, props: u.props, planned: u.next,
		after: d.mostRecentChange(),
	}
	if u.after != nil {
		dr.message += " Change " + u.after.id + " is in progress; this analysis starts from the configuration it will leave."
	}
	if dr.mode == dryRunModeVerbose {
		dr.duration = s.pace.DryRun
		dr.findings = withInjected(analyse(u.base, u.next, u.req, u.kind, now), o)
	}
	d.dryRuns = append(d.dryRuns, dr)
	if n := len(d.dryRuns) - maxDryRuns; n > 0 {
		// Oldest first out; a new slice, so the dropped runs' planned
		// configurations are freed.
		d.dryRuns = append([]*dryRun(nil), d.dryRuns[n:]...)
	}
	// The answer shows the domain as it is (rule 1), and in
	// ModifyingProperties what the dry run would change.
	return map[string]any{
		"DomainConfig":         s.renderConfigOf(d, d.config, modifyingProperties(dr.props), now),
		"DryRunProgressStatus": dr.progress(now),
		"DryRunResults":        dr.results(),
	}
}

// status: a Basic run is done at once; a Verbose one is pending for its
// first quarter, in-progress until its duration has passed, then completed.
func (dr *dryRun) status(now time.Time) (string, time.Time) {
	elapsed := now.Sub(dr.created)
	switch {
	case elapsed >= dr.duration:
		return dryRunStatusCompleted, dr.created.Add(dr.duration)
	case elapsed < dr.duration/4:
		return dryRunStatusPending, dr.created
	}
	return dryRunStatusInProgress, dr.created.Add(dr.duration / 4)
}

// progress is DryRunProgressStatus; ValidationFailures appear once the run
// has completed.
func (dr *dryRun) progress(now time.Time) map[string]any {
	st, at := dr.status(now)
	out := map[string]any{
		"DryRunId":     dr.id,
		"DryRunStatus": st,
		"CreationDate": dr.created.Format(time.RFC3339),
		"UpdateDate":   at.Format(time.RFC3339),
	}
	if len(dr.accepted) > 0 {
		out["AcceptedWarnings"] = dr.accepted
	}
	if st == dryRunStatusCompleted && len(dr.findings) > 0 {
		out["ValidationFailures"] = dr.findings
	}
	return out
}

// results: the deployment type is known as soon as the run is submitted,
// so DryRunResults is present in every state.
func (dr *dryRun) results() map[string]any {
	return map[string]any{"DeploymentType": dr.kind, "Message": dr.message}
}

// describeDryRun is DescribeDryRunProgress. Without dryRunId it reports
// the domain's most recent dry run.
func (s *Service) describeDryRun(d *domain, r *http.Request, now time.Time) (any, *apiError) {
	q := r.URL.Query()
	id := q.Get("dryRunId")
	load, aerr := flag(q, "loadDryRunConfig")
	if aerr != nil {
		return nil, aerr
	}
	var dr *dryRun
	if id == "" {
		if len(d.dryRuns) == 0 {
			return nil, notFound("Domain %s has no dry run.", d.name)
		}
		dr = d.dryRuns[len(d.dryRuns)-1]
	} else {
		if err := validID(id); err != nil {
			return nil, validationError("dryRunId: %v", err)
		}
		for _, x := range d.dryRuns {
			if x.id == id {
				dr = x
			}
		}
		if dr == nil {
			return nil, notFound("Dry run %s not found for domain %s.", id, d.name)
		}
	}
	out := map[string]any{"DryRunProgressStatus": dr.progress(now), "DryRunResults": dr.results()}
	if load {
		if dr.mode != dryRunModeVerbose {
			return nil, disabledOperation("loadDryRunConfig is supported for Verbose dry runs only; dry run %s was %s.", dr.id, dr.mode)
		}
		out["DryRunConfig"] = s.renderStatus(d, dr.planned, progressView{latest: dr.after, at: dr.created, modifying: modifyingProperties(dr.props)}, now)
	}
	return out, nil
}

// flag reads a boolean query parameter: present with no value, "true" or
// "1" is true; absent, "false" or "0" is false.
func flag(q url.Values, name string) (bool, *apiError) {
	if !q.Has(name) {
		return false, nil
	}
	switch q.Get(name) {
	case "", "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, validationError("%s must be true or false, not %q.", name, q.Get(name))
}

// withInjected is fs with an override's findings added, sorted by code as
// the service sorts its own.
func withInjected(fs []finding, o *core.DryRunOverride) []finding {
	if o == nil || len(o.Findings) == 0 {
		return fs
	}
	for _, f := range o.Findings {
		fs = append(fs, finding{Code: f.Code, Message: f.Message, Severity: f.Severity})
	}
	slices.SortStableFunc(fs, func(a, b finding) int { return strings.Compare(a.Code, b.Code) })
	return fs
}
