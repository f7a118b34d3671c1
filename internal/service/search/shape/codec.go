package shape

import (
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// codec is one value kind: everything that depends on a field's kind is a
// method here, and nowhere else. The field's own methods (values.go) do
// what every kind shares (roles, null and unknown values) and hand the
// rest to its codec. A scalar kind embeds leaf for the parts it shares.
type codec interface {
	// resourceAttribute is the field in the resource's schema: Optional
	// (unless only returned) and Computed, keeping the state's value when
	// the configuration leaves it out.
	resourceAttribute(f *field, optional bool) schema.Attribute
	// dataSourceAttribute is the field in a data source's schema:
	// computed, as the service answers it.
	dataSourceAttribute(f *field) dsschema.Attribute
	// fromWire is the Terraform value of a wire value (not nil), in view v;
	// prior is the value at the same place before.
	fromWire(f *field, w any, prior tftypes.Value, v view) (tftypes.Value, error)
	// toWire is the request value of a known, non-null value.
	toWire(f *field, val tftypes.Value) (any, error)
	// fromText reads a ModifyingProperties value as a wire value.
	fromText(text string) (any, error)
	// subset reports whether every non-null value in c equals the value at
	// the same place in s; both are known and not null.
	subset(f *field, c, s tftypes.Value) bool
	// keepEquivalent is planned with each value that means what the
	// state's does taken from state; all three are known and not null.
	keepEquivalent(f *field, planned, config, state tftypes.Value) tftypes.Value
	// below sets the value at segs (not empty) below cur, which is known.
	below(f *field, cur tftypes.Value, segs []string, text string) (tftypes.Value, error)
	// member is the field a property name's next segment names.
	member(f *field, seg string) (*field, bool)
	// shown is a known value without what the service never returns.
	shown(f *field, v tftypes.Value) tftypes.Value
}
