package identity

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
)

// BenchmarkKeyModifyPlan is the key's ModifyPlan in a plan that changes
// nothing, as in a refresh: what each refreshed key costs there beyond the
// framework's own planning.
func BenchmarkKeyModifyPlan(b *testing.B) {
	ctx := context.Background()
	r := &serviceSpecificCredentialResource{clients: &conns.Clients{Region: "us-east-1"}}
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	state := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
	if diags := state.Set(ctx, &serviceSpecificCredentialModel{
		ID: types.StringValue("bench-1/ACCAABCDEFGHIJKLMNOPQ"), UserName: types.StringValue("bench-1"), ServiceName: types.StringValue(DefaultServiceName),
		CredentialAgeDays: customtypes.NewInt64Value(90), Status: types.StringValue("Active"), ResetTriggers: types.MapNull(types.StringType),
		RenewBeforeDays: customtypes.NewInt64Value(10), ServiceSpecificCredentialID: types.StringValue("ACCAABCDEFGHIJKLMNOPQ"),
		ServiceAPIKeyValue: types.StringValue("CLOUDKsecret"), CreateDate: types.StringValue("2026-01-02T03:04:05Z"),
		ExpirationDate: types.StringValue("2099-04-02T03:04:05Z"), Region: types.StringValue("us-east-1"),
	}); diags.HasError() {
		b.Fatal(diags)
	}
	plan := tfsdk.Plan{Schema: sr.Schema, Raw: state.Raw}
	b.ReportAllocs()
	for b.Loop() {
		resp := resource.ModifyPlanResponse{Plan: plan}
		r.ModifyPlan(ctx, resource.ModifyPlanRequest{Plan: plan, State: state}, &resp)
		if resp.Diagnostics.HasError() || len(resp.RequiresReplace) > 0 || !resp.Plan.Raw.Equal(state.Raw) {
			b.Fatalf("%v %v", resp.Diagnostics, resp.RequiresReplace)
		}
	}
}

// BenchmarkKeyStateRoundTripFramework is BenchmarkKeyStateRoundTrip
// through the framework's own Get and Set of the struct: the cost the
// model helpers (internal/tfmodel) save on every whole-model read and write.
func BenchmarkKeyStateRoundTripFramework(b *testing.B) {
	ctx := context.Background()
	state := emptyState(b, NewServiceSpecificCredentialResource())
	key := benchKey()
	if diags := state.Set(ctx, &key); diags.HasError() {
		b.Fatal(diags)
	}
	b.ReportAllocs()
	for b.Loop() {
		var m serviceSpecificCredentialModel
		diags := state.Get(ctx, &m)
		diags.Append(state.Set(ctx, &m)...)
		if diags.HasError() {
			b.Fatal(diags)
		}
	}
}
