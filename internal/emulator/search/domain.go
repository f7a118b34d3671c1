package search

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"time"
)

// domain is one search domain. config maps a section name to its plain
// value in the request's shape (EngineMode, EngineVersion and IPAddressType
// included); secrets are never stored in it.
type domain struct {
	name string
	// region is the region whose endpoint serves the domain: a request
	// signed for another region does not see it.
	region  string
	id      string
	created time.Time
	config  map[string]any
	status  map[string]*optionStatus
	changes []*change // oldest first
	active  *change   // the change in flight, if any
	dryRuns []*dryRun // oldest first
	// masterPassword is the SHA-256 of the master user's password, which
	// the service keeps (hashed) and never returns.
	masterPassword [32]byte
}

// optionStatus is the bookkeeping behind a section's Status.
type optionStatus struct {
	created time.Time
	updated time.Time
	version int64
}

// statusOf is a section's bookkeeping; a section the domain has never had
// (in a planned configuration) counts from the domain's creation.
func (d *domain) statusOf(name string) *optionStatus {
	if st, ok := d.status[name]; ok {
		return st
	}
	return &optionStatus{created: d.created, updated: d.created, version: 1}
}

// mostRecentChange is nil when the domain has never been changed.
func (d *domain) mostRecentChange() *change {
	if len(d.changes) == 0 {
		return nil
	}
	return d.changes[len(d.changes)-1]
}

// touch records that sections were (re)written at t.
func (d *domain) touch(sections []string, t time.Time) {
	for _, sec := range sections {
		st, ok := d.status[sec]
		if !ok {
			st = &optionStatus{created: t}
			d.status[sec] = st
		}
		st.updated = t
		st.version++
	}
}

func (s *Service) arn(d *domain) string {
	return fmt.Sprintf("arn:cloud:search:%s:%s:domain/%s", d.region, s.account, d.name)
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:12]
}

// anonymousAuthPeriod is how long anonymous access lasts once enabled
// (AnonymousAuthDisableDate is that long after the section's UpdateDate).
const anonymousAuthPeriod = 30 * 24 * time.Hour

// renderSection adds the response-only fields to a section's value;
// updated is the section's UpdateDate.
func (s *Service) renderSection(name string, v any, updated, now time.Time) any {
	v = clone(v)
	m, _ := v.(map[string]any)
	switch name {
	case "AdvancedSecurityOptions":
		if m["AnonymousAuthEnabled"] == true {
			m["AnonymousAuthDisableDate"] = epoch(updated.Add(anonymousAuthPeriod))
		}
	case "VPCOptions":
		if subnets, ok := m["SubnetIds"].([]any); ok && len(subnets) > 0 {
			zones := []any{}
			for i := range subnets {
				zones = append(zones, fmt.Sprintf("%s%c", s.region, 'a'+i%3))
			}
			m["AvailabilityZones"] = zones
			m["VPCId"] = "vpc-" + shortHash(fmt.Sprint(subnets[0]))
		}
	case "AutomatedSnapshotPauseOptions":
		m["State"] = snapshotPauseState(m, now)
	case "AIMLOptions":
		if nl, ok := m["NaturalLanguageQueryGenerationOptions"].(map[string]any); ok {
			nl["CurrentState"] = "NOT_ENABLED"
			switch nl["DesiredState"] {
			case "ENABLED":
				nl["CurrentState"] = "ENABLE_COMPLETE"
			case "DISABLED":
				nl["CurrentState"] = "DISABLE_COMPLETE"
			}
		}
	case "WorkforceIdentityOptions":
		if arn, ok := m["WorkforceIdentityInstanceARN"].(string); ok && arn != "" {
			m["WorkforceIdentityApplicationARN"] = fmt.Sprintf("arn:cloud:sso::%s:application/%s", s.account, shortHash(arn))
			m["IdentityStoreId"] = "d-" + shortHash(arn)[:10]
		}
	}
	return v
}

// snapshotPauseState: Disabled, Scheduled (before StartTime), Paused
// (within the window) or Expired (after EndTime).
func snapshotPauseState(m map[string]any, now time.Time) string {
	if en, _ := m["Enabled"].(bool); !en {
		return "Disabled"
	}
	start, _ := m["StartTime"].(float64)
	end, _ := m["EndTime"].(float64)
	t := float64(now.UnixMilli()) / 1000
	switch {
	case t < start:
		return "Scheduled"
	case t <= end:
		return "Paused"
	}
	return "Expired"
}

// renderDomainConfig is the wrapped DomainConfig of the active
// configuration, with Processing states, ModifyingProperties and
// ChangeProgressDetails while a change runs.
func (s *Service) renderDomainConfig(d *domain, now time.Time) map[string]any {
	return s.renderConfigOf(d, d.config, activeModifying(d), now)
}

// activeModifying is the running change's ModifyingProperties, nil when
// no change runs.
func activeModifying(d *domain) []map[string]any {
	if d.active == nil {
		return nil
	}
	return modifyingProperties(d.active.props)
}

