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
}

type requestLog struct {
	mu    sync.Mutex
	seq   int
	calls []Call
}

func (l *requestLog) add(c Call) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	c.Seq = l.seq
	l.calls = append(l.calls, c)
}

func (l *requestLog) snapshot() []Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Call(nil), l.calls...)
}

func (l *requestLog) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = nil
}
