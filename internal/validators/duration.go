package validators

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Duration is a duration string (time.ParseDuration, such as "30s") from
// Min to Max. Its errors use the attribute's own words, each made from the
// value as written.
type Duration struct {
	Min, Max time.Duration
	// Desc is the validator's description.
	Desc string
	// Summary titles the errors; RangeSummary, when set, one out of range.
	Summary, RangeSummary string
	// NotDuration and OutOfRange word the errors' details for value.
	NotDuration, OutOfRange func(value string) string
}

// Parse reads s. When s is not a duration from Min to Max, it returns the
// summary and detail of the error instead (detail is then not empty).
func (v Duration) Parse(s string) (d time.Duration, summary, detail string) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, v.Summary, v.NotDuration(s)
	case d < v.Min || d > v.Max:
		summary = v.Summary
		if v.RangeSummary != "" {
			summary = v.RangeSummary
		}
		return 0, summary, v.OutOfRange(s)
	}
	return d, "", ""
}

func (v Duration) Description(context.Context) string { return v.Desc }

func (v Duration) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v Duration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, summary, detail := v.Parse(req.ConfigValue.ValueString()); detail != "" {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}
