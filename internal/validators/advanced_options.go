// Package validators holds the provider's own attribute validators, for
// rules that terraform-plugin-framework-validators cannot express.
package validators

import (
	"context"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

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
		// An unsupported key is the key validator's to report.
		if !rules.SupportedAdvancedOption(key) {
			continue
		}
		if err := rules.CheckAdvancedOption(key, s.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(key), "Invalid Advanced Option", upperFirst(err.Error())+".")
		}
	}
}

func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}
