package customtypes

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestInt64Type(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		in      tftypes.Value
		wantErr string // the validation error's detail, "" for none
		want    Int64
	}{
		{"whole", tftypes.NewValue(tftypes.Number, 30), "", NewInt64Value(30)},
		{"null", tftypes.NewValue(tftypes.Number, nil), "", NewInt64Null()},
		{"unknown", tftypes.NewValue(tftypes.Number, tftypes.UnknownValue), "", NewInt64Unknown()},
		{"fraction", tftypes.NewValue(tftypes.Number, 1.5), "credential_age_days must be a whole number, such as 1 or 30; got 1.5.", Int64{}},
		{"too large", tftypes.NewValue(tftypes.Number, new(big.Float).SetFloat64(1e30)), "got 1e+30", Int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := Int64Type{}.ValueFromTerraform(ctx, tc.in)
			if err != nil {
				t.Fatalf("ValueFromTerraform: %v", err)
			}
			got, ok := v.(Int64)
			if !ok {
				t.Fatalf("got %T, want Int64", v)
			}
			var resp xattr.ValidateAttributeResponse
			got.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root("credential_age_days")}, &resp)
			if tc.wantErr == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				if !got.Equal(tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
				return
			}
			if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), tc.wantErr) {
				t.Fatalf("diagnostics %v, want an error containing %q", resp.Diagnostics, tc.wantErr)
			}
			if !got.IsUnknown() {
				t.Fatalf("an invalid number must look unknown to the provider's code")
			}
			tv, err := got.ToTerraformValue(ctx)
			if err != nil || !tv.Equal(tc.in) {
				t.Fatalf("ToTerraformValue = %v, %v; want the configured number back", tv, err)
			}
		})
	}
}
