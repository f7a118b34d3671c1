package search

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// ValidateField runs the provider's validators of the field at the wire
// path (ClusterConfig, InstanceCount) on v, for tests that compare them
// with the emulator's checks.
func ValidateField(ctx context.Context, v attr.Value, wirePath ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	name, vs, ok := shape.Lookup(wirePath...)
	if !ok {
		diags.AddError("No Such Field", "no field at the wire path")
		return diags
	}
	p := path.Root(name)
	for _, x := range vs {
		switch v := v.(type) {
		case types.Int64:
			if x, ok := x.(validator.Int64); ok {
				var resp validator.Int64Response
				x.ValidateInt64(ctx, validator.Int64Request{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		case types.String:
			if x, ok := x.(validator.String); ok {
				var resp validator.StringResponse
				x.ValidateString(ctx, validator.StringRequest{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		case types.Map:
			if x, ok := x.(validator.Map); ok {
				var resp validator.MapResponse
				x.ValidateMap(ctx, validator.MapRequest{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		case types.Set:
			if x, ok := x.(validator.Set); ok {
				var resp validator.SetResponse
				x.ValidateSet(ctx, validator.SetRequest{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		}
	}
	switch v.(type) {
	case types.Int64, types.String, types.Map, types.Set:
	default:
		diags.AddError("Unsupported Value", "no validators for this value type")
	}
	return diags
}

// DedicatedMastersRefused reports whether the plan refuses, before any
// call, a cluster_config that sets dedicated_master_enabled and
// dedicated_master_count.
func DedicatedMastersRefused(enabled bool, count int64) bool {
	var diags diag.Diagnostics
	checkDedicatedMasters(map[string]tftypes.Value{
		"dedicated_master_enabled": tftypes.NewValue(tftypes.Bool, enabled),
		"dedicated_master_count":   tftypes.NewValue(tftypes.Number, count),
	}, nil, "demo", &diags)
	return diags.HasError()
}
