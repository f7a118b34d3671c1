package validators

import (
	"context"
	"fmt"
	"time"

	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// PositiveTimeouts adds to a `timeouts` attribute (from
// terraform-plugin-framework-timeouts, which checks only that each value
// parses) the rule that every duration is positive: "-1h" or "0s" would
// make every apply give up at once.
func PositiveTimeouts(a schema.Attribute) schema.Attribute {
	nested, ok := a.(schema.SingleNestedAttribute)
	if !ok {
		return a
	}
	attrs := make(map[string]schema.Attribute, len(nested.Attributes))
	for name, child := range nested.Attributes {
		if s, ok := child.(schema.StringAttribute); ok {
			s.Validators = append(append([]validator.String{}, s.Validators...), positiveDuration{})
			child = s
		}
		attrs[name] = child
	}
	nested.Attributes = attrs
	return nested
}

// PositiveTimeoutsBlock is PositiveTimeouts for a data source's `timeouts`
// block.
func PositiveTimeoutsBlock(b dsschema.SingleNestedBlock) dsschema.SingleNestedBlock {
	attrs := make(map[string]dsschema.Attribute, len(b.Attributes))
	for name, child := range b.Attributes {
		if s, ok := child.(dsschema.StringAttribute); ok {
			s.Validators = append(append([]validator.String{}, s.Validators...), positiveDuration{})
			child = s
		}
		attrs[name] = child
	}
	b.Attributes = attrs
	return b
}

type positiveDuration struct{}

func (positiveDuration) Description(context.Context) string {
	return "a positive duration such as \"30m\" or \"2h\""
}

func (v positiveDuration) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (positiveDuration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d > 0 {
		return // a value that does not parse is the timeouts library's to report
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Timeout",
		fmt.Sprintf("%s must be a positive duration such as \"30m\" or \"2h\"; got %q, which would make the operation give up at once.", req.Path, req.ConfigValue.ValueString()))
}
