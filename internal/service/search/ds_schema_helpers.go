package search

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Builders of computed data source attributes. The ds prefix keeps them
// apart from the resource schema helpers of this package.

func dsString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func dsBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
}

func dsInt64(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}

func dsStringList(desc string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
}

func dsStringMap(desc string) schema.MapAttribute {
	return schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
}

func dsObject(desc string, attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: attrs}
}

func dsObjectList(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
}

func dsObjectMap(desc string, attrs map[string]schema.Attribute) schema.MapNestedAttribute {
	return schema.MapNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
}

// dsEnabled is the schema of a section that only switches a feature.
func dsEnabled(desc string) schema.SingleNestedAttribute {
	return dsObject(desc, map[string]schema.Attribute{"enabled": dsBool("Whether the feature is on.")})
}
