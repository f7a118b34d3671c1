package emulator

import (
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
