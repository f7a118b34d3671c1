package diagnostics

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// summaries is each diagnostic's severity and summary, in order.
func summaries(d diag.Diagnostics) string {
	var s []string
	for _, x := range d {
		s = append(s, x.Severity().String()+": "+x.Summary())
	}
	return strings.Join(s, "; ")
}

// details is every detail, its whitespace folded.
func details(d diag.Diagnostics) string {
	var s []string
	for _, x := range d {
		s = append(s, x.Detail())
	}
	return strings.Join(strings.Fields(strings.Join(s, " ")), " ")
}

// checkOutcome checks what an outcome told the user: these summaries, in
// order, and details holding each of want.
func checkOutcome(t *testing.T, diags diag.Diagnostics, wantSummaries string, want []string) {
	t.Helper()
	if got := summaries(diags); got != wantSummaries {
		t.Errorf("summaries %q, want %q", got, wantSummaries)
	}
	for _, w := range want {
		if d := details(diags); !strings.Contains(d, w) {
			t.Errorf("details %q lack %q", d, w)
		}
	}
}
