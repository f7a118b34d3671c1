package customtypes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.StringTypable                    = PolicyType{}
	_ basetypes.StringValuableWithSemanticEquals = Policy{}
	_ xattr.ValidateableAttribute                = Policy{}
)

// PolicyType is the type of a policy document attribute: JSON compared by
// meaning (SameJSON; jsontypes.Normalized checks the form), and also the
// empty string, which the spec allows (AccessPolicies is 0 to 102400
// characters) but is not JSON.
type PolicyType struct {
	jsontypes.NormalizedType
}

// Equal reports whether o is a PolicyType.
func (t PolicyType) Equal(o attr.Type) bool {
	_, ok := o.(PolicyType)
	return ok
}

func (t PolicyType) String() string { return "customtypes.PolicyType" }

// ValueType is the type's value.
func (t PolicyType) ValueType(context.Context) attr.Value { return Policy{} }

// ValueFromString wraps a string value.
func (t PolicyType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return newPolicy(in), nil
}

// ValueFromTerraform converts a Terraform value.
func (t PolicyType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	return stringFromTerraform(ctx, in, newPolicy)
}

func newPolicy(s basetypes.StringValue) Policy {
	return Policy{Normalized: jsontypes.Normalized{StringValue: s}}
}

// Policy is a policy document, or "" for none.
type Policy struct {
	jsontypes.Normalized
}

// Type is PolicyType.
func (v Policy) Type(context.Context) attr.Type { return PolicyType{} }

// Equal compares the text.
func (v Policy) Equal(o attr.Value) bool {
	other, ok := o.(Policy)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals compares the documents by meaning (SameJSON); ""
// equals only "".
func (v Policy) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	n, diags := semanticOther[Policy](newValuable, "a policy document")
	if diags.HasError() {
		return false, diags
	}
	return SameJSON(v.ValueString(), n.ValueString()), nil
}

// ValidateAttribute checks that a non-empty value is JSON.
func (v Policy) ValidateAttribute(ctx context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
		return
	}
	v.Normalized.ValidateAttribute(ctx, req, resp)
}
