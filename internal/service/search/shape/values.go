package shape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// What every kind shares, around its codec: roles, defaults, null and
// unknown values.

func resourceAttributes(fields []field) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(fields))
	for i := range fields {
		f := &fields[i]
		out[f.name] = f.kind.resourceAttribute(f, f.role != returned)
	}
	return out
}

func dataSourceAttributes(fields []field) map[string]dsschema.Attribute {
	out := make(map[string]dsschema.Attribute, len(fields))
	for i := range fields {
		if f := &fields[i]; f.in(answerView) {
			out[f.name] = f.kind.dataSourceAttribute(f)
		}
	}
	return out
}

// fromWire is the Terraform value of the wire value w (decoded with
// decodeJSON) in view v. A field the service never returns takes its
// value from prior, the value at the same place before.
func (f *field) fromWire(w any, prior tftypes.Value, v view) (tftypes.Value, error) {
	typ := f.typ[v]
	if f.role == sendOnly && v == resourceView {
		if prior.Type() != nil && prior.IsKnown() && prior.Type().Equal(typ) {
			return prior, nil
		}
		return tftypes.NewValue(typ, nil), nil
	}
	if f.defaults != nil {
		w = withDefaults(w, f.defaults)
	}
	if w == nil {
		return tftypes.NewValue(typ, nil), nil
	}
	return f.kind.fromWire(f, w, prior, v)
}

// withDefaults is the wire map w with each key it leaves out at its
// default; w absent is a map of the defaults. Anything else is left to
// fromWire to refuse.
func withDefaults(w any, defaults map[string]string) any {
	m, isMap := w.(map[string]any)
	if w != nil && !isMap {
		return w
	}
	out := make(map[string]any, len(defaults)+len(m))
	for k, v := range defaults {
		out[k] = v
	}
	maps.Copy(out, m)
	return out
}

func objectFromWire(f *field, m map[string]any, prior tftypes.Value, v view) (tftypes.Value, error) {
	priors := tfvalue.Attributes(prior)
	attrs := make(map[string]tftypes.Value, len(f.fields))
	for i := range f.fields {
		c := &f.fields[i]
		if !c.in(v) {
			continue
		}
		cv, err := c.fromWire(m[c.wire], priors[c.name], v)
		if err != nil {
			return tftypes.Value{}, err
		}
		attrs[c.name] = cv
	}
	return tftypes.NewValue(f.typ[v], attrs), nil
}

// toWire is the request value of a configured value: nothing (false) for a
// null or unknown value and for a field the service only returns.
func (f *field) toWire(val tftypes.Value) (any, bool, error) {
	if f.role == returned || !val.IsKnown() || val.IsNull() {
		return nil, false, nil
	}
	w, err := f.kind.toWire(f, val)
	if err != nil {
		return nil, false, err
	}
	return w, true, nil
}

func objectToWire(f *field, val tftypes.Value) (map[string]any, error) {
	attrs := tfvalue.Attributes(val)
	out := make(map[string]any, len(attrs))
	for i := range f.fields {
		c := &f.fields[i]
		w, ok, err := c.toWire(attrs[c.name])
		if err != nil {
			return nil, err
		}
		if ok {
			out[c.wire] = w
		}
	}
	return out, nil
}

// subset reports whether every non-null value in c (a value of f) equals
// the value at the same place in s, as f's kind compares. known is false
// when c holds an unknown value.
func (f *field) subset(c, s tftypes.Value) (equal, known bool) {
	switch {
	case c.IsNull():
		return true, true
	case !c.IsFullyKnown():
		return false, false
	case s.IsNull() || !s.IsKnown():
		return false, true
	}
	return f.kind.subset(f, c, s), true
}

// keepEquivalent is planned with each value the configuration sets to
// what the state holds by meaning taken from the state (see
// KeepEquivalent): config and state are the values at planned's place.
func (f *field) keepEquivalent(planned, config, state tftypes.Value) tftypes.Value {
	for _, v := range []tftypes.Value{planned, config, state} {
		if v.Type() == nil || !v.IsKnown() || v.IsNull() {
			return planned
		}
	}
	return f.kind.keepEquivalent(f, planned, config, state)
}

// setPending sets the field at segs below cur to the pending value text.
func (f *field) setPending(cur tftypes.Value, segs []string, text string) (tftypes.Value, error) {
	if len(segs) == 0 {
		if f.role == sendOnly || f.sensitive {
			return cur, nil
		}
		w, err := f.kind.fromText(text)
		if err != nil {
			return cur, err
		}
		return f.fromWire(w, cur, resourceView)
	}
	if !cur.IsKnown() || cur.IsNull() {
		return cur, fmt.Errorf("%s is not set", f.wire)
	}
	return f.kind.below(f, cur, segs, text)
}

// shown is v without the fields the service never returns (the master
// user, SAML's master user and backend role): the state keeps those as
// configured, so they say nothing about the domain.
func (f *field) shown(v tftypes.Value) tftypes.Value {
	switch {
	case v.Type() == nil:
		return v
	case f.role == sendOnly:
		return tftypes.NewValue(v.Type(), nil)
	case !v.IsKnown() || v.IsNull():
		return v
	}
	return f.kind.shown(f, v)
}

// decodeJSON decodes raw keeping numbers exact.
func decodeJSON(raw []byte) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// elements are a copy of a list's or a set's members.
func elements(v tftypes.Value) []tftypes.Value {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return nil
	}
	var in []tftypes.Value
	_ = v.As(&in)
	return slices.Clone(in)
}
