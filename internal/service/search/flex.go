package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// Conversions between the wire's JSON and Terraform values, driven by the
// shape in shape.go: fromWire reads an answer, toWire builds a request.

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

// withDefaults is the wire map w with each key it leaves out at its
// default; w absent is a map of the defaults. Anything else is left to
// fromWire to refuse.
func withDefaults(w any, defaults map[string]string) any {
	if w != nil {
		if _, ok := w.(map[string]any); !ok {
			return w
		}
	}
	m, _ := w.(map[string]any)
	out := make(map[string]any, len(defaults)+len(m))
	for k, v := range defaults {
		out[k] = v
	}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// fromWire is the Terraform value of the wire value w (decoded with
// decodeJSON) for f in view v. A field the service never returns takes its
// value from prior, the value at the same place before.
func (f field) fromWire(w any, prior tftypes.Value, v view) (tftypes.Value, error) {
	typ := f.tfType(v)
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
	bad := func() (tftypes.Value, error) {
		return tftypes.Value{}, fmt.Errorf("%s: unexpected %T in the answer", f.wire, w)
	}
	switch f.kind {
	case kString, kPolicy:
		s, ok := w.(string)
		if !ok {
			return bad()
		}
		return tftypes.NewValue(typ, s), nil
	case kBool:
		b, ok := w.(bool)
		if !ok {
			return bad()
		}
		return tftypes.NewValue(typ, b), nil
	case kInt:
		n, ok := w.(json.Number)
		if !ok {
			return bad()
		}
		bf, _, err := big.ParseFloat(n.String(), 10, 512, big.ToNearestEven)
		if err != nil {
			return bad()
		}
		return tftypes.NewValue(typ, bf), nil
	case kTime:
		n, ok := w.(json.Number)
		if !ok {
			return bad()
		}
		secs, err := n.Float64()
		if err != nil {
			return bad()
		}
		return tftypes.NewValue(typ, epochText(sc.EpochSeconds(secs))), nil
	case kStringSet:
		list, ok := w.([]any)
		if !ok {
			return bad()
		}
		elems := make([]tftypes.Value, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return bad()
			}
			elems = append(elems, tftypes.NewValue(tftypes.String, s))
		}
		return tftypes.NewValue(typ, elems), nil
	case kStringMap:
		m, ok := w.(map[string]any)
		if !ok {
			return bad()
		}
		elems := make(map[string]tftypes.Value, len(m))
		for k, e := range m {
			s, ok := e.(string)
			if !ok {
				return bad()
			}
			elems[k] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(typ, elems), nil
	case kObject:
		m, ok := w.(map[string]any)
		if !ok {
			return bad()
		}
		return objectFromWire(f.fields, m, prior, v)
	case kObjectList:
		list, ok := w.([]any)
		if !ok {
			return bad()
		}
		priors := elements(prior)
		elems := make([]tftypes.Value, 0, len(list))
		for i, e := range list {
			m, ok := e.(map[string]any)
			if !ok {
				return bad()
			}
			var p tftypes.Value
			if i < len(priors) {
				p = priors[i]
			}
			ev, err := objectFromWire(f.fields, m, p, v)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("%s[%d].%w", f.wire, i, err)
			}
			elems = append(elems, ev)
		}
		return tftypes.NewValue(typ, elems), nil
	case kObjectMap:
		m, ok := w.(map[string]any)
		if !ok {
			return bad()
		}
		priors := attributes(prior)
		elems := make(map[string]tftypes.Value, len(m))
		for k, e := range m {
			em, ok := e.(map[string]any)
			if !ok {
				return bad()
			}
			ev, err := objectFromWire(f.fields, em, priors[k], v)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("%s.%s.%w", f.wire, k, err)
			}
			elems[k] = ev
		}
		return tftypes.NewValue(typ, elems), nil
	}
	return bad()
}

func objectFromWire(fields []field, m map[string]any, prior tftypes.Value, v view) (tftypes.Value, error) {
	priors := attributes(prior)
	attrs := make(map[string]tftypes.Value, len(fields))
	for _, c := range fields {
		if !c.in(v) {
			continue
		}
		cv, err := c.fromWire(m[c.wire], priors[c.name], v)
		if err != nil {
			return tftypes.Value{}, err
		}
		attrs[c.name] = cv
	}
	return tftypes.NewValue(objectType(fields, v), attrs), nil
}

