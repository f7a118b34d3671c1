// Package customtypes holds attribute types of our own.
package customtypes

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.Int64Typable      = Int64Type{}
	_ basetypes.Int64Valuable     = Int64{}
	_ xattr.ValidateableAttribute = Int64{}
)

// Int64Type is the type of a whole-number attribute. The framework's own
// Int64 type fails on a configured number that is not a whole 64-bit
// integer (credential_age_days = 1.5) with "Value Conversion Error ... an
// error in the provider"; this one takes the number and reports it at
// validation as an error on the attribute, in words a user understands.
type Int64Type struct {
	basetypes.Int64Type
}

// Equal reports whether o is an Int64Type.
func (t Int64Type) Equal(o attr.Type) bool {
	_, ok := o.(Int64Type)
	return ok
}

func (t Int64Type) String() string { return "customtypes.Int64Type" }

// ValueType is the type's value.
func (t Int64Type) ValueType(context.Context) attr.Value { return Int64{} }

// ValueFromInt64 wraps a framework Int64.
func (t Int64Type) ValueFromInt64(_ context.Context, v basetypes.Int64Value) (basetypes.Int64Valuable, diag.Diagnostics) {
	return Int64{Int64Value: v}, nil
}

// ValueFromTerraform keeps a number that is not a whole int64 for
// ValidateAttribute to report; the value is unknown to the provider's code.
func (t Int64Type) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	if in.IsKnown() && !in.IsNull() {
		var f *big.Float
		if err := in.As(&f); err != nil {
			return nil, err
		}
		if _, acc := f.Int64(); !f.IsInt() || acc != big.Exact {
			return Int64{Int64Value: basetypes.NewInt64Unknown(), invalid: f}, nil
		}
	}
	v, err := t.Int64Type.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	iv, ok := v.(basetypes.Int64Value)
	if !ok {
		return nil, fmt.Errorf("unexpected value %T", v)
	}
	return Int64{Int64Value: iv}, nil
}

// Int64 is a value of Int64Type.
type Int64 struct {
	basetypes.Int64Value
	// invalid is a configured number that is not a whole int64.
	invalid *big.Float
}

// NewInt64Value, NewInt64Null and NewInt64Unknown build values.
func NewInt64Value(v int64) Int64 { return Int64{Int64Value: basetypes.NewInt64Value(v)} }

// NewInt64Null is a null Int64.
func NewInt64Null() Int64 { return Int64{Int64Value: basetypes.NewInt64Null()} }

// NewInt64Unknown is an unknown Int64.
func NewInt64Unknown() Int64 { return Int64{Int64Value: basetypes.NewInt64Unknown()} }

// Type is Int64Type.
func (v Int64) Type(context.Context) attr.Type { return Int64Type{} }

// Equal compares two Int64 values, the invalid numbers too.
func (v Int64) Equal(o attr.Value) bool {
	ov, ok := o.(Int64)
	if !ok {
		return false
	}
	if v.invalid != nil || ov.invalid != nil {
		return v.invalid != nil && ov.invalid != nil && v.invalid.Cmp(ov.invalid) == 0
	}
	return v.Int64Value.Equal(ov.Int64Value)
}

// ToTerraformValue gives back the configured number, whole or not.
func (v Int64) ToTerraformValue(ctx context.Context) (tftypes.Value, error) {
	if v.invalid != nil {
		return tftypes.NewValue(tftypes.Number, v.invalid), nil
	}
	return v.Int64Value.ToTerraformValue(ctx)
}

// ToInt64Value is the framework value: unknown for a number that is not
// whole, so the attribute's validators skip it.
func (v Int64) ToInt64Value(context.Context) (basetypes.Int64Value, diag.Diagnostics) {
	return v.Int64Value, nil
}

// ValidateAttribute refuses a number that is not a whole int64.
func (v Int64) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.invalid == nil {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Whole Number",
		fmt.Sprintf("%s must be a whole number, such as 1 or 30; got %s.", req.Path, v.invalid.Text('g', -1)))
}
