package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// UpdateRecord is one UpdateDomainConfig the service accepted, a dry run
// or a real change, with what the service decided about it. Tests check
// the provider's promise on these: every real change it sends is a request
// a dry run of its own analysed, with the same verdict.
type UpdateRecord struct {
	Seq         int
	Domain      string
	AccessKeyID string
	DryRun      bool
	// Mode is Basic or Verbose for a dry run, "" for a real change.
	Mode string
	// Request identifies the request's content: its sections, the
	// write-only members it sets (not their values) and its accepted
	// warnings, the control members (DryRun, DryRunMode) left out.
	Request string
	// DeploymentType and Findings ("CODE (Severity)", sorted) are the
	// verdict: a Basic dry run has no findings.
	DeploymentType string
	Findings       []string
	// ChangeID is the change a real request started ("" when it changed
	// nothing).
	ChangeID string
}

// maxUpdateRecords bounds the records kept; the oldest go first.
const maxUpdateRecords = 1000

// UpdateRecords lists the accepted UpdateDomainConfig requests, oldest
// first (at most maxUpdateRecords).
func (s *Service) UpdateRecords() []UpdateRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.records)
}

// record adds an accepted update to the records: who sent it, the findings
// it was accepted with, and the change it started ("" when none).
func (s *Service) record(d *domain, who string, u *update, fs []finding, changeID string) {
	s.seq++
	r := UpdateRecord{
		Seq: s.seq, Domain: d.name, AccessKeyID: who, DryRun: u.req.dryRun, Request: requestDigest(u.req),
		DeploymentType: u.kind, Findings: []string{}, ChangeID: changeID,
	}
	if u.req.dryRun {
		r.Mode = u.req.mode
	}
	for _, f := range fs {
		r.Findings = append(r.Findings, fmt.Sprintf("%s (%s)", f.Code, f.Severity))
	}
	slices.Sort(r.Findings)
	s.records = append(s.records, r)
	if n := len(s.records) - maxUpdateRecords; n > 0 {
		s.records = append([]UpdateRecord(nil), s.records[n:]...)
	}
}

// requestDigest identifies a request's content (UpdateRecord.Request).
func requestDigest(req *request) string {
	accepted := slices.Clone(req.typed.AcceptedWarnings)
	slices.Sort(accepted)
	b, _ := json.Marshal(map[string]any{"Sections": req.sections, "WriteOnly": req.writeOnly, "AcceptedWarnings": accepted})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
