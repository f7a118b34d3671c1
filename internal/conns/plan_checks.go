package conns

import "sync"

// PlanChecks is what a configured provider remembers about its plan-time
// permission checks: once one cannot be made (the plan role may not
// simulate the apply principal, say), the others would fail alike, so
// they are not asked again and the plan carries one warning.
type PlanChecks struct {
	mu      sync.Mutex
	skipped error
}

// Skipped is the error that made a check impossible, or nil. A nil
// PlanChecks remembers nothing.
func (p *PlanChecks) Skipped() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.skipped
}

// Skip records err as the reason checks cannot be made; it reports
// whether this is the first, the one to warn about.
func (p *PlanChecks) Skip(err error) bool {
	if p == nil {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	first := p.skipped == nil
	if first {
		p.skipped = err
	}
	return first
}
