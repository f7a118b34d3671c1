package shape

import (
	"fmt"
	"strconv"
	"strings"

	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/planmodifiers"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// The kinds with members: a map of strings, an object, a list of objects
// and a map of objects.

// stringMapKind is an object of strings.
type stringMapKind struct{ leaf }

func (stringMapKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.MapAttribute{ElementType: types.StringType, Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.Map](f),
		PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown(), planmodifiers.KeepUnsetMapKeys()}}
}

func (stringMapKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.MapAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: f.doc}
}

func (stringMapKind) fromWire(f *field, w any, _ tftypes.Value, v view) (tftypes.Value, error) {
	m, ok := w.(map[string]any)
	if !ok {
		return unexpected(f, w)
	}
	elems := make(map[string]tftypes.Value, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			return unexpected(f, w)
		}
		elems[k] = tftypes.NewValue(tftypes.String, s)
	}
	return tftypes.NewValue(f.typ[v], elems), nil
}

func (stringMapKind) toWire(_ *field, val tftypes.Value) (any, error) {
	var elems map[string]tftypes.Value
	if err := val.As(&elems); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(elems))
	for k, e := range elems {
		var s string
		if err := e.As(&s); err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

func (stringMapKind) subset(f *field, c, s tftypes.Value) bool { return mapSubset(f, c, s) }

// below sets a key, which is the rest of the name: AdvancedOptions' keys
// have dots (AdvancedOptions.indices.fielddata.cache.size).
func (stringMapKind) below(_ *field, cur tftypes.Value, segs []string, text string) (tftypes.Value, error) {
	elems := tfvalue.Attributes(cur)
	elems[strings.Join(segs, ".")] = tftypes.NewValue(tftypes.String, text)
	return tftypes.NewValue(cur.Type(), elems), nil
}

// mapSubset is subset for a map: each key c sets, compared as an element.
func mapSubset(f *field, c, s tftypes.Value) bool {
	sm := tfvalue.Attributes(s)
	for k, cv := range tfvalue.Attributes(c) {
		sv, ok := sm[k]
		if !ok {
			if cv.IsNull() {
				continue
			}
			return false
		}
		if eq, _ := f.elem.subset(cv, sv); !eq {
			return false
		}
	}
	return true
}

// objectKind is an object of fields.
type objectKind struct{ leaf }

func (objectKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.SingleNestedAttribute{Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.Object](f),
		Attributes:    resourceAttributes(f.fields),
		PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}}
}

func (objectKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.SingleNestedAttribute{Computed: true, MarkdownDescription: f.doc, Attributes: dataSourceAttributes(f.fields)}
}

func (objectKind) fromWire(f *field, w any, prior tftypes.Value, v view) (tftypes.Value, error) {
	m, ok := w.(map[string]any)
	if !ok {
		return unexpected(f, w)
	}
	return objectFromWire(f, m, prior, v)
}

func (objectKind) toWire(f *field, val tftypes.Value) (any, error) { return objectToWire(f, val) }

func (objectKind) subset(f *field, c, s tftypes.Value) bool {
	cm, sm := tfvalue.Attributes(c), tfvalue.Attributes(s)
	for i := range f.fields {
		child := &f.fields[i]
		cv, ok := cm[child.name]
		if !ok {
			continue
		}
		sv, ok := sm[child.name]
		if !ok {
			if cv.IsNull() {
				continue
			}
			return false
		}
		if eq, _ := child.subset(cv, sv); !eq {
			return false
		}
	}
	return true
}

func (objectKind) keepEquivalent(f *field, planned, config, state tftypes.Value) tftypes.Value {
	p, c, s := tfvalue.Attributes(planned), tfvalue.Attributes(config), tfvalue.Attributes(state)
	for i := range f.fields {
		child := &f.fields[i]
		if v, ok := p[child.name]; ok {
			p[child.name] = child.keepEquivalent(v, c[child.name], s[child.name])
		}
	}
	return tftypes.NewValue(planned.Type(), p)
}

func (objectKind) below(f *field, cur tftypes.Value, segs []string, text string) (tftypes.Value, error) {
	c, ok := f.child(segs[0])
	if !ok {
		return cur, fmt.Errorf("no field %s.%s", f.wire, segs[0])
	}
	attrs := tfvalue.Attributes(cur)
	nv, err := c.setPending(attrs[c.name], segs[1:], text)
	if err != nil {
		return cur, err
	}
	attrs[c.name] = nv
	return tftypes.NewValue(cur.Type(), attrs), nil
}

func (objectKind) member(f *field, seg string) (*field, bool) { return f.child(seg) }

// shown leaves out, member by member, what the service never returns.
func (objectKind) shown(f *field, v tftypes.Value) tftypes.Value {
	attrs := tfvalue.Attributes(v)
	for i := range f.fields {
		c := &f.fields[i]
		if a, ok := attrs[c.name]; ok {
			attrs[c.name] = c.shown(a)
		}
	}
	return tftypes.NewValue(v.Type(), attrs)
}

// resourceElement and dataSourceElement are the element of a list or a
// map of objects in the two schemas.
func resourceElement(f *field) schema.NestedAttributeObject {
	return schema.NestedAttributeObject{Attributes: resourceAttributes(f.fields)}
}

func dataSourceElement(f *field) dsschema.NestedAttributeObject {
	return dsschema.NestedAttributeObject{Attributes: dataSourceAttributes(f.fields)}
}

