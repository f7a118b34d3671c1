package models

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// httpURL requires an http(s) URL with a host and no query.
type httpURL struct{}

func (httpURL) Description(context.Context) string { return "must be an http(s) URL" }

func (v httpURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (httpURL) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Runtime URL",
			fmt.Sprintf("The runtime URL %q must be an http(s) URL with a host and no query, such as https://runtime.models.us-east-1.cloud.example.", s))
	}
}

// duration requires a Go duration string within [lo, hi].
type duration struct{ lo, hi time.Duration }

func (v duration) Description(context.Context) string {
	return fmt.Sprintf("must be a duration such as 1h or 30m, from %s to %s", v.lo, v.hi)
}

func (v duration) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v duration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration",
			fmt.Sprintf("%q is not a duration. Use a number with a unit, such as 1h, 90m or 12h.", s))
	case d < v.lo || d > v.hi:
		resp.Diagnostics.AddAttributeError(req.Path, "Duration Out of Range",
			fmt.Sprintf("%q is outside the allowed range: a short-term API key lives from %s to %s (the service's limit is 12 hours).", s, v.lo, v.hi))
	}
}
