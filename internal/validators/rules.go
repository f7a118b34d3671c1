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

// Ruled is a validator derived from a shared value rule, which says the
// rule: a schema walk tells it from a value rule written anywhere else.
type Ruled interface{ Rule() rules.Value }

type (
	ruledString struct {
		validator.String
		rule rules.Value
	}
	ruledInt64 struct {
		validator.Int64
		rule rules.Value
	}
	ruledSet struct {
		validator.Set
		rule rules.Value
	}
	ruledList struct {
		validator.List
		rule rules.Value
	}
)

func (v ruledString) Rule() rules.Value { return v.rule }
func (v ruledInt64) Rule() rules.Value  { return v.rule }
func (v ruledSet) Rule() rules.Value    { return v.rule }
func (v ruledList) Rule() rules.Value   { return v.rule }

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
	return ruledStrings(r, withForm(r, out))
}

// ASCIIStringRule is the validators of a string's rule whose form admits
// ASCII characters only, where bytes are characters: its length keeps the
// framework's "string length" words.
func ASCIIStringRule(r rules.Value) []validator.String {
	var out []validator.String
	if l := r.Length; l != nil {
		out = append(out, stringvalidator.LengthBetween(int(l.Min), int(l.Max)))
	}
	return ruledStrings(r, withForm(r, out))
}

func withForm(r rules.Value, out []validator.String) []validator.String {
	if f := r.Form; f != nil {
		out = append(out, stringvalidator.RegexMatches(f.Re, f.Must))
	}
	return out
}

func ruledStrings(r rules.Value, vs []validator.String) []validator.String {
	for i, v := range vs {
		vs[i] = ruledString{v, r}
	}
	return vs
}

// Int64Rule is the validators of a whole number's rule.
func Int64Rule(r rules.Value) []validator.Int64 {
	if r.Range == nil {
		return nil
	}
	return []validator.Int64{ruledInt64{int64validator.Between(r.Range.Min, r.Range.Max), r}}
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
	for i, v := range out {
		out[i] = ruledSet{v, r}
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
	for i, v := range out {
		out[i] = ruledList{v, r}
	}
	return out
}
