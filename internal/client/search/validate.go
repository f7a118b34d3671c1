package search

import (
	"fmt"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// ValidDomainName returns nil when name is a valid domain name
// (rules.DomainName), else an error that says which rule it breaks.
func ValidDomainName(name string) error {
	r := rules.DomainName
	if n := len(name); !r.Length.Contains(int64(n)) {
		return fmt.Errorf("domain name %q must be %d to %d characters long, it has %d", name, r.Length.Min, r.Length.Max, n)
	}
	if !r.Form.Re.MatchString(name) {
		return fmt.Errorf("domain name %q %s", name, r.Form.Must)
	}
	return nil
}

// ValidID returns nil when id is a valid DryRunId or ChangeId
// (rules.ChangeID).
func ValidID(id string) error {
	if rules.ChangeID.CheckString(id) != nil {
		return fmt.Errorf("id %q %s", id, rules.ChangeID.Form.Must)
	}
	return nil
}
