package search

import (
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
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
		equal, known := s.subset(c, cur[s.name])
		if !known {
			unknown = true
		}
		if !equal {
			changed[s.name] = true
		}
	}
	return changed, unknown
}

// subset reports whether every non-null value in c (a value of f) equals
// the value at the same place in s: times as instants, JSON documents by
// meaning (customtypes.SameJSON), everything else exactly. known is false
// when c holds an unknown value.
func (f field) subset(c, s tftypes.Value) (equal, known bool) {
	switch {
	case c.IsNull():
		return true, true
	case !c.IsFullyKnown():
		return false, false
	case s.IsNull() || !s.IsKnown():
		return false, true
	}
	switch f.kind {
	case kObject:
		cm, sm := attributes(c), attributes(s)
		for _, child := range f.fields {
			cv, ok := cm[child.name]
			if !ok {
				continue
			}
			sv, ok := sm[child.name]
			if !ok {
				if cv.IsNull() {
					continue
				}
				return false, true
			}
			if eq, _ := child.subset(cv, sv); !eq {
				return false, true
			}
		}
		return true, true
	case kObjectMap, kStringMap:
		cm, sm := attributes(c), attributes(s)
		for k, cv := range cm {
			sv, ok := sm[k]
			if !ok {
				if cv.IsNull() {
					continue
				}
				return false, true
			}
			if eq, _ := f.element().subset(cv, sv); !eq {
				return false, true
			}
		}
		return true, true
	case kObjectList:
		cl, sl := elements(c), elements(s)
		if len(cl) != len(sl) {
			return false, true
		}
		for i := range cl {
			if eq, _ := f.element().subset(cl[i], sl[i]); !eq {
				return false, true
			}
		}
		return true, true
	case kTime:
		return sameInstant(c, s), true
	case kPolicy:
		return customtypes.SameJSON(knownString(c), knownString(s)), true
	default:
		return c.Equal(s), true
	}
}

// element is the field of a list's or a map's elements: an object of f's
// fields, or a string.
func (f field) element() field {
	if f.kind == kStringMap {
		return field{kind: kString}
	}
	return field{kind: kObject, fields: f.fields}
}

// sameInstant reports whether two RFC 3339 times name the same instant
// ("2030-01-01T02:00:00+02:00" and "2030-01-01T00:00:00Z" do); text that
// does not parse is compared as text.
func sameInstant(c, s tftypes.Value) bool {
	a, errA := time.Parse(time.RFC3339, knownString(c))
	b, errB := time.Parse(time.RFC3339, knownString(s))
	if errA != nil || errB != nil {
		return c.Equal(s)
	}
	return a.Equal(b)
}

// keepEquivalent is planned with each time and JSON document the
// configuration sets to what the state holds by meaning (the same instant,
// the same JSON) taken from the state, text and all. Terraform accepts a
// planned value equal to the prior state's in place of the
// configuration's, so a configuration that spells a value differently
// (another offset, key order, whitespace, number spelling) plans no
// change, and adopting a matching domain (import) plans nothing.
func keepEquivalent(planned, config, state tftypes.Value) (tftypes.Value, error) {
	p, cfg, st := attributes(planned), attributes(config), attributes(state)
	keep := map[string]tftypes.Value{}
	for _, s := range sections {
		if v, ok := p[s.name]; ok {
			keep[s.name] = s.keepEquivalent(v, cfg[s.name], st[s.name])
		}
	}
	return withAttributes(planned, keep)
}

// keepEquivalent is keepEquivalent for one value of f: planned, with the
// configuration's value config and the state's value state at its place.
func (f field) keepEquivalent(planned, config, state tftypes.Value) tftypes.Value {
	for _, v := range []tftypes.Value{planned, config, state} {
		if v.Type() == nil || !v.IsKnown() || v.IsNull() {
			return planned
		}
	}
	switch f.kind {
	case kTime, kPolicy:
		if equal, known := f.subset(config, state); equal && known {
			return state
		}
	case kObject:
		p, c, s := attributes(planned), attributes(config), attributes(state)
		for _, child := range f.fields {
			if v, ok := p[child.name]; ok {
				p[child.name] = child.keepEquivalent(v, c[child.name], s[child.name])
			}
		}
		return tftypes.NewValue(planned.Type(), p)
	case kObjectList:
		p, c, s := elements(planned), elements(config), elements(state)
		if len(p) != len(c) {
			return planned
		}
		for i := range p {
			if i < len(s) {
				p[i] = f.element().keepEquivalent(p[i], c[i], s[i])
			}
		}
		return tftypes.NewValue(planned.Type(), p)
	case kObjectMap:
		p, c, s := attributes(planned), attributes(config), attributes(state)
		for k, v := range p {
			if cv, ok := c[k]; ok {
				if sv, ok := s[k]; ok {
					p[k] = f.element().keepEquivalent(v, cv, sv)
				}
			}
		}
		return tftypes.NewValue(planned.Type(), p)
	}
	return planned
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
