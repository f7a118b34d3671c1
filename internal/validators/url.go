package validators

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// CheckURL says what is wrong with s as a service's base URL: it must start
// with http:// or https:// (lower case, as written), have a host and no
// query or fragment. Nil when nothing is.
func CheckURL(s string) error {
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return errors.New("must start with http:// or https://")
	}
	return checkParsed(s)
}

// checkAnyCase is CheckURL with the scheme in any case, as url.Parse reads
// it: runtime_url's rule.
func checkAnyCase(s string) error {
	u, err := url.Parse(s)
	if err == nil && u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("must be an http or https URL")
	}
	return checkParsed(s)
}

func checkParsed(s string) error {
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
	return httpURL{summary: summary, detail: detail, check: CheckURL}
}

// AnyCaseHTTPURL is HTTPURL with the scheme in any case (HTTPS://… too).
func AnyCaseHTTPURL(summary string, detail func(p path.Path, value string, problem error) string) validator.String {
	return httpURL{summary: summary, detail: detail, check: checkAnyCase}
}

type httpURL struct {
	summary string
	detail  func(path.Path, string, error) string
	check   func(string) error
}

func (httpURL) Description(context.Context) string { return "must be an http(s) URL" }

func (v httpURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v httpURL) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, v.detail(req.Path, req.ConfigValue.ValueString(), err))
	}
}
