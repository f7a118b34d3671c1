package search

import (
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// TestCheckValueWholeNumbers: a JSON number is held to a member's range
// only when the member has one, and a fraction is refused, never
// truncated into the range (1.5 is not 1).
func TestCheckValueWholeNumbers(t *testing.T) {
	t.Parallel()
	ranged := rules.Value{Range: &rules.IntRange{Min: 1, Max: 10}}
	for _, c := range []struct {
		v    float64
		r    rules.Value
		fail bool
	}{
		{5, ranged, false},
		{11, ranged, true},
		{1.5, ranged, true},
		{0.5, ranged, true},
		{5, rules.Value{Length: &rules.IntRange{Min: 1, Max: 2}}, false},
	} {
		if got := checkValue(c.v, []string{"X"}, c.r) != nil; got != c.fail {
			t.Errorf("%v with %+v: refused %v, want %v", c.v, c.r, got, c.fail)
		}
	}
}
