package validators

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// CheckURL says what is wrong with s as a service's base URL: it must be
// http(s) (the scheme in any case, as URLs allow), with a host and no query
// or fragment. Nil when nothing is.
func CheckURL(s string) error {
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return errors.New("must start with http:// or https://")
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return errors.New("is not a URL")
	case u.Host == "":
		return errors.New("has no host")
	case u.RawQuery != "" || u.Fragment != "":
		return errors.New("must not have a query or fragment")
	}
	return nil
}

// HTTPURL checks a base URL with CheckURL at validate time. Its error is
// titled summary, and detail words it in the attribute's terms from the
// attribute's path, its value and what CheckURL found.
func HTTPURL(summary string, detail func(p path.Path, value string, problem error) string) validator.String {
	return httpURL{summary: summary, detail: detail}
}

type httpURL struct {
	summary string
	detail  func(path.Path, string, error) string
}

func (httpURL) Description(context.Context) string { return "must be an http(s) URL" }

func (v httpURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v httpURL) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := CheckURL(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, v.detail(req.Path, req.ConfigValue.ValueString(), err))
	}
}
