package shape_test

import (
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// TestDescriptionsSayTheRule: every ruled member's description ends with
// its rule's words (rules.Value.Describe), so the documented limits are
// the checked ones.
func TestDescriptionsSayTheRule(t *testing.T) {
	t.Parallel()
	n := 0
	for _, l := range shape.Leaves() {
		if l.Rule == nil {
			continue
		}
		if d := l.Rule.Describe(); d != "" {
			n++
			if !strings.HasSuffix(l.Doc, " "+d) {
				t.Errorf("%s: description %q does not end with its rule's %q", l.RuleKey, l.Doc, d)
			}
		}
	}
	if n < 30 {
		t.Errorf("%d described rules: fewer than the table has", n)
	}
}
