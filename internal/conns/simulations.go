package conns

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// SimulationWindow is how long a plan-time policy question waits for the
// others of its group before they are asked in one call: Terraform plans
// up to -parallelism resources at once, and their questions arrive within
// a few milliseconds of each other, while a call costs a network round
// trip.
const SimulationWindow = 10 * time.Millisecond

// MaxSimulatedResources is the most resources one call asks about: the
// service answers one result per action and resource, 100 to a page by
// default, so a group of one action is one round trip.
const MaxSimulatedResources = 100

// Simulations asks the identity service's policy simulation
// (SimulatePrincipalPolicy) the questions of the resources this provider
// instance plans at the same time, one call per group: questions that
// differ only in their resources (same principal, actions and context
// entries) are asked together, each waiter getting its own resources'
// results, or the call's error. A group's batch goes when its window ends
// and the group's call before it has returned (or when it is full): the
// questions that arrive during a call wait for the next one together,
// so the slower the network, the larger the batches.
type Simulations struct {
	simulate func(context.Context, identity.SimulatePrincipalPolicyInput) ([]identity.EvaluationResult, error)
	// window returns what a group waits on before its call: a timer of
	// SimulationWindow, or a test's channel.
	window func() <-chan time.Time
	max    int

	mu   sync.Mutex
	open map[string]*simulationBatch
	// last is each group's latest batch, until it is answered.
	last map[string]*simulationBatch
}

// NewSimulations groups the questions asked of simulate.
func NewSimulations(simulate func(context.Context, identity.SimulatePrincipalPolicyInput) ([]identity.EvaluationResult, error)) *Simulations {
	return &Simulations{
		simulate: simulate,
		window:   func() <-chan time.Time { return time.After(SimulationWindow) },
		max:      MaxSimulatedResources,
		open:     map[string]*simulationBatch{},
		last:     map[string]*simulationBatch{},
	}
}

// simulationBatch is one group's call: the questions that joined it
// before it was sent, and, once done is closed, the answer.
type simulationBatch struct {
	key string
	in  identity.SimulatePrincipalPolicyInput
	// full is closed when the batch can take no more: it is sent at once.
	full    chan struct{}
	flushed bool
	// prev is the group's batch before this one, whose call this one
	// waits for; only send reads it.
	prev *simulationBatch
	// waiting counts the questions still waiting: the call is cancelled
	// when the last one leaves.
	waiting int
	ctx     context.Context
	cancel  context.CancelFunc

	done    chan struct{}
	results []identity.EvaluationResult
	err     error
}

// Simulate answers in (its ResourceArns, at least one) with the results
// on those resources, from a call shared with the other questions of its
// group that arrive before the call goes. A waiter whose ctx ends leaves
// at once; the call goes on for the others.
func (s *Simulations) Simulate(ctx context.Context, in identity.SimulatePrincipalPolicyInput) ([]identity.EvaluationResult, error) {
	if len(in.ResourceArns) == 0 {
		return nil, fmt.Errorf("a grouped policy simulation needs the resources it asks about")
	}
	b := s.join(ctx, in)
	select {
	case <-b.done:
		return b.resultsFor(in.ResourceArns)
	case <-ctx.Done():
		s.leave(b)
		return nil, ctx.Err()
	}
}

// join adds in's resources to its group's open batch, opening one (and
// the goroutine that sends it) when there is none or it has no room.
func (s *Simulations) join(ctx context.Context, in identity.SimulatePrincipalPolicyInput) *simulationBatch {
	key := groupKey(in)
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.open[key]
	if b != nil && len(b.in.ResourceArns)+len(newResources(b.in.ResourceArns, in.ResourceArns)) > s.max {
		s.flush(b)
		b = nil
	}
	if b == nil {
		bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		b = &simulationBatch{key: key, in: in, full: make(chan struct{}), done: make(chan struct{}), ctx: bctx, cancel: cancel}
		b.in.ResourceArns = nil
		b.prev = s.last[key]
		s.open[key], s.last[key] = b, b
		go s.send(b)
	}
	b.in.ResourceArns = append(b.in.ResourceArns, newResources(b.in.ResourceArns, in.ResourceArns)...)
	b.waiting++
	if len(b.in.ResourceArns) >= s.max {
		s.flush(b)
	}
	return b
}

// leave is a waiter giving up: the last one cancels the call, and a batch
// not sent yet is closed to newcomers, who would get its cancellation.
func (s *Simulations) leave(b *simulationBatch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b.waiting--
	if b.waiting == 0 {
		s.seal(b)
		b.cancel()
	}
}

// seal closes b to newcomers. Callers hold s.mu.
func (s *Simulations) seal(b *simulationBatch) {
	if s.open[b.key] == b {
		delete(s.open, b.key)
	}
}

// flush seals b and sends it without waiting out the window. Callers
// hold s.mu.
func (s *Simulations) flush(b *simulationBatch) {
	s.seal(b)
	if !b.flushed {
		b.flushed = true
		close(b.full)
	}
}

// send waits out the window and the group's call before (unless the
// batch fills up, or nobody waits any more), then makes the batch's one
// call.
func (s *Simulations) send(b *simulationBatch) {
	defer s.answered(b)
	select {
	case <-s.window():
	case <-b.full:
	case <-b.ctx.Done():
	}
	if prev := b.prev; prev != nil {
		b.prev = nil
		select {
		case <-prev.done:
		case <-b.full:
		case <-b.ctx.Done():
		}
	}
	s.mu.Lock()
	s.seal(b)
	in := b.in
	in.ResourceArns = slices.Clone(b.in.ResourceArns)
	s.mu.Unlock()
	if err := b.ctx.Err(); err != nil {
		b.err = err
		return
	}
	b.results, b.err = s.simulate(b.ctx, in)
}

// answered hands b's answer to its waiters.
func (s *Simulations) answered(b *simulationBatch) {
	b.cancel()
	s.mu.Lock()
	if s.last[b.key] == b {
		delete(s.last, b.key)
	}
	s.mu.Unlock()
	close(b.done)
}

// resultsFor is the batch's answer on resources: its error, or the
// results whose EvalResourceName is one of them. A resource the answer
// has no result for is an error, never an allow.
func (b *simulationBatch) resultsFor(resources []string) ([]identity.EvaluationResult, error) {
	if b.err != nil {
		return nil, b.err
	}
	var out []identity.EvaluationResult
	for _, r := range resources {
		n := len(out)
		for _, res := range b.results {
			if res.EvalResourceName == r {
				out = append(out, res)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("the policy simulation answered nothing on %s", r)
		}
	}
	return out, nil
}

// groupKey is what questions asked in one call share: everything but
// their resources.
func groupKey(in identity.SimulatePrincipalPolicyInput) string {
	in.ResourceArns = nil
	k, _ := json.Marshal(in) // strings and slices of strings: it cannot fail
	return string(k)
}

// newResources are the members of add that have is lacks, once each.
func newResources(has, add []string) []string {
	var out []string
	for _, r := range add {
		if !slices.Contains(has, r) && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
