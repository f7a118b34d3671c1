package customtypes

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A value of another type in a semantic equality check is a bug, said so.
func TestSemanticEqualsOtherType(t *testing.T) {
	t.Parallel()
	other := basetypes.NewStringValue("x")
	for _, tc := range []struct {
		name string
		eq   func() (bool, int, string)
		want string
	}{
		{"policy", func() (bool, int, string) {
			ok, d := policy("{}").StringSemanticEquals(context.Background(), other)
			return ok, d.ErrorsCount(), d.Errors()[0].Detail()
		}, "expected a policy document value, got basetypes.StringValue; please report this to the provider developers"},
		{"time", func() (bool, int, string) {
			ok, d := timeValue("2030-01-01T00:00:00Z").StringSemanticEquals(context.Background(), other)
			return ok, d.ErrorsCount(), d.Errors()[0].Detail()
		}, "expected a time value, got basetypes.StringValue; please report this to the provider developers"},
	} {
		if ok, n, detail := tc.eq(); ok || n != 1 || detail != tc.want {
			t.Errorf("%s: equal %t, %d errors, %q; want false, 1, %q", tc.name, ok, n, detail, tc.want)
		}
	}
}

// Both string types read a Terraform string, null and unknown included.
func TestStringFromTerraform(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, in := range []tftypes.Value{
		tftypes.NewValue(tftypes.String, `{"a":1}`),
		tftypes.NewValue(tftypes.String, nil),
		tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	} {
		p, err := PolicyType{}.ValueFromTerraform(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		tv, err := TimeType{}.ValueFromTerraform(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []interface {
			IsNull() bool
			IsUnknown() bool
		}{p.(Policy), tv.(Time)} {
			if v.IsNull() != in.IsNull() || v.IsUnknown() != !in.IsKnown() {
				t.Errorf("%s: null %t unknown %t", in, v.IsNull(), v.IsUnknown())
			}
		}
	}
	if _, err := (PolicyType{}).ValueFromTerraform(ctx, tftypes.NewValue(tftypes.Number, 1)); err == nil {
		t.Error("a number read as a policy document")
	}
}
