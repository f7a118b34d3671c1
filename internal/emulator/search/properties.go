package search

import (
	"encoding/json"
	"strconv"
)

// ModifyingProperties, shared by running changes (DescribeDomainConfig,
// the UpdateDomainConfig answer) and dry runs (their answer and
// DryRunConfig). Names are the dotted property paths of PendingProperties
// and CompletedProperties ("ClusterConfig.InstanceType",
// "AdvancedOptions.indices.fielddata.cache.size"); the rules are in
// README.md.

// modifyingProperties lists props in the order given (sorted by name).
// A write-only property has no ActiveValue and no PendingValue: the
// service never returns its value, so it never shows it either.
func modifyingProperties(props []propChange) []map[string]any {
	out := make([]map[string]any, 0, len(props))
	for _, p := range props {
		m := map[string]any{"Name": p.name(), "ValueType": valueType(p)}
		if !p.writeOnly {
			m["ActiveValue"], m["PendingValue"] = valueText(p.old), valueText(p.new)
		}
		out = append(out, m)
	}
	return out
}

// valueType is STRINGIFIED_JSON for objects, arrays and the access policy
// (a JSON document in a string), PLAIN_TEXT for strings, numbers and
// booleans.
func valueType(p propChange) string {
	if len(p.path) == 1 && p.path[0] == "AccessPolicies" {
		return valueTypeStringifiedJSON
	}
	for _, v := range []any{p.old, p.new} {
		switch v.(type) {
		case map[string]any, []any:
			return valueTypeStringifiedJSON
		}
	}
	return valueTypePlainText
}

// valueText renders a value: "" when unset, a string as it is, a number
// or boolean as its JSON text, an object or array as compact JSON.
func valueText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
