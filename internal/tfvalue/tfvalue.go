// Package tfvalue reads and rebuilds raw Terraform values (tftypes.Value):
// the members of an object, an object with some members replaced, a known
// value, a known string.
package tfvalue

import (
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Attributes are a copy of an object's or a map's members (As hands out
// the value's own map); none for a null or unknown value.
func Attributes(v tftypes.Value) map[string]tftypes.Value {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return map[string]tftypes.Value{}
	}
	var in map[string]tftypes.Value
	_ = v.As(&in)
	return maps.Clone(in)
}

// WithAttributes is obj with some top-level attributes replaced.
func WithAttributes(obj tftypes.Value, repl map[string]tftypes.Value) (tftypes.Value, error) {
	attrs := Attributes(obj)
	for k, v := range repl {
		if _, ok := attrs[k]; !ok {
			return tftypes.Value{}, fmt.Errorf("no attribute %q", k)
		}
		attrs[k] = v
	}
	return tftypes.NewValue(obj.Type(), attrs), nil
}

// KnownValue is v when it is known and not null.
func KnownValue(v tftypes.Value) (tftypes.Value, bool) {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return tftypes.Value{}, false
	}
	return v, true
}

// KnownString is a known string value, else "".
func KnownString(v tftypes.Value) string {
	var s string
	if v.Type() == nil || !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
		return ""
	}
	return s
}
