package search

import (
	"fmt"
	"regexp"
)

// Patterns of the spec's path parameters, exported so the provider's
// validators use the very same rules.
var (
	// DomainNameRegexp is the spec's domain name pattern, anchored.
	DomainNameRegexp = regexp.MustCompile(`^[a-z][a-z0-9\-]+$`)
	// IDRegexp matches a DryRunId or ChangeId: 36 characters in hexadecimal
	// groups 8-4-4-4-12.
	IDRegexp = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// Limits of the spec.
const (
	DomainNameMinLength = 3
	DomainNameMaxLength = 28
	IDLength            = 36
)

// ValidDomainName returns nil when name is a valid domain name, else an
// error that says which rule it breaks.
func ValidDomainName(name string) error {
	if n := len(name); n < DomainNameMinLength || n > DomainNameMaxLength {
		return fmt.Errorf("domain name %q must be %d to %d characters long, it has %d", name, DomainNameMinLength, DomainNameMaxLength, n)
	}
	if !DomainNameRegexp.MatchString(name) {
		return fmt.Errorf("domain name %q must start with a lower-case letter and contain only lower-case letters, digits and hyphens", name)
	}
	return nil
}

// ValidID returns nil when id is a valid DryRunId or ChangeId.
func ValidID(id string) error {
	if !IDRegexp.MatchString(id) {
		return fmt.Errorf("id %q must be 36 characters in hexadecimal groups 8-4-4-4-12", id)
	}
	return nil
}
