package shape

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ValidateField runs the provider's validators of the field at the wire
// path (ClusterConfig, InstanceCount) on v, for tests that compare them
// with the emulator's checks. It is an error when there is no such field
// or when none of the field's validators takes a value of v's type: a
// probe that checks nothing must not pass.
func ValidateField(ctx context.Context, v attr.Value, wirePath ...string) (diag.Diagnostics, error) {
	name, vs, ok := lookup(wirePath...)
	if !ok {
		return nil, fmt.Errorf("no field at the wire path %v", wirePath)
	}
	var diags diag.Diagnostics
	p := path.Root(name)
	fits := 0
	for _, x := range vs {
		switch v := v.(type) {
		case types.Int64:
			if x, ok := x.(validator.Int64); ok {
				fits++
				var resp validator.Int64Response
				x.ValidateInt64(ctx, validator.Int64Request{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		case types.String:
			if x, ok := x.(validator.String); ok {
				fits++
				var resp validator.StringResponse
				x.ValidateString(ctx, validator.StringRequest{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		case types.Map:
			if x, ok := x.(validator.Map); ok {
				fits++
				var resp validator.MapResponse
				x.ValidateMap(ctx, validator.MapRequest{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		case types.Set:
			if x, ok := x.(validator.Set); ok {
				fits++
				var resp validator.SetResponse
				x.ValidateSet(ctx, validator.SetRequest{Path: p, ConfigValue: v}, &resp)
				diags.Append(resp.Diagnostics...)
			}
		}
	}
	if fits == 0 {
		return nil, fmt.Errorf("none of the %d validators of %v takes a %T", len(vs), wirePath, v)
	}
	return diags, nil
}
