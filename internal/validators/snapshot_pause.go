package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// SnapshotPauseWindow checks an automated snapshot suspension: enabled
// needs start_time and end_time, and end_time follows start_time by at
// most 3 days (RFC 3339 strings).
func SnapshotPauseWindow() validator.Object { return snapshotPauseWindow{} }

type snapshotPauseWindow struct{}

func (snapshotPauseWindow) Description(context.Context) string {
	return "enabled needs start_time and end_time; end_time follows start_time by at most 3 days"
}

func (v snapshotPauseWindow) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (snapshotPauseWindow) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	attrs := req.ConfigValue.Attributes()
	if enabled, ok := attrs["enabled"].(types.Bool); ok && enabled.ValueBool() {
		for _, name := range []string{"start_time", "end_time"} {
			if v, ok := attrs[name].(basetypes.StringValuable); ok && v.IsNull() {
				resp.Diagnostics.AddAttributeError(req.Path.AtName(name), "Incomplete Snapshot Suspension",
					fmt.Sprintf("Suspending automated snapshots (enabled = true) needs start_time and end_time, at most 3 days apart; %s is not set.", name))
			}
		}
	}
	start, okS := timeAttr(attrs, "start_time")
	end, okE := timeAttr(attrs, "end_time")
	if !okS || !okE {
		return
	}
	switch {
	case !end.After(start):
		resp.Diagnostics.AddAttributeError(req.Path.AtName("end_time"), "Invalid Snapshot Suspension",
			fmt.Sprintf("end_time (%s) must be after start_time (%s).", end.Format(time.RFC3339), start.Format(time.RFC3339)))
	case end.Sub(start) > rules.MaxSnapshotPause:
		resp.Diagnostics.AddAttributeError(req.Path.AtName("end_time"), "Snapshot Suspension Too Long",
			fmt.Sprintf("Automated snapshots can be suspended for at most 3 days; end_time is %s after start_time. Move end_time to %s or earlier.",
				end.Sub(start), start.Add(rules.MaxSnapshotPause).Format(time.RFC3339)))
	}
}

func timeAttr(attrs map[string]attr.Value, name string) (time.Time, bool) {
	v, ok := attrs[name].(basetypes.StringValuable)
	if !ok || v.IsNull() || v.IsUnknown() {
		return time.Time{}, false
	}
	s, diags := v.ToStringValue(context.Background())
	if diags.HasError() {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s.ValueString())
	return t, err == nil
}
