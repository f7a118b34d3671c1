// Package tfmodel reads and writes a Terraform type's model: a struct with
// a `tfsdk` tag on each field, one field per attribute. Get and Set mean
// what the framework's Get and Set of a struct mean, and every resource,
// data source, ephemeral resource and list resource of the provider reads
// and writes its model through them.
//
// They exist for speed: the framework's Get and Set of a struct compile a
// regular expression for each of the struct's fields, on every call
// (hashicorp/terraform-plugin-framework#725), for the key's 12 attributes
// most of what a refresh's Read cost. When each field is the value type of
// its attribute, Get and Set go through a types.Object instead, which the
// framework converts without looking at a struct; any other model (plain
// Go fields such as *string or []string) goes to the framework's own.
package tfmodel

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Getter is the Get of tfsdk.Plan, State and Config.
type Getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// Setter is the Set of *tfsdk.State, *tfsdk.EphemeralResultData and
// *tfsdk.Resource (a list result's resource).
type Setter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// AttributeGetter is the GetAttribute of tfsdk.Plan, State and Config.
type AttributeGetter interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

var attrValue = reflect.TypeFor[attr.Value]()

// ofValues reports whether each field of the struct model points to is
// an attribute value, the models the fast path takes.
func ofValues(model any) bool {
	t := reflect.TypeOf(model)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return false
	}
	t = t.Elem()
	for i := range t.NumField() {
		if !t.Field(i).Type.Implements(attrValue) {
			return false
		}
	}
	return true
}

// Get is from.Get(ctx, model).
func Get(ctx context.Context, from Getter, model any) diag.Diagnostics {
	if !ofValues(model) {
		return from.Get(ctx, model)
	}
	var obj types.Object
	diags := from.Get(ctx, &obj)
	if diags.HasError() {
		return diags
	}
	if obj.IsNull() || obj.IsUnknown() {
		diags.AddError("Value Conversion Error", fmt.Sprintf("Received a null or unknown object for the model %T. This is always a bug in the provider.", model))
		return diags
	}
	attrs := obj.Attributes()
	v := reflect.ValueOf(model).Elem()
	if v.NumField() != len(attrs) {
		diags.AddError("Value Conversion Error", fmt.Sprintf("The model %s has %d fields for %d attributes. This is always a bug in the provider.", v.Type(), v.NumField(), len(attrs)))
		return diags
	}
	for i := range v.NumField() {
		name := v.Type().Field(i).Tag.Get("tfsdk")
		a := reflect.ValueOf(attrs[name])
		if !a.IsValid() || !a.Type().AssignableTo(v.Field(i).Type()) {
			diags.AddError("Value Conversion Error", fmt.Sprintf("Field %s of the model %s does not hold attribute %q (%T). This is always a bug in the provider.", v.Type().Field(i).Name, v.Type(), name, attrs[name]))
			return diags
		}
		diags.Append(validate(ctx, name, attrs[name])...)
		v.Field(i).Set(a)
	}
	return diags
}

// GetAttributes reads into model, whose fields are some of the top-level
// attributes (each field's `tfsdk` tag names one), each with
// from.GetAttribute: for a type whose other attributes are handled as
// Terraform values, not as a struct.
func GetAttributes(ctx context.Context, from AttributeGetter, model any) diag.Diagnostics {
	var diags diag.Diagnostics
	v := reflect.ValueOf(model).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Tag.Get("tfsdk")
		diags.Append(from.GetAttribute(ctx, path.Root(name), v.Field(i).Addr().Interface())...)
	}
	return diags
}

// validate runs a custom value type's own check (such as a whole number
// configured as 2.5), as the framework's Get and Set do for each field.
func validate(ctx context.Context, name string, v attr.Value) diag.Diagnostics {
	va, ok := v.(xattr.ValidateableAttribute)
	if !ok {
		return nil
	}
	var resp xattr.ValidateAttributeResponse
	va.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root(name)}, &resp)
	return resp.Diagnostics
}

// schemaType is the type of the schema to writes, or nil for a Setter
// whose schema is not known here.
func schemaType(to Setter) attr.Type {
	switch t := to.(type) {
	case *tfsdk.State:
		return t.Schema.Type()
	case *tfsdk.EphemeralResultData:
		return t.Schema.Type()
	case *tfsdk.Resource:
		return t.Schema.Type()
	}
	return nil
}

// Set is to.Set(ctx, model).
func Set(ctx context.Context, to Setter, model any) diag.Diagnostics {
	st := schemaType(to)
	if st == nil || !ofValues(model) {
		return to.Set(ctx, model)
	}
	var diags diag.Diagnostics
	typ, ok := st.(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Value Conversion Error", fmt.Sprintf("The schema's type %T has no attributes. This is always a bug in the provider.", st))
		return diags
	}
	v := reflect.ValueOf(model).Elem()
	attrs := make(map[string]attr.Value, v.NumField())
	for i := range v.NumField() {
		a, ok := v.Field(i).Interface().(attr.Value)
		if !ok {
			diags.AddError("Value Conversion Error", fmt.Sprintf("Field %s of the model %s is no attribute value. This is always a bug in the provider.", v.Type().Field(i).Name, v.Type()))
			return diags
		}
		name := v.Type().Field(i).Tag.Get("tfsdk")
		diags.Append(validate(ctx, name, a)...)
		attrs[name] = a
	}
	if diags.HasError() {
		return diags
	}
	obj, d := types.ObjectValue(typ.AttributeTypes(), attrs)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	return to.Set(ctx, obj)
}

// SetChanged writes to p each attribute whose field differs between the
// models before and after (of one type): a plan whose planning changed
// nothing costs no write.
func SetChanged(ctx context.Context, p *tfsdk.Plan, before, after any) diag.Diagnostics {
	var diags diag.Diagnostics
	b, a := reflect.ValueOf(before).Elem(), reflect.ValueOf(after).Elem()
	for i := range a.NumField() {
		was, ok1 := b.Field(i).Interface().(attr.Value)
		now, ok2 := a.Field(i).Interface().(attr.Value)
		if !ok1 || !ok2 {
			diags.AddError("Value Conversion Error", fmt.Sprintf("Field %s of the model %s is not an attribute value. This is always a bug in the provider.", a.Type().Field(i).Name, a.Type()))
			return diags
		}
		if !now.Equal(was) {
			diags.Append(p.SetAttribute(ctx, path.Root(a.Type().Field(i).Tag.Get("tfsdk")), now)...)
		}
	}
	return diags
}
