package emulator

import (
	"slices"
	"sync"
	"time"
)

// Call is one request in the emulator's log. It never holds a body, a
// header or a key: the log is safe to print.
type Call struct {
	Seq       int       `json:"seq"`
	Time      time.Time `json:"time"`
	Service   string    `json:"service"`
	Operation string    `json:"operation"`
	DryRun    bool      `json:"dry_run,omitempty"`
	Status    int       `json:"status"`
	Fault     FaultKind `json:"fault,omitempty"`
	// AccessKeyID is the signing key of a signed request.
	AccessKeyID string `json:"access_key_id,omitempty"`
	Region      string `json:"region,omitempty"`
	// Actions are the policy actions the service authorized for the
	// request (identity:GetUser, search:UpdateDomainConfig, ...), allowed or
	// refused; none for a call no policy governs (sts:GetCallerIdentity).
	Actions []string `json:"actions,omitempty"`
	// Started and Ended are when the emulator began reading the request
	// and finished answering it, by the machine's clock (not the service's,
	// which a test may hold): how many calls overlapped, not what time
	// the service saw.
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended"`
}

// DryRuns counts the dry runs (UpdateDomainConfig with DryRun) among
// calls, answered or refused.
func DryRuns(calls []Call) int {
	n := 0
	for _, c := range calls {
		if c.DryRun && c.Operation == "UpdateDomainConfig" {
			n++
		}
	}
	return n
}

// MostInFlight is the most calls of operation (every operation: "") that
// were being answered at the same time, among calls.
func MostInFlight(calls []Call, operation string) int {
	type edge struct {
		at    time.Time
		delta int
	}
	var edges []edge
	for _, c := range calls {
		if operation == "" || c.Operation == operation {
			edges = append(edges, edge{c.Started, 1}, edge{c.Ended, -1})
		}
	}
	// An end and a start at the same instant do not overlap.
	slices.SortFunc(edges, func(a, b edge) int {
		if d := a.at.Compare(b.at); d != 0 {
			return d
		}
		return a.delta - b.delta
	})
	most, now := 0, 0
	for _, e := range edges {
		now += e.delta
		most = max(most, now)
	}
	return most
}

// DefaultMaxLoggedCalls bounds the request log of an emulator whose Options
// name no bound: a long run (a benchmark of thousands of resources) keeps
// its latest calls without growing without end.
const DefaultMaxLoggedCalls = 100_000

// requestLog keeps the latest calls, at most max. When full it drops the
// oldest tenth at once, so adding stays cheap; dropped counts them.
type requestLog struct {
	mu      sync.Mutex
	seq     int
	max     int
	dropped int
	calls   []Call
}

func (l *requestLog) add(c Call) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	c.Seq = l.seq
	if most := l.limit(); len(l.calls) >= most {
		n := max(len(l.calls)-most+1, most/10)
		l.dropped += n
		l.calls = append(l.calls[:0], l.calls[n:]...)
	}
	l.calls = append(l.calls, c)
}

func (l *requestLog) limit() int {
	if l.max > 0 {
		return l.max
	}
	return DefaultMaxLoggedCalls
}

func (l *requestLog) snapshot() []Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Call(nil), l.calls...)
}

// droppedCalls is how many calls the bound has dropped since the last clear.
func (l *requestLog) droppedCalls() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

func (l *requestLog) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls, l.dropped = nil, 0
}
