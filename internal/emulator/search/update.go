package search

import (
	"crypto/sha256"
	"sort"
	"time"
)

// updateDomainConfig is UpdateDomainConfig: a dry run is analysed and
// recorded (rule 1: nothing changes); a real change is refused while any
// Critical failure or unaccepted Advisory warning stands (rules 2 and 3),
// else it starts.
func (s *Service) updateDomainConfig(d *domain, who string, body []byte, now time.Time) (any, *apiError) {
	req, aerr := parseRequest(body)
	if aerr != nil {
		return nil, aerr
	}
	// A dry run submitted while a change runs is analysed against the
	// configuration that change will leave: that is what the request would
	// be applied to once the domain takes changes again (README.md).
	base, after := d.config, (*change)(nil)
	if req.dryRun && d.active != nil {
		base, after = d.active.next, d.active
	}
	next, props := plan(base, req)
	kind := deploymentType(props)

	// A Verbose dry run and a real change report an over-long snapshot
	// pause as CRIT_SNAPSHOT_PAUSE_TOO_LONG; a Basic dry run, which does no
	// validation, refuses it outright so no limit goes unchecked.
	if dur, long := snapshotPauseTooLong(req.typed.AutomatedSnapshotPauseOptions); long && req.dryRun && req.mode != dryRunModeVerbose {
		return nil, validationError("AutomatedSnapshotPauseOptions may suspend snapshots for at most 3 days, not %s.", fmtDuration(dur))
	}
	if req.dryRun {
		out := s.startDryRun(d, req, base, next, props, kind, after, now)
		s.record(d, who, req, kind, d.dryRuns[len(d.dryRuns)-1].findings, "")
		return out, nil
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
		s.record(d, who, req, kind, fs, "")
		return map[string]any{"DomainConfig": s.renderDomainConfig(d, now)}, nil
	}
	if a := req.typed.AdvancedSecurityOptions; a != nil && a.MasterUserOptions != nil && a.MasterUserOptions.MasterUserPassword != nil {
		d.masterPassword = sha256.Sum256([]byte(*a.MasterUserOptions.MasterUserPassword))
	}
	c := s.startChange(d, req, next, props, kind, fs, now)
	s.record(d, who, req, kind, fs, c.id)
	// The answer shows the pending values.
	cfg := s.renderConfigOf(d, c.next, modifyingProperties(c.props), now)
	return map[string]any{"DomainConfig": cfg}, nil
}

// plan merges a request into a configuration and lists the properties it
// changes, sorted by name: every changed leaf, and every write-only leaf
// the request sets (the service cannot compare those, so they always
// count as changes).
func plan(base map[string]any, req *request) (map[string]any, []propChange) {
	next, _ := merge(base, req.sections).(map[string]any)
	var props []propChange
	diff(nil, base, next, &props)
	for _, p := range req.writeOnly {
		props = append(props, propChange{path: p, writeOnly: true})
	}
	sort.Slice(props, func(i, j int) bool { return props[i].name() < props[j].name() })
	return next, props
}
