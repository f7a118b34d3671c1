package recovery

import "time"

// Clock is the service's clock as a run last learned it: from the Date
// header of an answer (identityclient.UserTags.ServerTime and the like), or
// from the CreateDate of a user this run created. Records, deadlines,
// CreateDate and expiry are all by the service's clock, which need not
// agree with ours (a skewed machine, an emulator moved forward). The zero
// Clock is ours. A clock kept between runs (the key resource's private
// state, for renew_before_days at plan) is kept as its Offset.
type Clock struct {
	// offset is how far the service's clock is ahead of ours.
	offset time.Duration
}

// Read learns the clock from serviceTime, the service's time now, and
// returns it; a zero serviceTime (no Date header) leaves the clock as it
// was and returns its time now.
func (c *Clock) Read(serviceTime time.Time) time.Time {
	if serviceTime.IsZero() {
		return c.Now()
	}
	c.offset = time.Until(serviceTime)
	return serviceTime
}

// Now is the service's time now.
func (c *Clock) Now() time.Time { return time.Now().Add(c.offset) }

// ClockAhead is the service's clock running offset ahead of ours.
func ClockAhead(offset time.Duration) Clock { return Clock{offset: offset} }

// Offset is how far the service's clock is ahead of ours.
func (c *Clock) Offset() time.Duration { return c.offset }

// MadeUsers are the users this run created, each with the service's clock
// (as an offset from ours) when it was: conns.CreatedUsers. A key create
// for one of them skips recovery (doc.go says why).
type MadeUsers interface {
	Add(name string, offset time.Duration)
	Created(name string) (offset time.Duration, ok bool)
}
