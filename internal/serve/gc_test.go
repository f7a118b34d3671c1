package serve

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that the provider collects garbage less often than Go's
// default, unless GOGC says otherwise.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		gogc string
		want int
	}{{"", gcPercent}, {"50", 50}} {
		t.Setenv("GOGC", tc.gogc)
		debug.SetGCPercent(50)
		tuneGC()
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: the collector's target is %d, want %d", tc.gogc, got, tc.want)
		}
	}
}
