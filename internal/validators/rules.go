package validators

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// The framework validators of a shared value rule (internal/rules), so the
// provider refuses at plan exactly what the emulator's request checks
// refuse. Lengths are counted in characters, as the rules count them; a
// minimum of one character is the same in bytes, and keeps the framework's
// "string length must be at least 1".

// StringRule is the validators of a string's rule.
func StringRule(r rules.Value) []validator.String {
	var out []validator.String
	if l := r.Length; l != nil {
		switch {
		case l.Min == 0:
			out = append(out, stringvalidator.UTF8LengthAtMost(int(l.Max)))
		case l.Max == rules.Unbounded && l.Min == 1:
			out = append(out, stringvalidator.LengthAtLeast(1))
		case l.Max == rules.Unbounded:
			out = append(out, stringvalidator.UTF8LengthAtLeast(int(l.Min)))
		default:
			out = append(out, stringvalidator.UTF8LengthBetween(int(l.Min), int(l.Max)))
		}
	}
	if f := r.Form; f != nil {
		out = append(out, stringvalidator.RegexMatches(f.Re, f.Must))
	}
	return out
}

// Int64Rule is the validators of a whole number's rule.
func Int64Rule(r rules.Value) []validator.Int64 {
	if r.Range == nil {
		return nil
	}
	return []validator.Int64{int64validator.Between(r.Range.Min, r.Range.Max)}
}

// SetRule is the validators of a set of strings' rule.
func SetRule(r rules.Value) []validator.Set {
	var out []validator.Set
	if n := r.Items; n != nil {
		out = append(out, setvalidator.SizeAtMost(int(n.Max)))
		if n.Min > 0 {
			out = append(out, setvalidator.SizeAtLeast(int(n.Min)))
		}
	}
	if r.Item != nil {
		if item := StringRule(*r.Item); len(item) > 0 {
			out = append(out, setvalidator.ValueStringsAre(item...))
		}
	}
	return out
}

// ListRule is the validators of a list of objects' rule (its length).
func ListRule(r rules.Value) []validator.List {
	var out []validator.List
	if n := r.Items; n != nil {
		out = append(out, listvalidator.SizeAtMost(int(n.Max)))
		if n.Min > 0 {
			out = append(out, listvalidator.SizeAtLeast(int(n.Min)))
		}
	}
	return out
}
