package search

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
)

// settings are the top-level arguments that steer plan and apply. The
// configuration sections are handled as Terraform values (package shape), since
// at creation a plan's sections may be wholly unknown.
type settings struct {
	DomainName        types.String
	AcceptedWarnings  types.Set
	AllowBlueGreen    types.Bool
	DryRunMode        types.String
	WaitForCompletion types.Bool
	WOVersion         customtypes.Int64
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

// woChanged reports whether the write-only password is to be sent: its
// version is set and differs from prior, the version in state (null at
// creation, so a set version always sends it then).
func (s settings) woChanged(prior customtypes.Int64) bool {
	return !s.WOVersion.IsNull() && !s.WOVersion.Equal(prior)
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