// toWire is the request value of a configured value: nothing (false) for a
// null or unknown value and for a field the service only returns.
func (f field) toWire(val tftypes.Value) (any, bool, error) {
	if f.role == returned || !val.IsKnown() || val.IsNull() {
		return nil, false, nil
	}
	switch f.kind {
	case kString, kPolicy:
		var s string
		return s, true, val.As(&s)
	case kBool:
		var b bool
		return b, true, val.As(&b)
	case kInt:
		var n big.Float
		if err := val.As(&n); err != nil {
			return nil, false, err
		}
		i, acc := n.Int64()
		if acc != big.Exact {
			return nil, false, fmt.Errorf("%s: %s is not a whole number", f.wire, n.String())
		}
		return i, true, nil
	case kTime:
		var s string
		if err := val.As(&s); err != nil {
			return nil, false, err
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", f.wire, err)
		}
		return sc.Epoch(t), true, nil
	case kStringSet:
		var elems []tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, false, err
		}
		out := make([]string, 0, len(elems))
		for _, e := range elems {
			var s string
			if err := e.As(&s); err != nil {
				return nil, false, err
			}
			out = append(out, s)
		}
		sort.Strings(out)
		return out, true, nil
	case kStringMap:
		var elems map[string]tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, false, err
		}
		out := make(map[string]string, len(elems))
		for k, e := range elems {
			var s string
			if err := e.As(&s); err != nil {
				return nil, false, err
			}
			out[k] = s
		}
		return out, true, nil
	case kObject:
		m, err := objectToWire(f.fields, val)
		return m, true, err
	case kObjectList:
		var elems []tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, false, err
		}
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			m, err := objectToWire(f.fields, e)
			if err != nil {
				return nil, false, err
			}
			out = append(out, m)
		}
		return out, true, nil
	case kObjectMap:
		var elems map[string]tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, false, err
		}
		out := make(map[string]any, len(elems))
		for k, e := range elems {
			m, err := objectToWire(f.fields, e)
			if err != nil {
				return nil, false, err
			}
			out[k] = m
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("%s: unknown kind", f.wire)
}

