package poll

import (
	"fmt"
	"testing"
	"time"
)

// simulate follows a change whose stages last the given lengths with a fake
// clock, the way waitForChange does: the first poll comes Next(nothing
// seen) after the change starts. It returns the polls made and the lag
// between the end of the change and the poll that saw it.
func simulate(stages []time.Duration) (polls int, lag time.Duration) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var end time.Duration
	for _, s := range stages {
		end += s
	}
	now := start
	now = now.Add(Next(Observation{Now: now, Start: start, Total: len(stages)}))
	for {
		polls++
		elapsed := now.Sub(start)
		if elapsed >= end {
			return polls, elapsed - end
		}
		o := Observation{Now: now, Start: start, Total: len(stages), Waited: elapsed}
		var at time.Duration
		for _, s := range stages {
			if elapsed < at+s {
				o.CurrentStart = start.Add(at)
				break
			}
			o.Completed = append(o.Completed, s)
			at += s
		}
		now = now.Add(Next(o))
		if polls > 10000 {
			panic("no end")
		}
	}
}

func equal(n int, total time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = total / time.Duration(n)
	}
	return out
}

func TestNextEmulatorShapedChanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		stages   []time.Duration
		maxLag   time.Duration
		maxPolls int
	}{
		// Dynamic changes have two stages, blue/green ones four.
		// The targets: a short change within 1 s, a long one within 3% of
		// its length, an hour in at most 150 polls. The poll bounds sit a
		// little above what the strategy does today, to catch regressions.
		{"5s dynamic", equal(2, 5*time.Second), time.Second, 8},
		{"60s dynamic", equal(2, time.Minute), time.Second, 25},
		{"15m blue/green", equal(4, 15*time.Minute), 27 * time.Second, 40},
		{"1h blue/green", equal(4, time.Hour), 108 * time.Second, 50},
		{"15m dynamic", equal(2, 15*time.Minute), 27 * time.Second, 45},
		{"1h dynamic", equal(2, time.Hour), 108 * time.Second, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			polls, lag := simulate(tc.stages)
			t.Logf("polls %d, lag %s", polls, lag)
			if lag > tc.maxLag {
				t.Errorf("lag %s, want at most %s", lag, tc.maxLag)
			}
			if polls > tc.maxPolls {
				t.Errorf("%d polls, want at most %d", polls, tc.maxPolls)
			}
		})
	}
}

// Stages of unequal length defeat the estimate: a step towards the
// expected end is bounded by JumpShare of the time spent, so the lag stays
// within that share of the change's length, and the polls bounded.
func TestNextUnequalStages(t *testing.T) {
	t.Parallel()
	for _, stages := range [][]time.Duration{
		{2 * time.Second, 3 * time.Second},
		{5 * time.Second, 55 * time.Second},
		{55 * time.Second, 5 * time.Second},
		{10 * time.Second, 14 * time.Minute, 40 * time.Second, 10 * time.Second},
		{time.Minute, 50 * time.Minute, 8 * time.Minute, time.Minute},
		{30 * time.Minute, 10 * time.Minute, 10 * time.Minute, 10 * time.Minute},
	} {
		t.Run(fmt.Sprint(stages), func(t *testing.T) {
			t.Parallel()
			var length time.Duration
			for _, s := range stages {
				length += s
			}
			polls, lag := simulate(stages)
			t.Logf("polls %d, lag %s", polls, lag)
			if bound := max(time.Second, time.Duration(JumpShare*float64(length))); lag > bound {
				t.Errorf("lag %s, want at most %s", lag, bound)
			}
			if polls > 150 {
				t.Errorf("%d polls, want at most 150", polls)
			}
		})
	}
}

// A dry run has no stages: the interval is a share of the time spent.
func TestNextWithoutStages(t *testing.T) {
	t.Parallel()
	for _, length := range []time.Duration{time.Second, 5 * time.Second, time.Minute, 5 * time.Minute} {
		polls, lag := simulate([]time.Duration{length})
		t.Logf("%s: polls %d, lag %s", length, polls, lag)
		if bound := max(time.Second, length*3/100); lag > bound {
			t.Errorf("%s: lag %s, want at most %s", length, lag, bound)
		}
		if polls > 120 {
			t.Errorf("%s: %d polls, want at most 120", length, polls)
		}
	}
}

func TestNextBounds(t *testing.T) {
	t.Parallel()
	start := time.Unix(0, 0)
	if d := Next(Observation{Now: start.Add(-time.Hour), Start: start}); d != MinInterval {
		t.Errorf("clock behind the start: %s, want %s", d, MinInterval)
	}
	if d := Next(Observation{Now: start.Add(100 * time.Hour), Start: start, Total: 4, Waited: 100 * time.Hour}); d != MaxInterval {
		t.Errorf("far from the end: %s, want %s", d, MaxInterval)
	}
	// A change found running hours in: the sleeps start short anyway.
	if d := Next(Observation{Now: start.Add(3 * time.Hour), Start: start, Total: 4, Waited: 0}); d != MinInterval {
		t.Errorf("just started waiting: %s, want %s", d, MinInterval)
	}
}

func TestFromStages(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	stages := []Stage{
		{Completed: true, LastUpdated: at(10 * time.Second)},
		{Completed: true, LastUpdated: at(70 * time.Second)},
		{Running: true, LastUpdated: at(70 * time.Second)},
		{},
	}
	o := FromStages(start.Add(100*time.Second), start, 4, stages)
	if o.Total != 4 || len(o.Completed) != 2 || o.Completed[0] != 10*time.Second || o.Completed[1] != time.Minute ||
		!o.CurrentStart.Equal(start.Add(70*time.Second)) || !o.Start.Equal(start) {
		t.Errorf("FromStages = %+v", o)
	}
	// Mean stage 35 s, 5 s left of the running one and one more stage: 40 s.
	if got := o.remaining(100 * time.Second); got != 40*time.Second {
		t.Errorf("remaining = %s, want 40s", got)
	}
	if o := FromStages(start, time.Time{}, 0, nil); !o.Start.Equal(start) || o.Total != 0 {
		t.Errorf("FromStages of nothing = %+v", o)
	}
	// More stages reported than announced: the total is at least their number.
	if o := FromStages(start, start, 1, stages); o.Total != len(stages) {
		t.Errorf("Total = %d, want %d", o.Total, len(stages))
	}
}
