package customtypes

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

func policy(s string) Policy {
	v, _ := PolicyType{}.ValueFromString(context.Background(), basetypes.NewStringValue(s))
	return v.(Policy)
}

func TestPolicyValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		refused bool
	}{
		{``, false}, // the spec allows length 0
		{`{"Version":"2012-10-17"}`, false},
		{`{nope`, true},
	} {
		var resp xattr.ValidateAttributeResponse
		policy(tc.in).ValidateAttribute(context.Background(), xattr.ValidateAttributeRequest{Path: path.Root("access_policies")}, &resp)
		if resp.Diagnostics.HasError() != tc.refused {
			t.Errorf("%q: refused %v, want %v (%v)", tc.in, resp.Diagnostics.HasError(), tc.refused, resp.Diagnostics)
		}
	}
}

func TestPolicySemanticEquals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":2}`, `{ "b": 2, "a": 1 }`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":1}`, `{"a":1.0}`, true}, // number spelling, as the plan compares (SameJSON)
		{``, ``, true},
		{``, `{}`, false},
		{`{}`, ``, false},
	} {
		got, diags := policy(tc.a).StringSemanticEquals(context.Background(), policy(tc.b))
		if diags.HasError() || got != tc.want {
			t.Errorf("%q vs %q: %v %v, want %v", tc.a, tc.b, got, diags, tc.want)
		}
	}
}
