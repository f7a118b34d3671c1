package customtypes

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.StringTypable                    = TimeType{}
	_ basetypes.StringValuableWithSemanticEquals = Time{}
)

// TimeType is the type of an RFC 3339 time attribute (timetypes.RFC3339
// checks the form) whose equality is the instant's: the service answers in
// UTC, so "2030-01-01T02:00:00+02:00" in a configuration and
// "2030-01-01T00:00:00Z" from the service are no change. (timetypes'
// own equality keeps the offset, so the two would differ.)
type TimeType struct {
	timetypes.RFC3339Type
}

// Equal reports whether o is a TimeType.
func (t TimeType) Equal(o attr.Type) bool {
	_, ok := o.(TimeType)
	return ok
}

func (t TimeType) String() string { return "customtypes.TimeType" }

// ValueType is the type's value.
func (t TimeType) ValueType(context.Context) attr.Value { return Time{} }

// ValueFromString wraps a string value.
func (t TimeType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return newTime(in), nil
}

// ValueFromTerraform converts a Terraform value.
func (t TimeType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	return stringFromTerraform(ctx, in, newTime)
}

func newTime(s basetypes.StringValue) Time { return Time{RFC3339: timetypes.RFC3339{StringValue: s}} }

// Time is an RFC 3339 time.
type Time struct {
	timetypes.RFC3339
}

// Type is TimeType.
func (v Time) Type(context.Context) attr.Type { return TimeType{} }

// Equal compares the text.
func (v Time) Equal(o attr.Value) bool {
	other, ok := o.(Time)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals reports whether both are the same instant.
func (v Time) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	n, diags := semanticOther[Time](newValuable, "a time")
	if diags.HasError() {
		return false, diags
	}
	return SameInstant(v.ValueString(), n.ValueString()), nil
}

// SameInstant reports whether two RFC 3339 times are the same instant
// ("2030-01-01T02:00:00+02:00" and "2030-01-01T00:00:00Z" are). Text that
// is not an RFC 3339 time is the same only as the same text. This is the
// provider's one definition of "the same time": the time type's semantic
// equality and the plan's comparison of sections both use it.
func SameInstant(a, b string) bool {
	x, errA := time.Parse(time.RFC3339, a)
	y, errB := time.Parse(time.RFC3339, b)
	if errA != nil || errB != nil {
		return a == b
	}
	return x.Equal(y)
}
