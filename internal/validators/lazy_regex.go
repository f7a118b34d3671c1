package validators

import (
	"context"
	"regexp"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// LazyRegexMatches is stringvalidator.RegexMatches(re(), message), with re
// called on the first value there is to check, not when the schema is built.
// For a pattern that is costly to compile (a bounded repetition such as
// {1,512} compiles into as many copies of what it repeats) on an attribute
// that most configurations leave out: every provider process builds its
// schema, and a plan starts three.
func LazyRegexMatches(re func() *regexp.Regexp, message string) validator.String {
	return lazyString(sync.OnceValue(func() validator.String {
		return stringvalidator.RegexMatches(re(), message)
	}))
}

// lazyString is the string validator it returns, built on first use.
type lazyString func() validator.String

func (l lazyString) Description(ctx context.Context) string { return l().Description(ctx) }

func (l lazyString) MarkdownDescription(ctx context.Context) string {
	return l().MarkdownDescription(ctx)
}

// ValidateString checks a known value, as RegexMatches does; a null or
// unknown one it leaves alone without building it.
func (l lazyString) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	l().ValidateString(ctx, req, resp)
}
