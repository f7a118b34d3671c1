package identity

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
)

// emptyState is a null state of r's schema.
func emptyState(t testing.TB, r resource.Resource) tfsdk.State {
	t.Helper()
	var sr resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &sr)
	if sr.Diagnostics.HasError() {
		t.Fatal(sr.Diagnostics)
	}
	return tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(context.Background()), nil)}
}

// benchKey is a key as a refresh finds it.
func benchKey() serviceSpecificCredentialModel {
	return serviceSpecificCredentialModel{
		ID: types.StringValue("bench-1/ACCAABCDEFGHIJKLMNOPQ"), UserName: types.StringValue("bench-1"), ServiceName: types.StringValue(DefaultServiceName),
		CredentialAgeDays: customtypes.NewInt64Value(90), Status: types.StringValue("Active"),
		ResetTriggers:   types.MapValueMust(types.StringType, map[string]attr.Value{"rotation": types.StringValue("1")}),
		RenewBeforeDays: customtypes.NewInt64Null(), ServiceSpecificCredentialID: types.StringValue("ACCAABCDEFGHIJKLMNOPQ"),
		ServiceAPIKeyValue: types.StringUnknown(), CreateDate: types.StringValue("2026-01-02T03:04:05Z"),
		ExpirationDate: types.StringValue("2099-04-02T03:04:05Z"), Region: types.StringValue("us-east-1"),
	}
}

// TestModelHelpersMatchFramework checks that tfmodel.Get and tfmodel.Set read and
// write the models exactly as the framework's Get and Set do.
func TestModelHelpersMatchFramework(t *testing.T) {
	t.Parallel()
	// Each resource, a model of it and a new empty one.
	tests := map[string]struct {
		resource resource.Resource
		model    any
		empty    func() any
	}{
		"key": {NewServiceSpecificCredentialResource(), new(benchKey()), func() any { return &serviceSpecificCredentialModel{} }},
		"user": {NewUserResource(), &userModel{
			ID: types.StringValue("alice"), UserName: types.StringValue("alice"), Path: types.StringValue("/"), Arn: types.StringNull(),
			UserID: types.StringUnknown(), CreateDate: types.StringValue("2026-01-02T03:04:05Z"), ForceDestroy: types.BoolValue(true),
		}, func() any { return &userModel{} }},
		"attachment": {NewUserPolicyAttachmentResource(), &userPolicyAttachmentModel{
			ID: types.StringNull(), UserName: types.StringValue("alice"), PolicyArn: types.StringValue("arn:cloud:identity::cloud:policy/ModelsLimitedAccess"),
		}, func() any { return &userPolicyAttachmentModel{} }},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			ours, theirs := emptyState(t, tt.resource), emptyState(t, tt.resource)
			if diags := tfmodel.Set(ctx, &ours, tt.model); diags.HasError() {
				t.Fatal(diags)
			}
			if diags := theirs.Set(ctx, tt.model); diags.HasError() {
				t.Fatal(diags)
			}
			if !ours.Raw.Equal(theirs.Raw) {
				t.Errorf("tfmodel.Set wrote %s, Set %s", ours.Raw, theirs.Raw)
			}
			got, want := tt.empty(), tt.empty()
			if diags := tfmodel.Get(ctx, ours, got); diags.HasError() {
				t.Fatal(diags)
			}
			if diags := ours.Get(ctx, want); diags.HasError() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tfmodel.Get (-Get +tfmodel.Get):\n%s", diff)
			}
			if diff := cmp.Diff(tt.model, got); diff != "" {
				t.Errorf("round trip (-set +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkKeyStateRoundTrip is what the key's Read costs besides its API
// call: its state read into the model and written back.
func BenchmarkKeyStateRoundTrip(b *testing.B) {
	ctx := context.Background()
	state := emptyState(b, NewServiceSpecificCredentialResource())
	key := benchKey()
	if diags := tfmodel.Set(ctx, &state, &key); diags.HasError() {
		b.Fatal(diags)
	}
	b.ReportAllocs()
	for b.Loop() {
		var m serviceSpecificCredentialModel
		diags := tfmodel.Get(ctx, state, &m)
		diags.Append(tfmodel.Set(ctx, &state, &m)...)
		if diags.HasError() {
			b.Fatal(diags)
		}
	}
}
