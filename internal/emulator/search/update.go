package search

import (
	"crypto/sha256"
	"net/http"
	"net/url"
	"slices"
	"time"

	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// updateDomainConfig is UpdateDomainConfig: a dry run is analysed and
// recorded (rule 1: nothing changes); a real change is refused while any
// Critical failure or unaccepted Advisory warning stands (rules 2 and 3),
// else it starts.
func (s *Service) updateDomainConfig(d *domain, body []byte, now time.Time) (any, *apiError) {
	req, aerr := parseRequest(body)
	if aerr != nil {
		return nil, aerr
	}
	next, _ := merge(d.config, req.sections).(map[string]any)
	var props []propChange
	diff(nil, d.config, next, &props)
	for _, name := range req.writeOnly {
		props = append(props, propChange{path: splitName(name), writeOnly: true})
	}
	kind := deploymentType(props)

	// A Verbose dry run and a real change report an over-long snapshot
	// pause as CRIT_SNAPSHOT_PAUSE_TOO_LONG; a Basic dry run, which does no
	// validation, refuses it outright so no limit goes unchecked.
	if dur, long := snapshotPauseTooLong(req.typed.AutomatedSnapshotPauseOptions); long && req.dryRun && req.mode != api.DryRunModeVerbose {
		return nil, validationError("AutomatedSnapshotPauseOptions may suspend snapshots for at most 3 days, not %s.", fmtDuration(dur))
	}
	if req.dryRun {
		return s.startDryRun(d, req, next, props, kind, now), nil
	}
	if d.active != nil {
		return nil, limitExceeded("A change is already in progress for domain %s (change %s); wait for it to complete before submitting another.", d.name, d.active.id)
	}
	fs := analyse(d.config, next, req, kind, now)
	if b := blocking(fs, req.typed.AcceptedWarnings); len(b) > 0 {
		return nil, validationError("The change is blocked by validation failures: %s. Advisory warnings can be accepted by listing their codes in AcceptedWarnings; Critical failures cannot.", describeFindings(b))
	}
	if len(props) == 0 {
		// Nothing to change: no change is started.
		return map[string]any{"DomainConfig": s.renderDomainConfig(d, now)}, nil
	}
	if a := req.typed.AdvancedSecurityOptions; a != nil && a.MasterUserOptions != nil && a.MasterUserOptions.MasterUserPassword != nil {
		d.masterPassword = sha256.Sum256([]byte(*a.MasterUserOptions.MasterUserPassword))
	}
	c := s.startChange(d, req, next, props, kind, fs, now)
	cfg := s.renderConfigOf(d, c.next, now)
	return map[string]any{"DomainConfig": cfg}, nil
}

func splitName(name string) []string {
	var out []string
	start := 0
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			out = append(out, name[start:i])
			start = i + 1
		}
	}
	return append(out, name[start:])
}

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
	planned  map[string]any
}

// startDryRun analyses a change without applying it.
func (s *Service) startDryRun(d *domain, req *request, next map[string]any, props []propChange, kind string, now time.Time) any {
	dr := &dryRun{
		id: core.UUID(), mode: req.mode, created: now, accepted: slices.Clone(req.typed.AcceptedWarnings),
		kind: kind, message: deploymentMessage(kind, props), planned: next,
	}
	if dr.mode == api.DryRunModeVerbose {
		dr.duration = s.pace.DryRun
		dr.findings = analyse(d.config, next, req, kind, now)
	}
	d.dryRuns = append(d.dryRuns, dr)
	return map[string]any{
		"DomainConfig":         s.renderDomainConfig(d, now),
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
		return api.DryRunStatusCompleted, dr.created.Add(dr.duration)
	case elapsed < dr.duration/4:
		return api.DryRunStatusPending, dr.created
	}
	return api.DryRunStatusInProgress, dr.created.Add(dr.duration / 4)
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
	if st == api.DryRunStatusCompleted && len(dr.findings) > 0 {
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
		if err := api.ValidID(id); err != nil {
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
		if dr.mode != api.DryRunModeVerbose {
			return nil, disabledOperation("loadDryRunConfig is supported for Verbose dry runs only; dry run %s was %s.", dr.id, dr.mode)
		}
		out["DryRunConfig"] = s.renderStatus(d, dr.planned, now)
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
