package identity

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

// The framework's Get and Set of a struct model compile a regular
// expression for each of the struct's fields, on every call
// (hashicorp/terraform-plugin-framework#725): for the key's 12 attributes,
// most of what a refresh's Read cost. getModel and setState do the same
// for the models here, whose fields are each the value type of their
// attribute, through a types.Object, which the framework converts without
// looking at a struct.

// objectGetter is the Get of tfsdk.Plan, State and Config.
type objectGetter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// getModel is d.Get(ctx, model) for a model of this package.
func getModel(ctx context.Context, d objectGetter, model any) diag.Diagnostics {
	var obj types.Object
	diags := d.Get(ctx, &obj)
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

// setState is s.Set(ctx, model) for a model of this package.
func setState(ctx context.Context, s *tfsdk.State, model any) diag.Diagnostics {
	var diags diag.Diagnostics
	typ, ok := s.Schema.Type().(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Value Conversion Error", fmt.Sprintf("The schema's type %T has no attributes. This is always a bug in the provider.", s.Schema.Type()))
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
	return s.Set(ctx, obj)
}

// setChanged writes to p each attribute whose field differs between the
// models before and after (of one type): a plan whose planning changed
// nothing costs no write.
func setChanged(ctx context.Context, p *tfsdk.Plan, before, after any) diag.Diagnostics {
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
