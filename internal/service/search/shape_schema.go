package search

import (
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/planmodifiers"
)

// view is which fields a schema or value holds: the resource holds every
// field (what is only sent is kept as configured); an answer, such as a
// dry run's DryRunConfig, holds what the service returns.
type view uint8

const (
	resourceView view = iota
	answerView
)

func (f field) in(v view) bool { return v == resourceView || f.role != sendOnly }

// resourceAttribute is f in the resource's schema. Every field is Optional
// and Computed, keeping the state's value when the configuration leaves it
// out: the resource manages what the configuration sets, and a service
// default inside a set section never shows up as a difference. A field the
// service only returns is Computed.
func (f field) resourceAttribute() schema.Attribute {
	opt := f.role != returned
	switch f.kind {
	case kBool:
		return schema.BoolAttribute{Optional: opt, Computed: true, MarkdownDescription: f.doc,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
	case kInt:
		return schema.Int64Attribute{CustomType: customtypes.Int64Type{}, Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.intV,
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
	case kPolicy:
		return schema.StringAttribute{CustomType: customtypes.PolicyType{}, Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.strV,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	case kStringSet:
		return schema.SetAttribute{ElementType: types.StringType, Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.setV,
			PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()}}
	case kStringMap:
		return schema.MapAttribute{ElementType: types.StringType, Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.mapV,
			PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown(), planmodifiers.KeepUnsetMapKeys()}}
	case kObject:
		return schema.SingleNestedAttribute{Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.objV,
			Attributes:    resourceAttributes(f.fields),
			PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}}
	case kObjectList:
		return schema.ListNestedAttribute{Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.listV,
			NestedObject:  schema.NestedAttributeObject{Attributes: resourceAttributes(f.fields)},
			PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()}}
	case kObjectMap:
		return schema.MapNestedAttribute{Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.mapV,
			NestedObject:  schema.NestedAttributeObject{Attributes: resourceAttributes(f.fields)},
			PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown()}}
	}
	if f.kind == kTime {
		// Any RFC 3339 time, offset or Z; the same instant in another
		// offset is no change (the service answers in UTC).
		return schema.StringAttribute{CustomType: customtypes.TimeType{}, Optional: opt, Computed: true, MarkdownDescription: f.doc, Validators: f.strV,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	// kString
	return schema.StringAttribute{Optional: opt, Computed: true, Sensitive: f.sensitive, MarkdownDescription: f.doc, Validators: f.strV,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func resourceAttributes(fields []field) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(fields))
	for _, f := range fields {
		out[f.name] = f.resourceAttribute()
	}
	return out
}

// dataSourceAttribute is f in a data source's schema: computed, as the
// service answers it.
func (f field) dataSourceAttribute() dsschema.Attribute {
	switch f.kind {
	case kBool:
		return dsschema.BoolAttribute{Computed: true, MarkdownDescription: f.doc}
	case kInt:
		return dsschema.Int64Attribute{Computed: true, MarkdownDescription: f.doc}
	case kStringSet:
		// In an answer the service's order is kept.
		return dsschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: f.doc}
	case kStringMap:
		return dsschema.MapAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: f.doc}
	case kObject:
		return dsschema.SingleNestedAttribute{Computed: true, MarkdownDescription: f.doc, Attributes: dataSourceAttributes(f.fields)}
	case kObjectList:
		return dsschema.ListNestedAttribute{Computed: true, MarkdownDescription: f.doc,
			NestedObject: dsschema.NestedAttributeObject{Attributes: dataSourceAttributes(f.fields)}}
	case kObjectMap:
		return dsschema.MapNestedAttribute{Computed: true, MarkdownDescription: f.doc,
			NestedObject: dsschema.NestedAttributeObject{Attributes: dataSourceAttributes(f.fields)}}
	}
	// kString, kTime, kPolicy
	return dsschema.StringAttribute{Computed: true, Sensitive: f.sensitive, MarkdownDescription: f.doc}
}

func dataSourceAttributes(fields []field) map[string]dsschema.Attribute {
	out := make(map[string]dsschema.Attribute, len(fields))
	for _, f := range fields {
		if f.in(answerView) {
			out[f.name] = f.dataSourceAttribute()
		}
	}
	return out
}

// tfType is f's Terraform type in view v; it matches the schemas above.
func (f field) tfType(v view) tftypes.Type {
	switch f.kind {
	case kBool:
		return tftypes.Bool
	case kInt:
		return tftypes.Number
	case kStringSet:
		if v == answerView {
			return tftypes.List{ElementType: tftypes.String}
		}
		return tftypes.Set{ElementType: tftypes.String}
	case kStringMap:
		return tftypes.Map{ElementType: tftypes.String}
	case kObject:
		return objectType(f.fields, v)
	case kObjectList:
		return tftypes.List{ElementType: objectType(f.fields, v)}
	case kObjectMap:
		return tftypes.Map{ElementType: objectType(f.fields, v)}
	}
	return tftypes.String
}

func objectType(fields []field, v view) tftypes.Object {
	attrs := make(map[string]tftypes.Type, len(fields))
	for _, f := range fields {
		if f.in(v) {
			attrs[f.name] = f.tfType(v)
		}
	}
	return tftypes.Object{AttributeTypes: attrs}
}
