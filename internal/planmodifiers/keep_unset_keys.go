// Package planmodifiers holds the provider's own plan modifiers.
package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// KeepUnsetMapKeys plans a map as the configuration's keys plus the state's
// other keys, so that keys the configuration does not set (such as the
// service's defaults) are neither removed nor shown as a difference.
func KeepUnsetMapKeys() planmodifier.Map { return keepUnsetMapKeys{} }

type keepUnsetMapKeys struct{}

func (keepUnsetMapKeys) Description(context.Context) string {
	return "keys the configuration does not set keep their current values"
}

func (m keepUnsetMapKeys) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (keepUnsetMapKeys) PlanModifyMap(ctx context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.StateValue.IsNull() || req.StateValue.IsUnknown() {
		return
	}
	merged := make(map[string]attr.Value, len(req.StateValue.Elements()))
	for k, v := range req.StateValue.Elements() {
		merged[k] = v
	}
	for k, v := range req.ConfigValue.Elements() {
		merged[k] = v
	}
	planned, diags := types.MapValue(req.ConfigValue.ElementType(ctx), merged)
	resp.Diagnostics.Append(diags...)
	if !diags.HasError() {
		resp.PlanValue = planned
	}
}