// objectListKind is an array of objects.
type objectListKind struct{ leaf }

func (objectListKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.ListNestedAttribute{Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.List](f),
		NestedObject:  resourceElement(f),
		PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()}}
}

func (objectListKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.ListNestedAttribute{Computed: true, MarkdownDescription: f.doc,
		NestedObject: dataSourceElement(f)}
}

func (objectListKind) fromWire(f *field, w any, prior tftypes.Value, v view) (tftypes.Value, error) {
	list, ok := w.([]any)
	if !ok {
		return unexpected(f, w)
	}
	priors := elements(prior)
	elems := make([]tftypes.Value, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return unexpected(f, w)
		}
		var p tftypes.Value
		if i < len(priors) {
			p = priors[i]
		}
		ev, err := objectFromWire(f.elem, m, p, v)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s[%d].%w", f.wire, i, err)
		}
		elems = append(elems, ev)
	}
	return tftypes.NewValue(f.typ[v], elems), nil
}

func (objectListKind) toWire(f *field, val tftypes.Value) (any, error) {
	var elems []tftypes.Value
	if err := val.As(&elems); err != nil {
		return nil, err
	}
	out := make([]any, 0, len(elems))
	for _, e := range elems {
		m, err := objectToWire(f.elem, e)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func (objectListKind) subset(f *field, c, s tftypes.Value) bool {
	cl, sl := elements(c), elements(s)
	if len(cl) != len(sl) {
		return false
	}
	for i := range cl {
		if eq, _ := f.elem.subset(cl[i], sl[i]); !eq {
			return false
		}
	}
	return true
}

func (objectListKind) keepEquivalent(f *field, planned, config, state tftypes.Value) tftypes.Value {
	p, c, s := elements(planned), elements(config), elements(state)
	if len(p) != len(c) {
		return planned
	}
	for i := range p {
		if i < len(s) {
			p[i] = f.elem.keepEquivalent(p[i], c[i], s[i])
		}
	}
	return tftypes.NewValue(planned.Type(), p)
}

func (objectListKind) below(f *field, cur tftypes.Value, segs []string, text string) (tftypes.Value, error) {
	elems := elements(cur)
	i, err := strconv.Atoi(segs[0])
	if err != nil || i < 0 || i >= len(elems) {
		return cur, fmt.Errorf("no element %s.%s", f.wire, segs[0])
	}
	nv, err := f.elem.setPending(elems[i], segs[1:], text)
	if err != nil {
		return cur, err
	}
	elems[i] = nv
	return tftypes.NewValue(cur.Type(), elems), nil
}

func (objectListKind) member(f *field, _ string) (*field, bool) { return f.elem, true }

// objectMapKind is an object of objects, keyed by name.
type objectMapKind struct{ leaf }

func (objectMapKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.MapNestedAttribute{Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.Map](f),
		NestedObject:  resourceElement(f),
		PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown()}}
}

func (objectMapKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.MapNestedAttribute{Computed: true, MarkdownDescription: f.doc,
		NestedObject: dataSourceElement(f)}
}

func (objectMapKind) fromWire(f *field, w any, prior tftypes.Value, v view) (tftypes.Value, error) {
	m, ok := w.(map[string]any)
	if !ok {
		return unexpected(f, w)
	}
	priors := tfvalue.Attributes(prior)
	elems := make(map[string]tftypes.Value, len(m))
	for k, e := range m {
		em, ok := e.(map[string]any)
		if !ok {
			return unexpected(f, w)
		}
		ev, err := objectFromWire(f.elem, em, priors[k], v)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s.%s.%w", f.wire, k, err)
		}
		elems[k] = ev
	}
	return tftypes.NewValue(f.typ[v], elems), nil
}

func (objectMapKind) toWire(f *field, val tftypes.Value) (any, error) {
	var elems map[string]tftypes.Value
	if err := val.As(&elems); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(elems))
	for k, e := range elems {
		m, err := objectToWire(f.elem, e)
		if err != nil {
			return nil, err
		}
		out[k] = m
	}
	return out, nil
}

func (objectMapKind) subset(f *field, c, s tftypes.Value) bool { return mapSubset(f, c, s) }

func (objectMapKind) keepEquivalent(f *field, planned, config, state tftypes.Value) tftypes.Value {
	p, c, s := tfvalue.Attributes(planned), tfvalue.Attributes(config), tfvalue.Attributes(state)
	for k, v := range p {
		if cv, ok := c[k]; ok {
			if sv, ok := s[k]; ok {
				p[k] = f.elem.keepEquivalent(v, cv, sv)
			}
		}
	}
	return tftypes.NewValue(planned.Type(), p)
}

func (objectMapKind) below(f *field, cur tftypes.Value, segs []string, text string) (tftypes.Value, error) {
	elems := tfvalue.Attributes(cur)
	el, ok := elems[segs[0]]
	if !ok {
		return cur, fmt.Errorf("no key %s.%s", f.wire, segs[0])
	}
	nv, err := f.elem.setPending(el, segs[1:], text)
	if err != nil {
		return cur, err
	}
	elems[segs[0]] = nv
	return tftypes.NewValue(cur.Type(), elems), nil
}

func (objectMapKind) member(f *field, _ string) (*field, bool) { return f.elem, true }
