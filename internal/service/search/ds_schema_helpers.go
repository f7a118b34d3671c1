package search

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Builders of computed data source attributes. The ds prefix keeps them
// apart from the resource schema helpers of this package.

type dsAttrs = map[string]schema.Attribute

func dsString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func dsInt64(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}

func dsStringList(desc string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
}

func dsObjectList(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
}
