package validators

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestLazyRegexMatches checks that the lazy validator says and refuses
// exactly what stringvalidator.RegexMatches does, and compiles its pattern
// once, on the first known value.
func TestLazyRegexMatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	re := regexp.MustCompile(`^role/[a-z]{1,8}$`)
	const msg = "must be a role such as role/deploy"
	compiled := 0
	lazy := LazyRegexMatches(func() *regexp.Regexp { compiled++; return re }, msg)
	eager := stringvalidator.RegexMatches(re, msg)

	for _, v := range []types.String{types.StringNull(), types.StringUnknown()} {
		var resp validator.StringResponse
		lazy.ValidateString(ctx, validator.StringRequest{Path: path.Root("role_arn"), ConfigValue: v}, &resp)
		if resp.Diagnostics.HasError() || compiled != 0 {
			t.Fatalf("%s: diagnostics %v, pattern compiled %d times; want none and 0", v, resp.Diagnostics, compiled)
		}
	}
	for _, in := range []string{"role/deploy", "role/", "role/waytoolongname", "user/deploy", ""} {
		req := validator.StringRequest{Path: path.Root("role_arn"), ConfigValue: types.StringValue(in)}
		var got, want validator.StringResponse
		lazy.ValidateString(ctx, req, &got)
		eager.ValidateString(ctx, req, &want)
		if !got.Diagnostics.Equal(want.Diagnostics) {
			t.Errorf("%q: diagnostics %v, want %v (RegexMatches')", in, got.Diagnostics, want.Diagnostics)
		}
	}
	if compiled != 1 {
		t.Errorf("pattern compiled %d times, want once", compiled)
	}
	if got, want := lazy.Description(ctx), eager.Description(ctx); got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	if got, want := lazy.MarkdownDescription(ctx), eager.MarkdownDescription(ctx); got != want {
		t.Errorf("markdown description %q, want %q", got, want)
	}
}
