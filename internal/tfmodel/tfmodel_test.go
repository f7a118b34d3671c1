package tfmodel_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
)

var testSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"name":  schema.StringAttribute{Required: true},
	"count": schema.Int64Attribute{Optional: true},
	"tags":  schema.ListAttribute{ElementType: types.StringType, Optional: true},
}}

// valuesModel takes the fast path: each field is an attribute value.
type valuesModel struct {
	Name  types.String `tfsdk:"name"`
	Count types.Int64  `tfsdk:"count"`
	Tags  types.List   `tfsdk:"tags"`
}

// plainModel has plain Go fields, which only the framework's Get and Set
// convert.
type plainModel struct {
	Name  string   `tfsdk:"name"`
	Count *int64   `tfsdk:"count"`
	Tags  []string `tfsdk:"tags"`
}

func emptyState(ctx context.Context) tfsdk.State {
	return tfsdk.State{Schema: testSchema, Raw: tftypes.NewValue(testSchema.Type().TerraformType(ctx), nil)}
}

// TestGetSetAsFramework checks that Set writes what the framework's Set
// writes and Get reads back what the framework's Get reads, for a model of
// attribute values and for one of plain Go fields, into a state, a list
// result's resource and an ephemeral result.
func TestGetSetAsFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tags := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a")})
	for name, tc := range map[string]struct {
		model    any
		newModel func() any
	}{
		"values": {&valuesModel{Name: types.StringValue("n"), Count: types.Int64Value(3), Tags: tags}, func() any { return new(valuesModel) }},
		"nulls":  {&valuesModel{Name: types.StringValue("n"), Count: types.Int64Null(), Tags: types.ListNull(types.StringType)}, func() any { return new(valuesModel) }},
		"plain":  {&plainModel{Name: "n", Count: new(int64(3)), Tags: []string{"a"}}, func() any { return new(plainModel) }},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			theirs := emptyState(ctx)
			if diags := theirs.Set(ctx, tc.model); diags.HasError() {
				t.Fatal(diags)
			}
			ours := emptyState(ctx)
			res := tfsdk.Resource{Schema: testSchema, Raw: ours.Raw}
			eph := tfsdk.EphemeralResultData{Schema: testSchema, Raw: ours.Raw}
			for _, to := range []tfmodel.Setter{&ours, &res, &eph} {
				if diags := tfmodel.Set(ctx, to, tc.model); diags.HasError() {
					t.Fatalf("%T: %v", to, diags)
				}
			}
			for what, raw := range map[string]tftypes.Value{"state": ours.Raw, "resource": res.Raw, "ephemeral result": eph.Raw} {
				if !raw.Equal(theirs.Raw) {
					t.Errorf("Set wrote %s to the %s, the framework's Set %s", raw, what, theirs.Raw)
				}
			}
			got, want := tc.newModel(), tc.newModel()
			if diags := tfmodel.Get(ctx, ours, got); diags.HasError() {
				t.Fatal(diags)
			}
			if diags := theirs.Get(ctx, want); diags.HasError() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Get (-framework +ours):\n%s", diff)
			}
		})
	}
}

// TestGetAttributes checks that a model of some of the attributes reads
// each by its tag, as one GetAttribute each would.
func TestGetAttributes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyState(ctx)
	if diags := st.Set(ctx, &valuesModel{Name: types.StringValue("n"), Count: types.Int64Value(3), Tags: types.ListNull(types.StringType)}); diags.HasError() {
		t.Fatal(diags)
	}
	var some struct {
		Count types.Int64  `tfsdk:"count"`
		Name  types.String `tfsdk:"name"`
	}
	if diags := tfmodel.GetAttributes(ctx, st, &some); diags.HasError() {
		t.Fatal(diags)
	}
	if some.Name.ValueString() != "n" || some.Count.ValueInt64() != 3 {
		t.Errorf("GetAttributes read name %s and count %s, want \"n\" and 3", some.Name, some.Count)
	}
	var wrong struct {
		Name types.Int64 `tfsdk:"name"`
	}
	if diags := tfmodel.GetAttributes(ctx, st, &wrong); !diags.HasError() {
		t.Error("GetAttributes read a string attribute into a whole number")
	}
}
