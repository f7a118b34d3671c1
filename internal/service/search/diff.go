package search

import (
	"encoding/json"
	"reflect"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// changedSections names the configuration sections whose configured values
// differ from current (the state, or the service's configuration when the
// resource is created). A value the configuration leaves null is not
// compared. unknown reports a section that cannot be compared yet because
// a configured value is unknown.
func changedSections(config, current tftypes.Value) (changed map[string]bool, unknown bool) {
	changed = map[string]bool{}
	cfg := attributes(config)
	cur := attributes(current)
	for _, s := range sections {
		c, ok := cfg[s.name]
		if !ok {
			continue
		}
		var equal, known bool
		if s.kind == kPolicy {
			equal, known = sameJSON(c, cur[s.name])
		} else {
			equal, known = subset(c, cur[s.name])
		}
		if !known {
			unknown = true
		}
		if !equal {
			changed[s.name] = true
		}
	}
	return changed, unknown
}

// subset reports whether every non-null value in c equals the value at the
// same place in s. known is false when c holds an unknown value.
func subset(c, s tftypes.Value) (equal, known bool) {
	switch {
	case c.IsNull():
		return true, true
	case !c.IsFullyKnown():
		return false, false
	case s.IsNull() || !s.IsKnown():
		return false, true
	}
	typ := c.Type()
	switch {
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		cm, sm := map[string]tftypes.Value{}, map[string]tftypes.Value{}
		if c.As(&cm) != nil || s.As(&sm) != nil {
			return false, true
		}
		for k, cv := range cm {
			sv, ok := sm[k]
			if !ok {
				if cv.IsNull() {
					continue
				}
				return false, true
			}
			if eq, _ := subset(cv, sv); !eq {
				return false, true
			}
		}
		return true, true
	case typ.Is(tftypes.List{}):
		var cl, sl []tftypes.Value
		if c.As(&cl) != nil || s.As(&sl) != nil || len(cl) != len(sl) {
			return false, true
		}
		for i := range cl {
			if eq, _ := subset(cl[i], sl[i]); !eq {
				return false, true
			}
		}
		return true, true
	default:
		return c.Equal(s), true
	}
}

// sameJSON compares two JSON strings by meaning.
func sameJSON(c, s tftypes.Value) (equal, known bool) {
	switch {
	case c.IsNull():
		return true, true
	case !c.IsKnown():
		return false, false
	case s.IsNull() || !s.IsKnown():
		return false, true
	}
	var cs, ss string
	if c.As(&cs) != nil || s.As(&ss) != nil {
		return false, true
	}
	var cj, sj any
	if json.Unmarshal([]byte(cs), &cj) != nil || json.Unmarshal([]byte(ss), &sj) != nil {
		return cs == ss, true
	}
	return reflect.DeepEqual(cj, sj), true
}

// keepEquivalentPolicies is planned with each JSON-document section that
// the configuration sets to what the state holds by meaning (sameJSON)
// taken from the state, text and all.
func keepEquivalentPolicies(planned, config, state tftypes.Value) (tftypes.Value, error) {
	cfg, st := attributes(config), attributes(state)
	keep := map[string]tftypes.Value{}
	for _, s := range sections {
		if s.kind != kPolicy || cfg[s.name].IsNull() {
			continue
		}
		if equal, known := sameJSON(cfg[s.name], st[s.name]); equal && known {
			keep[s.name] = st[s.name]
		}
	}
	return withAttributes(planned, keep)
}

// fillUnknown replaces every unknown value in planned with the value at the
// same place in actual, or null when actual has none. After apply no value
// may stay unknown, and known planned values must not change.
func fillUnknown(planned, actual tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(planned, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		found, _, err := tftypes.WalkAttributePath(actual, p)
		if err == nil {
			if fv, ok := found.(tftypes.Value); ok && fv.Type().Equal(v.Type()) && fv.IsFullyKnown() {
				return fv, nil
			}
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
}

// fillSections fills the unknown values of the planned sections from secs
// (fillUnknown, section by section); the other attributes stay as planned.
// A value the configuration itself leaves unknown (a reference to what
// another resource creates) stays unknown: a plan may not set it.
func fillSections(planned, config tftypes.Value, secs map[string]tftypes.Value) (tftypes.Value, error) {
	attrs := attributes(planned)
	filled := make(map[string]tftypes.Value, len(secs))
	for name, v := range secs {
		f, err := fillUnknown(attrs[name], v)
		if err != nil {
			return tftypes.Value{}, err
		}
		cfg := attributes(config)[name]
		f, err = tftypes.Transform(f, func(p *tftypes.AttributePath, fv tftypes.Value) (tftypes.Value, error) {
			found, _, err := tftypes.WalkAttributePath(cfg, p)
			if err != nil {
				return fv, nil //nolint:nilerr // no such place in the configuration: nothing configured there
			}
			if c, ok := found.(tftypes.Value); ok && !c.IsKnown() {
				return c, nil
			}
			return fv, nil
		})
		if err != nil {
			return tftypes.Value{}, err
		}
		filled[name] = f
	}
	return withAttributes(planned, filled)
}
