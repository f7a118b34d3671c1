package conns

import "sync"

// Refreshed are the objects (by a name the service chooses) a refresh read
// in this provider instance. Terraform configures a provider once per walk
// and refreshes before it plans in the same walk, so a plan that finds its
// object here is a fresh plan, not the one Terraform makes at apply (which
// refreshes nothing).
type Refreshed struct{ names sync.Map }

// Add records that a refresh read name. A nil Refreshed records nothing.
func (r *Refreshed) Add(name string) {
	if r != nil {
		r.names.Store(name, true)
	}
}

// Has reports whether a refresh read name in this instance.
func (r *Refreshed) Has(name string) bool {
	if r == nil {
		return false
	}
	_, ok := r.names.Load(name)
	return ok
}
