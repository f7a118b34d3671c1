package identity

import (
	"context"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
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

func TestGetModelMismatch(t *testing.T) {
	t.Parallel()
	s := emptyState(t, NewUserResource())
	if diags := tfmodel.Set(context.Background(), &s, &userModel{
		ID: types.StringValue("a"), UserName: types.StringValue("a"), Path: types.StringValue("/"), Arn: types.StringNull(),
		UserID: types.StringNull(), CreateDate: types.StringNull(), ForceDestroy: types.BoolValue(false),
	}); diags.HasError() {
		t.Fatal(diags)
	}
	if diags := tfmodel.Get(context.Background(), s, &userPolicyAttachmentModel{}); !diags.HasError() {
		t.Error("tfmodel.Get read a user into an attachment's model")
	}
}

// TestSetChanged checks that tfmodel.SetChanged writes what the planning changed,
// and only that: the plan's other attributes keep their values.
func TestSetChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyState(t, NewServiceSpecificCredentialResource())
	before := benchKey()
	if diags := tfmodel.Set(ctx, &st, &before); diags.HasError() {
		t.Fatal(diags)
	}
	plan := tfsdk.Plan(st)
	if diags := tfmodel.SetChanged(ctx, &plan, &before, new(benchKey())); diags.HasError() || !plan.Raw.Equal(st.Raw) {
		t.Fatalf("nothing changed, yet the plan became %s (%v)", plan.Raw, diags)
	}
	// An attribute the planning did not change keeps the plan's value,
	// even where the plan differs from the models.
	if diags := plan.SetAttribute(ctx, path.Root("status"), types.StringValue("Inactive")); diags.HasError() {
		t.Fatal(diags)
	}
	after := benchKey()
	after.Region, after.ExpirationDate = types.StringValue("eu-west-1"), types.StringUnknown()
	if diags := tfmodel.SetChanged(ctx, &plan, &before, &after); diags.HasError() {
		t.Fatal(diags)
	}
	var got serviceSpecificCredentialModel
	if diags := plan.Get(ctx, &got); diags.HasError() {
		t.Fatal(diags)
	}
	want := after
	want.Status = types.StringValue("Inactive")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plan after tfmodel.SetChanged (-want +got):\n%s", diff)
	}
}

// TestModelHelpersValidateAsFramework checks that tfmodel.Get and tfmodel.Set
// refuse a value its custom type finds invalid (a whole number configured
// as 2.5), with the diagnostics of the framework's Get and Set.
func TestModelHelpersValidateAsFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyState(t, NewServiceSpecificCredentialResource())
	key := benchKey()
	if diags := tfmodel.Set(ctx, &st, &key); diags.HasError() {
		t.Fatal(diags)
	}
	half := tftypes.NewValue(tftypes.Number, big.NewFloat(2.5))
	raw, err := tftypes.Transform(st.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if p.Equal(tftypes.NewAttributePath().WithAttributeName("renew_before_days")) {
			return half, nil
		}
		return v, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	bad := tfsdk.State{Schema: st.Schema, Raw: raw}
	var ours, theirs serviceSpecificCredentialModel
	if got, want := tfmodel.Get(ctx, bad, &ours), bad.Get(ctx, &theirs); !want.HasError() || !got.Equal(want) {
		t.Errorf("tfmodel.Get said %v, Get %v", got, want)
	}
	invalid, err := customtypes.Int64Type{}.ValueFromTerraform(ctx, half)
	if err != nil {
		t.Fatal(err)
	}
	key.RenewBeforeDays = invalid.(customtypes.Int64)
	a, b := emptyState(t, NewServiceSpecificCredentialResource()), emptyState(t, NewServiceSpecificCredentialResource())
	if got, want := tfmodel.Set(ctx, &a, &key), b.Set(ctx, &key); !want.HasError() || !got.Equal(want) {
		t.Errorf("tfmodel.Set said %v, Set %v", got, want)
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
