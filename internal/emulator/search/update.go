package search

import (
	"crypto/sha256"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"sort"
	"time"
)

// updateDomainConfig is UpdateDomainConfig: a dry run is analysed and
// recorded (rule 1: nothing changes); a real change is refused while any
// Critical failure or unaccepted Advisory warning stands (rules 2 and 3),
// else it starts. An injected fault's override o (nil for none) imposes
// a dry run's verdict or adds to its findings; a real change ignores it.
func (s *Service) updateDomainConfig(d *domain, who string, body []byte, now time.Time, o *core.DryRunOverride) (any, *apiError) {
	req, aerr := parseRequest(body)
	if aerr != nil {
		return nil, aerr
	}
	u := planUpdate(d, req)

	// A Verbose dry run and a real change report an over-long snapshot
	// pause as CRIT_SNAPSHOT_PAUSE_TOO_LONG; a Basic dry run, which does no
	// validation, refuses it outright so no limit goes unchecked.
	if dur, long := snapshotPauseTooLong(req.typed.AutomatedSnapshotPauseOptions); long && req.dryRun && req.mode != dryRunModeVerbose {
		return nil, validationError("AutomatedSnapshotPauseOptions may suspend snapshots for at most 3 days, not %s.", fmtDuration(dur))
	}
	if req.dryRun {
		out := s.startDryRun(d, u, now, o)
		s.record(d, who, u, d.dryRuns[len(d.dryRuns)-1].findings, "")
		return out, nil
	}
	if d.active != nil {
		return nil, limitExceeded("A change is already in progress for domain %s (change %s); wait for it to complete before submitting another.", d.name, d.active.id)
	}
	fs := analyse(d.config, u.next, req, u.kind, now)
	if b := blocking(fs, req.typed.AcceptedWarnings); len(b) > 0 {
		return nil, validationError("The change is blocked by validation failures: %s. Advisory warnings can be accepted by listing their codes in AcceptedWarnings; Critical failures cannot.", describeFindings(b))
	}
	if len(u.props) == 0 {
		// Nothing to change: no change is started.
		s.record(d, who, u, fs, "")
		return map[string]any{"DomainConfig": s.renderDomainConfig(d, now)}, nil
	}
	if a := req.typed.AdvancedSecurityOptions; a != nil && a.MasterUserOptions != nil && a.MasterUserOptions.MasterUserPassword != nil {
		d.masterPassword = sha256.Sum256([]byte(*a.MasterUserOptions.MasterUserPassword))
	}
	c := s.startChange(d, u, fs, now)
	s.record(d, who, u, fs, c.id)
	// The answer shows the pending values.
	cfg := s.renderConfigOf(d, c.next, modifyingProperties(c.props), now)
	return map[string]any{"DomainConfig": cfg}, nil
}

// update is a request planned against a configuration: base, and the
// configuration next it would leave, changing props, by a deployment of
// kind. after is the running change a dry run starts from, if any.
type update struct {
	req        *request
	base, next map[string]any
	props      []propChange
	kind       string
	after      *change
}

// planUpdate plans req against the domain. A dry run submitted while a
// change runs is analysed against the configuration that change will
// leave: that is what the request would be applied to once the domain
// takes changes again (README.md).
func planUpdate(d *domain, req *request) *update {
	u := &update{req: req, base: d.config}
	if req.dryRun && d.active != nil {
		u.base, u.after = d.active.next, d.active
	}
	u.next, u.props = plan(u.base, req)
	u.kind = deploymentType(u.props)
	return u
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
