package identity

import "time"

// credential is a service-specific credential (the long-term API key).
type credential struct {
	ID          string
	ServiceName string
	Value       string
	Status      string
	CreateDate  time.Time
	Expiration  time.Time
	Region      string
}
