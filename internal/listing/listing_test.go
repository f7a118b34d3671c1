package listing

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
)

// Limited stops the provider's own results at the limit (the CLI drops
// any beyond it, but the calls that found them were made), and with a
// limit of 0 runs nothing.
func TestLimited(t *testing.T) {
	for _, tc := range []struct {
		limit       int64
		pushed, ran int
	}{{limit: 0}, {limit: 2, pushed: 2, ran: 2}, {limit: 10, pushed: 5, ran: 5}} {
		ran := 0
		results := func(push func(list.ListResult) bool) {
			for range 5 {
				ran++
				if !push(list.ListResult{}) {
					return
				}
			}
		}
		pushed := 0
		for range Limited(tc.limit, results) {
			pushed++
		}
		if pushed != tc.pushed || ran != tc.ran {
			t.Errorf("limit %d: %d pushed, %d made; want %d and %d", tc.limit, pushed, ran, tc.pushed, tc.ran)
		}
	}
}