func objectToWire(fields []field, val tftypes.Value) (map[string]any, error) {
	attrs := attributes(val)
	out := make(map[string]any, len(attrs))
	for _, c := range fields {
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

// attributes are a copy of an object's or a map's members (As hands out
// the value's own map); none for a null or unknown value.
func attributes(v tftypes.Value) map[string]tftypes.Value {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return map[string]tftypes.Value{}
	}
	var in map[string]tftypes.Value
	_ = v.As(&in)
	return maps.Clone(in)
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

// readSections is every section of a DomainConfig answer as Terraform
// values, by Terraform name. prior (the state, or the plan) supplies what
// the service never returns.
func readSections(dc *sc.DomainConfig, prior tftypes.Value) (map[string]tftypes.Value, error) {
	priors := attributes(prior)
	out := make(map[string]tftypes.Value, len(sections))
	for _, s := range sections {
		var w any
		if sec, ok := dc.Sections[s.wire]; ok {
			var err error
			if w, err = decodeJSON(sec.Options); err != nil {
				return nil, fmt.Errorf("%s: %w", s.wire, err)
			}
		}
		v, err := s.fromWire(w, priors[s.name], resourceView)
		if err != nil {
			return nil, err
		}
		out[s.name] = v
	}
	return out, nil
}

// requestSections builds the request members of the named sections from
// the configuration.
func requestSections(config tftypes.Value, names map[string]bool) (map[string]any, error) {
	cfg := attributes(config)
	out := map[string]any{}
	for _, s := range sections {
		if !names[s.name] {
			continue
		}
		w, ok, err := s.toWire(cfg[s.name])
		if err != nil {
			return nil, err
		}
		if ok {
			out[s.wire] = w
		}
	}
	return out, nil
}

// withAttributes is obj with some top-level attributes replaced.
func withAttributes(obj tftypes.Value, repl map[string]tftypes.Value) (tftypes.Value, error) {
	attrs := attributes(obj)
	for k, v := range repl {
		if _, ok := attrs[k]; !ok {
			return tftypes.Value{}, fmt.Errorf("no attribute %q", k)
		}
		attrs[k] = v
	}
	return tftypes.NewValue(obj.Type(), attrs), nil
}

// withPending lays the pending values of a running change over the
// sections read from the domain: the service reports the old values as
// active until the change completes, and the state must show where the
// domain is going, so a plan neither shows the running change again nor
// sends it twice. A property this provider cannot place is left alone.
func withPending(secs map[string]tftypes.Value, props []sc.ModifyingProperty) {
	for _, p := range props {
		segs := strings.Split(sc.Deref(p.Name), ".")
		sec, found := sectionByWire(segs[0])
		if !found || p.PendingValue == nil {
			continue
		}
		if v, err := setPending(sec, secs[sec.name], segs[1:], *p.PendingValue); err == nil {
			secs[sec.name] = v
		}
	}
}

// setPending sets the field at segs below cur to the pending value text.
func setPending(f field, cur tftypes.Value, segs []string, text string) (tftypes.Value, error) {
	if len(segs) == 0 {
		if f.role == sendOnly || f.sensitive {
			return cur, nil
		}
		w, err := valueFromText(f, text)
		if err != nil {
			return cur, err
		}
		return f.fromWire(w, cur, resourceView)
	}
	if !cur.IsKnown() || cur.IsNull() {
		return cur, fmt.Errorf("%s is not set", f.wire)
	}
	switch f.kind {
	case kObject:
		c, ok := f.child(segs[0])
		if !ok {
			return cur, fmt.Errorf("no field %s.%s", f.wire, segs[0])
		}
		attrs := attributes(cur)
		nv, err := setPending(c, attrs[c.name], segs[1:], text)
		if err != nil {
			return cur, err
		}
		attrs[c.name] = nv
		return tftypes.NewValue(cur.Type(), attrs), nil
	case kObjectMap:
		elems := attributes(cur)
		el, ok := elems[segs[0]]
		if !ok {
			return cur, fmt.Errorf("no key %s.%s", f.wire, segs[0])
		}
		nv, err := setPending(field{wire: segs[0], kind: kObject, fields: f.fields}, el, segs[1:], text)
		if err != nil {
			return cur, err
		}
		elems[segs[0]] = nv
		return tftypes.NewValue(cur.Type(), elems), nil
	case kObjectList:
		elems := elements(cur)
		i, err := strconv.Atoi(segs[0])
		if err != nil || i < 0 || i >= len(elems) {
			return cur, fmt.Errorf("no element %s.%s", f.wire, segs[0])
		}
		nv, err := setPending(field{wire: segs[0], kind: kObject, fields: f.fields}, elems[i], segs[1:], text)
		if err != nil {
			return cur, err
		}
		elems[i] = nv
		return tftypes.NewValue(cur.Type(), elems), nil
	case kStringMap:
		// The key is the rest of the name: AdvancedOptions' keys have dots
		// (AdvancedOptions.indices.fielddata.cache.size).
		elems := attributes(cur)
		elems[strings.Join(segs, ".")] = tftypes.NewValue(tftypes.String, text)
		return tftypes.NewValue(cur.Type(), elems), nil
	}
	return cur, fmt.Errorf("%s has no fields", f.wire)
}

// valueFromText reads a ModifyingProperties value: JSON for objects,
// lists and numbers, plain text for strings.
func valueFromText(f field, text string) (any, error) {
	switch f.kind {
	case kString, kPolicy:
		return text, nil
	case kTime:
		if t, err := time.Parse(time.RFC3339, text); err == nil {
			return json.Number(strconv.FormatInt(t.Unix(), 10)), nil
		}
	}
	return decodeJSON([]byte(text))
}

// propertyField is the field a ModifyingProperties name denotes.
func propertyField(name string) (field, bool) {
	segs := strings.Split(name, ".")
	cur, found := sectionByWire(segs[0])
	for _, seg := range segs[1:] {
		if !found {
			break
		}
		switch cur.kind {
		case kObjectMap, kObjectList:
			cur = field{wire: seg, kind: kObject, fields: cur.fields}
		default:
			cur, found = cur.child(seg)
		}
	}
	return cur, found
}

// sensitiveValue stands for the values of a sensitive property wherever
// a dry run's or a change's properties are shown.
const sensitiveValue = "(sensitive value)"

// sensitiveProperty reports a property whose values must not be shown.
func sensitiveProperty(name string) bool {
	f, ok := propertyField(name)
	return ok && (f.sensitive || hasSensitive(f.fields))
}

func hasSensitive(fields []field) bool {
	for _, f := range fields {
		if f.sensitive || hasSensitive(f.fields) {
			return true
		}
	}
	return false
}

// stringList is a set of strings as a sorted slice.
func stringList(ctx context.Context, v types.Set) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	var out []string
	_ = v.ElementsAs(ctx, &out, false)
	sort.Strings(out)
	return out
}

// epochString is a wire timestamp as RFC 3339, nil when there is none.
func epochString(p *sc.EpochSeconds) *string {
	if p == nil || math.IsNaN(float64(*p)) {
		return nil
	}
	s := epochText(*p)
	return &s
}

// epochText is how the provider shows every wire timestamp: RFC 3339, to
// the second.
func epochText(e sc.EpochSeconds) string {
	return e.Time().Round(time.Second).Format(time.RFC3339)
}
