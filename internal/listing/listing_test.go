package listing

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	identityschema "github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Limited stops the provider's own results at the limit (the CLI drops
// any beyond it, but the calls that found them were made), and with a
// limit of 0 runs nothing.
func TestLimited(t *testing.T) {
	for _, tc := range []struct {
		limit       int64
		pushed, ran int
	}{{limit: 0}, {limit: 2, pushed: 2, ran: 2}, {limit: 10, pushed: 5, ran: 5}} {
		ran := 0
		results := func(push func(list.ListResult) bool) {
			for range 5 {
				ran++
				if !push(list.ListResult{}) {
					return
				}
			}
		}
		pushed := 0
		for range Limited(tc.limit, results) {
			pushed++
		}
		if pushed != tc.pushed || ran != tc.ran {
			t.Errorf("limit %d: %d pushed, %d made; want %d and %d", tc.limit, pushed, ran, tc.pushed, tc.ran)
		}
	}
}

type nameModel struct {
	Name types.String `tfsdk:"name"`
}

var nameSchema = resourceschema.Schema{Attributes: map[string]resourceschema.Attribute{"name": resourceschema.StringAttribute{Required: true}}}

// SetResource sets a result's resource only when the query asks for
// resources: without include_resource the result carries none.
func TestSetResource(t *testing.T) {
	ctx := context.Background()
	for _, include := range []bool{false, true} {
		req := list.ListRequest{IncludeResource: include, ResourceSchema: nameSchema, ResourceIdentitySchema: identityschema.Schema{}}
		result := req.NewListResult(ctx)
		SetResource(ctx, req, &result, &nameModel{Name: types.StringValue("alice")})
		if result.Diagnostics.HasError() {
			t.Fatal(result.Diagnostics)
		}
		if !include {
			if !result.Resource.Raw.IsNull() {
				t.Errorf("without include_resource the result's resource is %s, want none", result.Resource.Raw)
			}
			continue
		}
		var got nameModel
		if diags := result.Resource.Get(ctx, &got); diags.HasError() {
			t.Fatal(diags)
		}
		if got.Name.ValueString() != "alice" {
			t.Errorf("the result's resource names %s, want \"alice\"", got.Name)
		}
	}
}

// Config turns a configuration it cannot read into the stream's one
// result, its diagnostics, and says so.
func TestConfig(t *testing.T) {
	ctx := context.Background()
	cfgSchema := listschema.Schema{Attributes: map[string]listschema.Attribute{"name": listschema.StringAttribute{Optional: true}}}
	config := tfsdk.Config{Schema: cfgSchema, Raw: tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "alice")})}

	var stream list.ListResultsStream
	var m nameModel
	if !Config(ctx, list.ListRequest{Config: config}, &stream, &m) || m.Name.ValueString() != "alice" || stream.Results != nil {
		t.Errorf("Config read %s and set results %v; want \"alice\" and none", m.Name, stream.Results != nil)
	}

	var wrong struct {
		Name types.Bool `tfsdk:"name"`
	}
	if Config(ctx, list.ListRequest{Config: config}, &stream, &wrong) {
		t.Fatal("Config read a string into a bool")
	}
	var results []list.ListResult
	for r := range stream.Results {
		results = append(results, r)
	}
	if len(results) != 1 || !results[0].Diagnostics.HasError() {
		t.Errorf("the stream holds %v; want one result with the error", results)
	}
}
