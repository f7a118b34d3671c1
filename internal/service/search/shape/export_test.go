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
	p := path.Root(name)
	var diags diag.Diagnostics
	fits := false
	switch v := v.(type) {
	case types.Int64:
		diags, fits = validate(ctx, vs, validator.Int64.ValidateInt64, validator.Int64Request{Path: p, ConfigValue: v})
	case types.String:
		diags, fits = validate(ctx, vs, validator.String.ValidateString, validator.StringRequest{Path: p, ConfigValue: v})
	case types.Map:
		diags, fits = validate(ctx, vs, validator.Map.ValidateMap, validator.MapRequest{Path: p, ConfigValue: v})
	case types.Set:
		diags, fits = validate(ctx, vs, validator.Set.ValidateSet, validator.SetRequest{Path: p, ConfigValue: v})
	}
	if !fits {
		return nil, fmt.Errorf("none of the %d validators of %v takes a %T", len(vs), wirePath, v)
	}
	return diags, nil
}

// response is what every kind of validator answers: its diagnostics.
type response interface {
	~struct{ Diagnostics diag.Diagnostics }
}

// validate runs the validators of vs that are an X on req; false when
// none is.
func validate[X, Req any, Resp response](ctx context.Context, vs []validator.Describer, run func(X, context.Context, Req, *Resp), req Req) (diag.Diagnostics, bool) {
	var diags diag.Diagnostics
	fits := false
	for _, x := range vs {
		if x, ok := x.(X); ok {
			var resp Resp
			run(x, ctx, req, &resp)
			diags.Append(struct{ Diagnostics diag.Diagnostics }(resp).Diagnostics...)
			fits = true
		}
	}
	return diags, fits
}
