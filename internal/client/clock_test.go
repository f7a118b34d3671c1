package client

import (
	"net/http"
	"testing"
	"time"
)

func TestServiceClock(t *testing.T) {
	t.Parallel()
	var zero ServiceClock
	if zero.Known() || zero.Offset() != 0 {
		t.Errorf("the zero clock is known or has an offset: %v", zero.Offset())
	}
	if d := time.Since(zero.Now()); d < 0 || d > time.Minute {
		t.Errorf("the zero clock's Now is %s from this machine's", d)
	}
	local := time.Now()
	ahead := ClockAt(local.Add(time.Hour), local)
	if !ahead.Known() || ahead.Offset() != time.Hour {
		t.Errorf("a clock an hour ahead: known %v, offset %s", ahead.Known(), ahead.Offset())
	}
	if d := time.Until(ahead.Now()); d < 59*time.Minute || d > time.Hour {
		t.Errorf("Now of a clock an hour ahead is %s ahead", d)
	}
	if got := ClockAt(local.Add(-time.Minute), local).Offset(); got != -time.Minute {
		t.Errorf("a clock a minute behind: offset %s", got)
	}
}

func TestClockOf(t *testing.T) {
	t.Parallel()
	date := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second)
	c := ClockOf(http.Header{"Date": {date.Format(http.TimeFormat)}})
	if !c.At.Equal(date) {
		t.Errorf("At = %s, want the Date %s", c.At, date)
	}
	if off := c.Offset(); off < 2*time.Hour-2*time.Second || off > 2*time.Hour {
		t.Errorf("Offset = %s, want about 2h", off)
	}
	for name, h := range map[string]http.Header{"no header": nil, "no Date": {}, "a bad Date": {"Date": {"yesterday"}}} {
		if ClockOf(h).Known() {
			t.Errorf("%s: the clock is known", name)
		}
	}
}

// A clock read now runs on from its reading by the time passed here
// (ClockRead); one kept as its offset comes back with that offset
// (ClockAhead).
func TestClockReadAndAhead(t *testing.T) {
	t.Parallel()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	c := ClockRead(at)
	if now := c.Now(); now.Before(at) || now.After(at.Add(time.Minute)) {
		t.Errorf("Now of a clock read at %s is %s", at, now)
	}
	earlier := ClockAt(at, time.Now().Add(-time.Hour))
	if d := earlier.Now().Sub(at); d < time.Hour || d > time.Hour+time.Minute {
		t.Errorf("a reading an hour old is %s behind Now, want an hour", d)
	}
	if got := ClockAhead(-90 * time.Second).Offset(); got != -90*time.Second {
		t.Errorf("ClockAhead(-90s).Offset() = %s", got)
	}
	if d := time.Until(ClockAhead(time.Hour).Now()); d < 59*time.Minute || d > time.Hour {
		t.Errorf("Now of ClockAhead(1h) is %s ahead", d)
	}
}
