package search

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
)

// settings are the top-level arguments that steer plan and apply, read
// with tfmodel.GetAttributes. The configuration sections are handled as
// Terraform values (package shape), since at creation a plan's sections
// may be wholly unknown.
type settings struct {
	DomainName        types.String      `tfsdk:"domain_name"`
	AcceptedWarnings  types.Set         `tfsdk:"accepted_warnings"`
	AllowBlueGreen    types.Bool        `tfsdk:"allow_blue_green"`
	DryRunMode        types.String      `tfsdk:"dry_run_mode"`
	WaitForCompletion types.Bool        `tfsdk:"wait_for_completion"`
	WOVersion         customtypes.Int64 `tfsdk:"master_user_password_wo_version"`
	Timeouts          timeouts.Value    `tfsdk:"timeouts"`
}

// recorded is what the state holds of the last change Terraform saw and
// of the write-only password it last sent, which Update starts from.
type recorded struct {
	ChangeID  types.String      `tfsdk:"change_id"`
	Status    types.String      `tfsdk:"config_change_status"`
	WOVersion customtypes.Int64 `tfsdk:"master_user_password_wo_version"`
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
