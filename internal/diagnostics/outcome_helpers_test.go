package diagnostics

import (
	"strings"

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
