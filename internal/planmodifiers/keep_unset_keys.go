// Package planmodifiers holds the provider's own plan modifiers.
package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
)

// KeepUnsetMapKeys plans the state's map when every key the configuration
// sets already has the configured value there, so that keys the
// configuration does not set (such as the service's defaults, which a
// refresh reads) are no difference.
//
// When a configured key differs, the plan is the configuration's map:
// Terraform accepts a planned map only if it equals the configuration or
// the prior state, so a merge of both would be an invalid plan. The keys
// the configuration leaves out then show as leaving the state; they are
// neither sent nor changed on the domain, and the next refresh reads them
// back.
func KeepUnsetMapKeys() planmodifier.Map { return keepUnsetMapKeys{} }

type keepUnsetMapKeys struct{}

func (keepUnsetMapKeys) Description(context.Context) string {
	return "keys the configuration does not set are no difference while every configured key has its configured value"
}

func (m keepUnsetMapKeys) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (keepUnsetMapKeys) PlanModifyMap(_ context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.StateValue.IsNull() || req.StateValue.IsUnknown() {
		return
	}
	state := req.StateValue.Elements()
	for k, v := range req.ConfigValue.Elements() {
		if s, ok := state[k]; !ok || !s.Equal(v) {
			resp.PlanValue = req.ConfigValue
			return
		}
	}
	resp.PlanValue = req.StateValue
}
