package customtypes

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// What the string types of this package (Policy, Time) share: each wraps a
// library type and converts as it does, with an equality of its own.

// stringFromTerraform converts in as a string attribute and wraps it.
func stringFromTerraform[V attr.Value](ctx context.Context, in tftypes.Value, wrap func(basetypes.StringValue) V) (attr.Value, error) {
	v, err := basetypes.StringType{}.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return wrap(s), nil
}

// semanticOther is the new value of a semantic equality check as V, the
// type's own value; another type is a bug in the provider, reported as
// expecting what (such as "a time value").
func semanticOther[V basetypes.StringValuable](newValuable basetypes.StringValuable, what string) (V, diag.Diagnostics) {
	n, ok := newValuable.(V)
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Semantic Equality Check Error", fmt.Sprintf("expected %s value, got %T; please report this to the provider developers", what, newValuable))
		return n, diags
	}
	return n, nil
}
