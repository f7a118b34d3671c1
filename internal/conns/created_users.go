package conns

import (
	"strings"
	"sync"
	"time"
)

// CreatedUsers are the users this provider instance created (one
// Terraform run: an apply), each with the service's clock when it was
// created. A key create for one of them has no interrupted create to
// recover (the identity package says why), so it skips the look for one.
type CreatedUsers struct {
	mu    sync.Mutex
	clock map[string]ServiceClock
}

// ServiceClock is the service's clock as one answer gave it: At by the
// service at our instant Local, which carries the monotonic reading, so
// Now is not moved by a step of the local wall clock.
type ServiceClock struct {
	At, Local time.Time
}

// Now is the service's clock now.
func (s ServiceClock) Now() time.Time { return s.At.Add(time.Since(s.Local)) }

// Add records that this instance created user name, and that the service's
// clock read at just now. A nil CreatedUsers records nothing.
func (c *CreatedUsers) Add(name string, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clock == nil {
		c.clock = map[string]ServiceClock{}
	}
	c.clock[strings.ToLower(name)] = ServiceClock{At: at, Local: time.Now()}
}

// Created reports whether this instance created user name (names are
// unique regardless of case), and the service's clock then.
func (c *CreatedUsers) Created(name string) (clock ServiceClock, ok bool) {
	if c == nil {
		return ServiceClock{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	clock, ok = c.clock[strings.ToLower(name)]
	return clock, ok
}