// renderConfigOf is the wrapped DomainConfig of config; modifying, when
// not nil, is its ModifyingProperties.
func (s *Service) renderConfigOf(d *domain, config map[string]any, modifying []map[string]any, now time.Time) map[string]any {
	processing := map[string]bool{}
	if d.active != nil {
		for _, sec := range d.active.sections {
			processing[sec] = true
		}
	}
	out := map[string]any{}
	for name, v := range config {
		st := d.statusOf(name)
		state := optionStateActive
		if processing[name] {
			state = optionStateProcessing
		}
		status := map[string]any{
			"CreationDate":    epoch(st.created),
			"UpdateDate":      epoch(st.updated),
			"UpdateVersion":   st.version,
			"State":           state,
			"PendingDeletion": false,
		}
		if name == "AutoTuneOptions" {
			status["ErrorMessage"] = ""
		}
		out[name] = map[string]any{"Options": s.renderSection(name, v, st.updated, now), "Status": status}
	}
	if c := d.mostRecentChange(); c != nil {
		out["ChangeProgressDetails"] = c.details(now)
	}
	if modifying != nil {
		out["ModifyingProperties"] = modifying
	}
	return out
}

// progressView is what a domain status reports in progress: latest is the
// change its ChangeProgressDetails names, as of at; modifying, when not
// nil, is its ModifyingProperties.
type progressView struct {
	latest    *change
	at        time.Time
	modifying []map[string]any
}

// renderStatus is the domain status object (plain sections) of a
// configuration: the domain itself, or a dry run's planned domain. p is,
// for the domain, its most recent change now; for a dry run, the change it
// was made after, as it stood then.
func (s *Service) renderStatus(d *domain, config map[string]any, p progressView, now time.Time) map[string]any {
	out := s.renderPlainSections(d, config, now)
	s.addEndpoints(out, d, config)
	s.addDomainFields(out, d)
	if p.latest != nil {
		out["ChangeProgressDetails"] = p.latest.details(p.at)
	}
	if p.modifying != nil {
		out["ModifyingProperties"] = p.modifying
	}
	return out
}

// renderPlainSections renders each section of config without its
// {Options, Status} wrapper; AutoTuneOptions shows its state, not its
// request shape.
func (s *Service) renderPlainSections(d *domain, config map[string]any, now time.Time) map[string]any {
	out := map[string]any{}
	for name, v := range config {
		out[name] = s.renderSection(name, v, d.statusOf(name).updated, now)
	}
	if at, ok := config["AutoTuneOptions"].(map[string]any); ok {
		state := "DISABLED"
		if at["DesiredState"] == "ENABLED" {
			state = "ENABLED"
		}
		out["AutoTuneOptions"] = map[string]any{"ErrorMessage": "", "State": state, "UseOffPeakWindow": at["UseOffPeakWindow"] == true}
	}
	return out
}

// addEndpoints: a VPC domain has a vpc endpoint, a public one an Endpoint;
// a dualstack domain has an EndpointV2 as well.
func (s *Service) addEndpoints(out map[string]any, d *domain, config map[string]any) {
	host := fmt.Sprintf("search-%s-%s.%s.search.cloud.example", d.name, shortHash(d.region+"/"+d.id), d.region)
	if subnets, ok := lookup(config, "VPCOptions", "SubnetIds").([]any); ok && len(subnets) > 0 {
		out["Endpoints"] = map[string]any{"vpc": "vpc-" + host}
	} else {
		out["Endpoint"] = host
	}
	if config["IPAddressType"] == dualstack {
		out["EndpointV2"] = fmt.Sprintf("search-%s-%s.%s.on.search.cloud.example", d.name, shortHash(d.region+"/"+d.id), d.region)
		out["DomainEndpointV2HostedZoneId"] = "Z" + shortHash(d.region)
	}
}

// addDomainFields sets the members that describe the domain rather than a
// configuration: its names, its processing state, its software.
func (s *Service) addDomainFields(out map[string]any, d *domain) {
	processing := d.active != nil
	out["ARN"] = s.arn(d)
	out["DomainId"] = d.id
	out["DomainName"] = d.name
	out["Created"] = true
	out["Deleted"] = false
	out["Processing"] = processing
	out["UpgradeProcessing"] = false
	out["DomainProcessingStatus"] = "Active"
	if processing {
		out["DomainProcessingStatus"] = "Modifying"
	}
	out["ServiceSoftwareOptions"] = map[string]any{
		"AutomatedUpdateDate": 0.0, "Cancellable": false, "CurrentVersion": "S2.19-R20250101",
		"Description": "There is no software update available for this domain.", "NewVersion": "",
		"OptionalDeployment": true, "UpdateAvailable": false, "UpdateStatus": "COMPLETED",
	}
}

// sectionsOf lists the sections of a change, sorted.
func sectionsOf(props []propChange) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range props {
		if !seen[p.path[0]] {
			seen[p.path[0]] = true
			out = append(out, p.path[0])
		}
	}
	sort.Strings(out)
	return out
}

// domainKey names a domain: a name is unique within its region.
type domainKey struct{ region, name string }

// home is the key of the domain name in the home region.
func (s *Service) home(name string) domainKey { return domainKey{region: s.region, name: name} }
