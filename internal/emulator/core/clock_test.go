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

// A held clock stands still in real time, moves only by Advance, and runs
// again from where it stood at SetSpeed.
func TestClockHold(t *testing.T) {
	t.Parallel()
	c := NewClock()
	c.SetSpeed(3600)
	c.Hold()
	held := c.Now()
	time.Sleep(20 * time.Millisecond) // 72 emulated seconds at 3600, were it running
	if got := c.Now(); !got.Equal(held) || !c.Held() {
		t.Fatalf("a held clock moved from %s to %s (held %v)", held, got, c.Held())
	}
	c.Advance(time.Hour)
	if got := c.Now(); !got.Equal(held.Add(time.Hour)) {
		t.Fatalf("a held clock advanced by an hour reads %s, want %s", got, held.Add(time.Hour))
	}
	if err := c.TryAdvance(time.Minute); err != nil || !c.Now().Equal(held.Add(61*time.Minute)) {
		t.Fatalf("TryAdvance on a held clock: %v, reads %s", err, c.Now())
	}
	c.SetSpeed(1)
	if got := c.Now(); c.Held() || got.Before(held.Add(61*time.Minute)) || got.After(held.Add(62*time.Minute)) {
		t.Fatalf("released, the clock reads %s (held %v), want from %s on", got, c.Held(), held.Add(61*time.Minute))
	}
	c.Hold()
	c.Reset()
	if c.Held() || time.Since(c.Now()).Abs() > time.Second {
		t.Fatalf("after Reset the clock reads %s (held %v), want real time", c.Now(), c.Held())
	}
}
