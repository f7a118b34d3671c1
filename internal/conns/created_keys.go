package conns

import "sync"

// CreatedKeys are the keys this provider instance created or adopted (one
// Terraform run). Their marks are this run's own: a key create for the
// same user does not take them for the keys of an earlier, interrupted
// run. It is the recovery.OwnKeys of the key resource.
type CreatedKeys struct {
	mu  sync.Mutex
	ids map[string]bool
}

// Add records key id. A nil CreatedKeys records nothing.
func (c *CreatedKeys) Add(id string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil {
		c.ids = map[string]bool{}
	}
	c.ids[id] = true
}

// Has reports whether this instance created or adopted key id.
func (c *CreatedKeys) Has(id string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[id]
}
