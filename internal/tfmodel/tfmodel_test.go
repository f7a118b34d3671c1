package tfmodel_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
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

// TestGetMismatch: a model whose fields are not the schema's attributes
// is refused, as the framework's Get refuses it.
func TestGetMismatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyState(ctx)
	if diags := tfmodel.Set(ctx, &st, &valuesModel{Name: types.StringValue("n"), Count: types.Int64Null(), Tags: types.ListNull(types.StringType)}); diags.HasError() {
		t.Fatal(diags)
	}
	var other struct {
		Other types.String `tfsdk:"other"`
	}
	if diags := tfmodel.Get(ctx, st, &other); !diags.HasError() {
		t.Error("tfmodel.Get read a state into a model of other attributes")
	}
}

// TestSetChanged checks that SetChanged writes what the planning changed,
// and only that: the plan's other attributes keep their values.
func TestSetChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyState(ctx)
	tags := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a")})
	before := valuesModel{Name: types.StringValue("n"), Count: types.Int64Value(3), Tags: tags}
	if diags := tfmodel.Set(ctx, &st, &before); diags.HasError() {
		t.Fatal(diags)
	}
	plan := tfsdk.Plan(st)
	same := before
	if diags := tfmodel.SetChanged(ctx, &plan, &before, &same); diags.HasError() || !plan.Raw.Equal(st.Raw) {
		t.Fatalf("nothing changed, yet the plan became %s (%v)", plan.Raw, diags)
	}
	// An attribute the planning did not change keeps the plan's value,
	// even where the plan differs from the models.
	planned := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("b")})
	if diags := plan.SetAttribute(ctx, path.Root("tags"), planned); diags.HasError() {
		t.Fatal(diags)
	}
	after := before
	after.Name, after.Count = types.StringValue("m"), types.Int64Unknown()
	if diags := tfmodel.SetChanged(ctx, &plan, &before, &after); diags.HasError() {
		t.Fatal(diags)
	}
	var got valuesModel
	if diags := plan.Get(ctx, &got); diags.HasError() {
		t.Fatal(diags)
	}
	want := after
	want.Tags = planned
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plan after SetChanged (-want +got):\n%s", diff)
	}
}

// TestValidateAsFramework checks that Get and Set refuse a value its
// custom type finds invalid (a whole number configured as 2.5), with the
// diagnostics of the framework's Get and Set.
func TestValidateAsFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wholeSchema := schema.Schema{Attributes: map[string]schema.Attribute{
		"days": schema.Int64Attribute{CustomType: customtypes.Int64Type{}, Optional: true},
	}}
	type wholeModel struct {
		Days customtypes.Int64 `tfsdk:"days"`
	}
	objType := wholeSchema.Type().TerraformType(ctx)
	half := tftypes.NewValue(tftypes.Number, big.NewFloat(2.5))
	bad := tfsdk.State{Schema: wholeSchema, Raw: tftypes.NewValue(objType, map[string]tftypes.Value{"days": half})}
	var ours, theirs wholeModel
	if got, want := tfmodel.Get(ctx, bad, &ours), bad.Get(ctx, &theirs); !want.HasError() || !got.Equal(want) {
		t.Errorf("tfmodel.Get said %v, Get %v", got, want)
	}
	invalid, err := customtypes.Int64Type{}.ValueFromTerraform(ctx, half)
	if err != nil {
		t.Fatal(err)
	}
	m := wholeModel{Days: invalid.(customtypes.Int64)}
	empty := tftypes.NewValue(objType, nil)
	a, b := tfsdk.State{Schema: wholeSchema, Raw: empty}, tfsdk.State{Schema: wholeSchema, Raw: empty}
	if got, want := tfmodel.Set(ctx, &a, &m), b.Set(ctx, &m); !want.HasError() || !got.Equal(want) {
		t.Errorf("tfmodel.Set said %v, Set %v", got, want)
	}
}
