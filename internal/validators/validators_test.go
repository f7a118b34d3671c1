package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestJSONObject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string // want: "" for no error, else a part of the detail
	}{
		{"object", `{"Version":"2012-10-17","Statement":[]}`, ""},
		{"empty string (the spec allows length 0)", ``, ""},
		{"not JSON is the type's to report", `{nope`, ""},
		{"array", `["a"]`, "got an array"},
		{"string", `"allow"`, "got a string"},
		{"number", `42`, "got a number"},
		{"boolean", `true`, "got a boolean"},
		{"null", `null`, "got null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var resp validator.StringResponse
			JSONObject().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("access_policies"), ConfigValue: types.StringValue(tc.in)}, &resp)
			checkDiag(t, resp.Diagnostics.Errors(), tc.want)
		})
	}
}

func TestSnapshotPauseWindow(t *testing.T) {
	t.Parallel()
	obj := func(enabled types.Bool, start, end types.String) types.Object {
		return types.ObjectValueMust(map[string]attr.Type{"enabled": types.BoolType, "start_time": types.StringType, "end_time": types.StringType},
			map[string]attr.Value{"enabled": enabled, "start_time": start, "end_time": end})
	}
	s, e := types.StringValue("2026-01-01T00:00:00Z"), types.StringValue("2026-01-02T00:00:00Z")
	for _, tc := range []struct {
		name string
		in   types.Object
		want string
	}{
		{"a day", obj(types.BoolValue(true), s, e), ""},
		{"disabled without times", obj(types.BoolValue(false), types.StringNull(), types.StringNull()), ""},
		{"enabled without times", obj(types.BoolValue(true), types.StringNull(), types.StringNull()), "start_time is not set|end_time is not set"},
		{"enabled without end", obj(types.BoolValue(true), s, types.StringNull()), "end_time is not set"},
		{"unknown times are checked at apply", obj(types.BoolValue(true), types.StringUnknown(), types.StringUnknown()), ""},
		{"over 3 days", obj(types.BoolValue(true), s, types.StringValue("2026-01-04T00:00:01Z")), "at most 3 days"},
		{"ends first", obj(types.BoolValue(true), e, s), "must be after start_time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var resp validator.ObjectResponse
			SnapshotPauseWindow().ValidateObject(context.Background(), validator.ObjectRequest{Path: path.Root("automated_snapshot_pause_options"), ConfigValue: tc.in}, &resp)
			checkDiag(t, resp.Diagnostics.Errors(), tc.want)
		})
	}
}

func checkDiag(t *testing.T, errs diag.Diagnostics, want string) {
	t.Helper()
	if want == "" {
		if len(errs) > 0 {
			t.Fatalf("unexpected errors: %v", errs)
		}
		return
	}
	// One error per |-separated part, in order.
	parts := strings.Split(want, "|")
	if len(errs) != len(parts) {
		t.Fatalf("errors %v, want %d: %q", errs, len(parts), parts)
	}
	for i, p := range parts {
		if !strings.Contains(errs[i].Detail(), p) {
			t.Errorf("error %d %q does not say %q", i, errs[i].Detail(), p)
		}
	}
}
