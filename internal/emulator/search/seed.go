package search

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ValidDomainName checks a domain name by the service's rule (3 to 28
// characters of a-z, 0-9 and -, starting with a letter), for those that
// name a domain outside a request (a fault, a seed file).
func ValidDomainName(name string) error { return validDomainName(name) }

// StartChange submits request, an UpdateDomainConfig body (sections and
// AcceptedWarnings; not a dry run), to the domain name of region ("" for
// the home region) as a caller would, so it obeys every rule of a real
// change, and returns the id of the change it started. A request the
// service refuses, or one that changes nothing, is an error: a seed file
// asks for a change in progress.
func (s *Service) StartChange(region, name string, request json.RawMessage) (string, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(request, &probe); err == nil {
		if _, ok := probe["DryRun"]; ok {
			return "", errors.New("DryRun: a change in progress is a real change, not a dry run")
		}
	}
	if region == "" {
		region = s.region
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.domains[domainKey{region: region, name: name}]
	if !ok {
		return "", fmt.Errorf("no domain %s in %s", name, region)
	}
	now := s.clock.Now()
	s.settle(d, now)
	if d.active != nil {
		return "", fmt.Errorf("domain %s already has change %s in progress", name, d.active.id)
	}
	if _, aerr := s.updateDomainConfig(d, "", request, now, nil); aerr != nil {
		return "", errors.New(aerr.message)
	}
	if d.active == nil {
		return "", errors.New("the request changes nothing, so no change starts")
	}
	return d.active.id, nil
}

// PaceWith is p with the durations set names (dry_run, blue_green_stage,
// dynamic: the admin API's pace) in Go duration syntax.
func PaceWith(p Pace, set map[string]string) (Pace, error) {
	p, msg := paceWith(p, set)
	if msg != "" {
		return p, errors.New(msg)
	}
	if p.DryRun < 0 || p.BlueGreenStage < 0 || p.Dynamic < 0 {
		return p, errors.New("pace durations cannot be negative")
	}
	return p, nil
}
