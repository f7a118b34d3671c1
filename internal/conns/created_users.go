package conns

import (
	"strings"
	"sync"
	"time"
)

// CreatedUsers are the users this provider instance created (one
// Terraform run: an apply), each with how far the service's clock was
// ahead of ours when it was created. A key create for one of them has no
// interrupted create to recover (internal/recovery says why), so it skips
// the look for one.
type CreatedUsers struct {
	mu     sync.Mutex
	offset map[string]time.Duration
}

// Add records that this instance created user name. A nil CreatedUsers
// records nothing.
func (c *CreatedUsers) Add(name string, offset time.Duration) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.offset == nil {
		c.offset = map[string]time.Duration{}
	}
	c.offset[strings.ToLower(name)] = offset
}

// Created reports whether this instance created user name (names are
// unique regardless of case), and the clock offset then.
func (c *CreatedUsers) Created(name string) (offset time.Duration, ok bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	offset, ok = c.offset[strings.ToLower(name)]
	return offset, ok
}
