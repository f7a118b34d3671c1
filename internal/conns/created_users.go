package conns

import (
	"strings"
	"sync"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// CreatedUsers are the users this provider instance created (one
// Terraform run: an apply), each with the service's clock when it was
// created. A key create for one of them has no interrupted create to
// recover (internal/recovery says why), so it skips the look for one.
// It is the recovery.MadeUsers of the identity resources.
type CreatedUsers struct {
	mu    sync.Mutex
	clock map[string]client.ServiceClock
}

// Add records that this instance created user name, and the service's
// clock as the create's answer gave it. A nil CreatedUsers records
// nothing.
func (c *CreatedUsers) Add(name string, clock client.ServiceClock) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clock == nil {
		c.clock = map[string]client.ServiceClock{}
	}
	c.clock[strings.ToLower(name)] = clock
}

// Created reports whether this instance created user name (names are
// unique regardless of case), and the service's clock then.
func (c *CreatedUsers) Created(name string) (clock client.ServiceClock, ok bool) {
	if c == nil {
		return client.ServiceClock{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	clock, ok = c.clock[strings.ToLower(name)]
	return clock, ok
}
