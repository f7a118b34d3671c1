package shape

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// Changed names the configuration sections whose configured values differ
// from current (the state, or the service's configuration when the
// resource is created). A value the configuration leaves null is not
// compared. unknown reports a section that cannot be compared yet because
// a configured value is unknown.
func Changed(config, current tftypes.Value) (changed map[string]bool, unknown bool) {
	changed = map[string]bool{}
	cfg := tfvalue.Attributes(config)
	cur := tfvalue.Attributes(current)
	all := sections()
	for i := range all {
		s := &all[i]
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

// KeepEquivalent is planned with each time and JSON document the
// configuration sets to what the state holds by meaning (the same instant,
// the same JSON) taken from the state, text and all. Terraform accepts a
// planned value equal to the prior state's in place of the
// configuration's, so a configuration that spells a value differently
// (another offset, key order, whitespace, number spelling) plans no
// change, and adopting a matching domain (import) plans nothing.
func KeepEquivalent(planned, config, state tftypes.Value) (tftypes.Value, error) {
	p, cfg, st := tfvalue.Attributes(planned), tfvalue.Attributes(config), tfvalue.Attributes(state)
	keep := map[string]tftypes.Value{}
	all := sections()
	for i := range all {
		s := &all[i]
		if v, ok := p[s.name]; ok {
			keep[s.name] = s.keepEquivalent(v, cfg[s.name], st[s.name])
		}
	}
	return tfvalue.WithAttributes(planned, keep)
}

// FillUnknown replaces every unknown value in planned with the value at the
// same place in actual, or null when actual has none. After apply no value
// may stay unknown, and known planned values must not change.
func FillUnknown(planned, actual tftypes.Value) (tftypes.Value, error) {
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

// FillSections fills the unknown values of the planned sections from secs
// (FillUnknown, section by section); the other attributes stay as planned.
// A value the configuration itself leaves unknown (a reference to what
// another resource creates) stays unknown: a plan may not set it.
func FillSections(planned, config tftypes.Value, secs map[string]tftypes.Value) (tftypes.Value, error) {
	attrs, cfgs := tfvalue.Attributes(planned), tfvalue.Attributes(config)
	filled := make(map[string]tftypes.Value, len(secs))
	for name, v := range secs {
		f, err := FillUnknown(attrs[name], v)
		if err != nil {
			return tftypes.Value{}, err
		}
		if f, err = keepConfiguredUnknowns(f, cfgs[name]); err != nil {
			return tftypes.Value{}, err
		}
		filled[name] = f
	}
	return tfvalue.WithAttributes(planned, filled)
}

// keepConfiguredUnknowns is v with each value cfg leaves unknown unknown.
func keepConfiguredUnknowns(v, cfg tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(v, func(p *tftypes.AttributePath, fv tftypes.Value) (tftypes.Value, error) {
		found, _, err := tftypes.WalkAttributePath(cfg, p)
		if err != nil {
			return fv, nil //nolint:nilerr // no such place in the configuration: nothing configured there
		}
		if c, ok := found.(tftypes.Value); ok && !c.IsKnown() {
			return c, nil
		}
		return fv, nil
	})
}
