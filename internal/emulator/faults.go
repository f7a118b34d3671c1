package emulator

import (
	"fmt"
	"sync"
	"time"
)

// FaultKind is what an injected fault does to a matching request.
type FaultKind string

// The faults the emulator can inject.
const (
	// FaultError answers with a server error (Status, default 500) before
	// the operation runs.
	FaultError FaultKind = "error"
	// FaultThrottle answers with the protocol's throttling error before the
	// operation runs.
	FaultThrottle FaultKind = "throttle"
	// FaultDrop closes the connection without answering, before the
	// operation runs.
	FaultDrop FaultKind = "drop"
	// FaultDelay waits Delay, then runs the operation and answers normally.
	FaultDelay FaultKind = "delay"
	// FaultLostResponse runs the operation (its effect is kept), then closes
	// the connection without answering.
	FaultLostResponse FaultKind = "lost_response"
)

// Fault is one injected fault. Empty Service or Operation match any.
type Fault struct {
	Service   string    `json:"service,omitempty"`
	Operation string    `json:"operation,omitempty"`
	Kind      FaultKind `json:"kind"`
	Status    int       `json:"status,omitempty"`
	// Code is the error an error fault answers with (the exception name of
	// a JSON service, such as BaseException, or a Query error code); empty
	// is the protocol's internal error. With a Code, Status may be 4xx.
	Code  string        `json:"code,omitempty"`
	Delay time.Duration `json:"-"`
	// DelayText is Delay in Go duration syntax, for the admin API.
	DelayText string `json:"delay,omitempty"`
	// DryRun, when set, matches only dry runs ("only") or only real
	// requests ("exclude").
	DryRun string `json:"dry_run,omitempty"`
	// Times is how many matching requests the fault hits; 0 means once,
	// -1 means every one.
	Times int `json:"times,omitempty"`
	// Hits counts the requests hit so far.
	Hits int `json:"hits"`
}

func (f *Fault) validate() error {
	switch f.Kind {
	case FaultError, FaultThrottle, FaultDrop, FaultLostResponse:
	case FaultDelay:
		if f.Delay == 0 && f.DelayText != "" {
			d, err := time.ParseDuration(f.DelayText)
			if err != nil {
				return fmt.Errorf("delay %q: %w", f.DelayText, err)
			}
			f.Delay = d
		}
		if f.Delay <= 0 {
			return fmt.Errorf("a delay fault needs a positive delay")
		}
	default:
		return fmt.Errorf("unknown fault kind %q (error, throttle, drop, delay, lost_response)", f.Kind)
	}
	switch {
	case f.Code != "" && f.Kind != FaultError:
		return fmt.Errorf("code %q: only an error fault answers with a code", f.Code)
	case f.Code != "" && f.Status != 0 && (f.Status < 400 || f.Status > 599):
		return fmt.Errorf("status %d: an error fault answers with a 4xx or 5xx status", f.Status)
	case f.Code == "" && f.Status != 0 && (f.Status < 500 || f.Status > 599):
		return fmt.Errorf("status %d: an error fault without a code answers with a 5xx status", f.Status)
	}
	if f.DryRun != "" && f.DryRun != "only" && f.DryRun != "exclude" {
		return fmt.Errorf("dry_run %q: use only or exclude", f.DryRun)
	}
	if f.Times == 0 {
		f.Times = 1
	}
	return nil
}

type faults struct {
	mu   sync.Mutex
	list []*Fault
}

func (fs *faults) add(f Fault) error {
	if err := f.validate(); err != nil {
		return err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = append(fs.list, &f)
	return nil
}

// take returns the first fault matching the request and counts the hit.
func (fs *faults) take(service, op string, dryRun bool) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.list {
		if (f.Service != "" && f.Service != service) || (f.Operation != "" && f.Operation != op) {
			continue
		}
		if (f.DryRun == "only" && !dryRun) || (f.DryRun == "exclude" && dryRun) {
			continue
		}
		f.Hits++
		hit := *f
		if f.Times > 0 && f.Hits >= f.Times {
			fs.list = append(fs.list[:i], fs.list[i+1:]...)
		}
		return &hit
	}
	return nil
}

func (fs *faults) snapshot() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, 0, len(fs.list))
	for _, f := range fs.list {
		out = append(out, *f)
	}
	return out
}

func (fs *faults) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
}
