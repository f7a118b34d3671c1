package search

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// settings are the plan's top-level arguments that steer plan and apply. A
// plan's configuration sections may be wholly unknown (at creation), which
// the section structs cannot hold, so plans are read field by field.
type settings struct {
	DomainName        types.String
	AcceptedWarnings  types.Set
	AllowBlueGreen    types.Bool
	DryRunMode        types.String
	WaitForCompletion types.Bool
	WOVersion         types.Int64
	Timeouts          timeouts.Value
}

type attributeGetter interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}

func readSettings(ctx context.Context, g attributeGetter) (settings, diag.Diagnostics) {
	var s settings
	var diags diag.Diagnostics
	diags.Append(g.GetAttribute(ctx, path.Root("domain_name"), &s.DomainName)...)
	diags.Append(g.GetAttribute(ctx, path.Root("accepted_warnings"), &s.AcceptedWarnings)...)
	diags.Append(g.GetAttribute(ctx, path.Root("allow_blue_green"), &s.AllowBlueGreen)...)
	diags.Append(g.GetAttribute(ctx, path.Root("dry_run_mode"), &s.DryRunMode)...)
	diags.Append(g.GetAttribute(ctx, path.Root("wait_for_completion"), &s.WaitForCompletion)...)
	diags.Append(g.GetAttribute(ctx, path.Root("master_user_password_wo_version"), &s.WOVersion)...)
	diags.Append(g.GetAttribute(ctx, path.Root("timeouts"), &s.Timeouts)...)
	return s, diags
}

// acceptedCodes is accepted_warnings as a set.
func (s settings) acceptedCodes() map[string]bool {
	out := map[string]bool{}
	for _, e := range s.AcceptedWarnings.Elements() {
		if v, ok := e.(types.String); ok {
			out[v.ValueString()] = true
		}
	}
	return out
}

// newModel is a model of domain with every value null (and typed), to be
// filled by flattenDomainConfig.
func newModel(s settings) domainConfigModel {
	return domainConfigModel{
		ID:                          s.DomainName,
		DomainName:                  s.DomainName,
		AccessPolicies:              jsontypes.NewNormalizedNull(),
		AdvancedOptions:             types.MapNull(types.StringType),
		AcceptedWarnings:            s.AcceptedWarnings,
		AllowBlueGreen:              s.AllowBlueGreen,
		DryRunMode:                  s.DryRunMode,
		WaitForCompletion:           s.WaitForCompletion,
		MasterUserPasswordWO:        types.StringNull(),
		MasterUserPasswordWOVersion: s.WOVersion,
		DryRun:                      types.ObjectNull(dryRunAttrTypes),
		ChangeID:                    types.StringNull(),
		ConfigChangeStatus:          types.StringNull(),
		Timeouts:                    s.Timeouts,
	}
}

// dryRunNull is a typed null dry_run.
func dryRunNull() types.Object { return types.ObjectNull(dryRunAttrTypes) }
