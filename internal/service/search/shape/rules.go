package shape

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// ruled gives every member of the sections the value rule of its wire path
// in rules.DomainConfig, the table the emulator checks requests with, and
// the validators derived from it, and says the rule in its description. A rule that names no member is a mistake
// in one of the two tables, found when the tables are built.
func ruled(fields []field) []field {
	used := map[string]bool{}
	applyRules(fields, "", used)
	for _, k := range slices.Sorted(maps.Keys(rules.DomainConfig)) {
		if !used[k] {
			panic(fmt.Sprintf("shape: rules.DomainConfig has a rule for %s, which is not a member of the section table", k))
		}
	}
	return fields
}

func applyRules(fields []field, prefix string, used map[string]bool) {
	for i := range fields {
		f := &fields[i]
		key := prefix + f.wire
		if r, ok := rules.DomainConfig[key]; ok {
			used[key] = true
			f.rule, f.ruleKey = &r, key
			f.validators = append(f.validators, ruleValidators(f, r)...)
			// The documented limits are the rule's, written from it.
			if d := r.Describe(); d != "" {
				f.doc = strings.TrimSpace(f.doc + " " + d)
			}
		}
		switch f.kind.(type) {
		// A list's or map's element object shares its fields with the
		// collection (collection in builders.go), so they are ruled once.
		case objectListKind:
			applyRules(f.fields, key+"[].", used)
		case objectMapKind:
			applyRules(f.fields, key+".*.", used)
		default:
			applyRules(f.fields, key+".", used)
		}
	}
}

// ruleValidators are the validators of r for f's kind.
func ruleValidators(f *field, r rules.Value) []validator.Describer {
	switch f.kind.(type) {
	case stringKind, policyKind:
		return describers(validators.StringRule(r))
	case int64Kind:
		return describers(validators.Int64Rule(r))
	case stringSetKind:
		return describers(validators.SetRule(r))
	case objectListKind:
		return describers(validators.ListRule(r))
	}
	panic(fmt.Sprintf("shape: %s: no validators of a rule for a %T", f.wire, f.kind))
}
