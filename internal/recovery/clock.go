package recovery

import (
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// The service's clock is a client.ServiceClock (internal/client/clock.go
// says how it is read and runs on), read off the Date header of an answer
// (identityclient.UserTags.ServerTime and the like) or the CreateDate of a
// user this run created. Records, deadlines, CreateDate and expiry are all
// by the service's clock, which need not agree with ours (a skewed
// machine, an emulator moved forward). The zero clock is ours.

// readClock learns the service's clock into clock from serviceTime, the
// service's time now, and returns that time; a zero serviceTime (no Date
// header) leaves the clock as it was and returns its time now.
func readClock(clock *client.ServiceClock, serviceTime time.Time) time.Time {
	if serviceTime.IsZero() {
		return clock.Now()
	}
	*clock = client.ClockRead(serviceTime)
	return serviceTime
}

// MadeUsers are the users this run created, each with the service's clock
// when it was: conns.CreatedUsers. A key create for one of them skips
// recovery (doc.go says why).
type MadeUsers interface {
	Add(name string, clock client.ServiceClock)
	Created(name string) (clock client.ServiceClock, ok bool)
}

// OwnKeys are the keys this run created or adopted: conns.CreatedKeys.
// Their marks are this run's, never those of an interrupted run's keys.
type OwnKeys interface {
	Add(id string)
	Has(id string) bool
}
