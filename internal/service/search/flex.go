package search

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// Conversions between framework values and the client's pointers: a null
// or unknown value is a nil pointer (not sent); a nil pointer is null.

func strPtr(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

func int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	i := v.ValueInt64()
	return &i
}

func epochPtr(v types.String) *searchclient.EpochSeconds {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v.ValueString())
	if err != nil {
		return nil // validators refuse it before this point
	}
	e := searchclient.Epoch(t)
	return &e
}

func stringSlice(ctx context.Context, v types.Set) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	var out []string
	_ = v.ElementsAs(ctx, &out, false)
	return out
}

func strVal(p *string) types.String {
	if p == nil {
		return types.StringNull()
	}
	return types.StringValue(*p)
}

func boolVal(p *bool) types.Bool {
	if p == nil {
		return types.BoolNull()
	}
	return types.BoolValue(*p)
}

func int64Val(p *int64) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*p)
}

func epochVal(p *searchclient.EpochSeconds) types.String {
	if p == nil {
		return types.StringNull()
	}
	return types.StringValue(p.Time().Truncate(time.Second).Format(time.RFC3339))
}

func stringSet(s []string) types.Set {
	if s == nil {
		return types.SetNull(types.StringType)
	}
	elems := make([]attr.Value, len(s))
	for i, v := range s {
		elems[i] = types.StringValue(v)
	}
	return types.SetValueMust(types.StringType, elems)
}

func stringMap(m map[string]string) types.Map {
	if m == nil {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}
