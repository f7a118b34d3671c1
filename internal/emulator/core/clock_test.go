package core

import (
	"testing"
	"time"
)

// At the highest speed the clock stops at MaxSkew ahead of real time
// rather than overflow and wrap into the past.
func TestClockStopsAtItsBound(t *testing.T) {
	t.Parallel()
	c := NewClock()
	c.SetSpeed(MaxSpeed)
	c.base = c.base.Add(-24 * time.Hour) // a day of real time at 10^6
	if now := c.Now(); now.Before(time.Now()) || time.Until(now) > MaxSkew+time.Minute {
		t.Errorf("after a day at speed %g the clock reads %s", MaxSpeed, now)
	}
	if err := c.TryAdvance(time.Hour); err == nil {
		t.Error("advancing a clock at its bound succeeded")
	}
	if err := c.TrySetSpeed(-1); err == nil {
		t.Error("a negative speed was accepted")
	}
}
