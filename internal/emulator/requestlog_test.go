package emulator

import (
	"testing"
	"time"
)

// TestMostInFlight: overlapping calls of one operation are counted, calls
// of others and calls that end as another starts are not.
func TestMostInFlight(t *testing.T) {
	t.Parallel()
	at := func(ms int) time.Time { return time.Unix(0, 0).Add(time.Duration(ms) * time.Millisecond) }
	calls := []Call{
		{Operation: "A", Started: at(0), Ended: at(10)},
		{Operation: "A", Started: at(10), Ended: at(20)}, // begins as the first ends
		{Operation: "A", Started: at(12), Ended: at(30)},
		{Operation: "A", Started: at(15), Ended: at(16)},
		{Operation: "B", Started: at(0), Ended: at(40)},
	}
	for op, want := range map[string]int{"A": 3, "B": 1, "": 4, "C": 0} {
		if got := MostInFlight(calls, op); got != want {
			t.Errorf("MostInFlight(%q) = %d, want %d", op, got, want)
		}
	}
}
