package customtypes

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

func timeValue(s string) Time {
	v, _ := TimeType{}.ValueFromString(context.Background(), basetypes.NewStringValue(s))
	return v.(Time)
}

func TestTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b  string
		equal bool
	}{
		{"2030-01-01T02:00:00+02:00", "2030-01-01T00:00:00Z", true},
		{"2030-01-01T00:00:00Z", "2030-01-01T00:00:00+00:00", true},
		{"2030-01-01T02:00:00+02:00", "2030-01-01T02:00:00Z", false},
	} {
		got, diags := timeValue(tc.a).StringSemanticEquals(context.Background(), timeValue(tc.b))
		if diags.HasError() || got != tc.equal {
			t.Errorf("%s vs %s: %v %v, want %v", tc.a, tc.b, got, diags, tc.equal)
		}
	}
	for in, refused := range map[string]bool{"2030-01-01T02:00:00+02:00": false, "2030-01-01T00:00:00Z": false, "2030-01-01 00:00": true, "tomorrow": true} {
		var resp xattr.ValidateAttributeResponse
		timeValue(in).ValidateAttribute(context.Background(), xattr.ValidateAttributeRequest{Path: path.Root("start_time")}, &resp)
		if resp.Diagnostics.HasError() != refused {
			t.Errorf("%q: refused %v, want %v", in, resp.Diagnostics.HasError(), refused)
		}
	}
}
