// Package validators holds the provider's own attribute validators, for
// rules that terraform-plugin-framework-validators cannot express.
package validators

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// advancedOptionRules are the value rules of the search domain's
// AdvancedOptions keys (the spec's table).
var advancedOptionRules = map[string]struct {
	re   *regexp.Regexp
	want string
}{
	"rest.action.multi.allow_explicit_index": {regexp.MustCompile(`^(true|false)$`), `"true" or "false"`},
	"indices.fielddata.cache.size":           {regexp.MustCompile(`^([1-9]\d?|100)%?$`), `a percentage of heap from 1 to 100, such as "40" or "40%"`},
	"indices.query.bool.max_clause_count":    {regexp.MustCompile(`^[1-9]\d{0,9}$`), `a positive whole number such as "1024"`},
}

// AdvancedOptionValues checks each known AdvancedOptions value's form.
func AdvancedOptionValues() validator.Map { return advancedOptionValues{} }

type advancedOptionValues struct{}

func (advancedOptionValues) Description(context.Context) string {
	return "each advanced option's value has the form its key needs"
}

func (v advancedOptionValues) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (advancedOptionValues) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for key, val := range req.ConfigValue.Elements() {
		s, ok := val.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		rule, known := advancedOptionRules[key]
		if known && !rule.re.MatchString(s.ValueString()) {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(key), "Invalid Advanced Option",
				fmt.Sprintf("The value of %s must be %s (a string); got %q.", key, rule.want, s.ValueString()))
		}
	}
}
