package client

import (
	"net/http"
	"time"
)

// ServiceClock is a service's clock as this machine sees it: one reading
// of it (At, such as an answer's Date header or a resource's creation
// time) and this machine's clock at the same moment. Services stamp what they do (a dry run's creation, a
// change's stages) by their own clock, which may run ahead of or behind
// this machine's; the reading maps one onto the other. The zero value is
// a clock never read (an answer without a Date).
type ServiceClock struct {
	// At is the service's time at the reading; zero when not read.
	At time.Time
	// local is this machine's time at the reading; read by time.Now, it
	// carries the monotonic clock, so Now is not moved by a step of this
	// machine's wall clock.
	local time.Time
}

// ClockAt is the reading of a service's clock at service, taken when this
// machine's clock said local.
func ClockAt(service, local time.Time) ServiceClock {
	return ServiceClock{At: service, local: local}
}

// ClockRead is the reading of a service's clock at service, taken now.
func ClockRead(service time.Time) ServiceClock { return ClockAt(service, time.Now()) }

// ClockAhead is a service's clock running offset ahead of this machine's
// (negative: behind), as a reading taken now: for a clock kept between
// runs as its Offset.
func ClockAhead(offset time.Duration) ServiceClock {
	now := time.Now()
	return ClockAt(now.Add(offset).Round(0), now)
}

// ClockOf is the service's clock as an answer's header (its Date) tells
// it, read as the answer arrives (now); zero when the answer has no Date.
func ClockOf(h http.Header) ServiceClock {
	at, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return ServiceClock{}
	}
	return ClockRead(at)
}

// Known reports whether the clock was read.
func (c ServiceClock) Known() bool { return !c.At.IsZero() }

// Offset is how far the service's clock is ahead of this machine's
// (negative: behind); 0 when the clock was not read.
func (c ServiceClock) Offset() time.Duration {
	if !c.Known() {
		return 0
	}
	return c.At.Sub(c.local)
}

// Now is the service's time now, as well as the reading tells it: the
// reading plus the time passed since on this machine (monotonic when the
// reading was taken by time.Now); this machine's time when the clock was
// not read.
func (c ServiceClock) Now() time.Time {
	if !c.Known() {
		return time.Now()
	}
	return c.At.Add(time.Since(c.local))
}
