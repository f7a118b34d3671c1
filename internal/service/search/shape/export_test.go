package shape

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// ValidateField runs the provider's validators of the field at the wire
// path (ClusterConfig, InstanceCount) on v, for tests that compare them
// with the emulator's checks. It is an error when there is no such field
// or when the field has validators and none takes a value of v's type: a
// probe that checks nothing must not pass. A field without validators
// takes any value of its type.
func ValidateField(ctx context.Context, v attr.Value, wirePath ...string) (diag.Diagnostics, error) {
	name, vs, ok := lookup(wirePath...)
	if !ok {
		return nil, fmt.Errorf("no field at the wire path %v", wirePath)
	}
	if len(vs) == 0 {
		return nil, nil
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
	case types.List:
		diags, fits = validate(ctx, vs, validator.List.ValidateList, validator.ListRequest{Path: p, ConfigValue: v})
	case types.Object:
		diags, fits = validate(ctx, vs, validator.Object.ValidateObject, validator.ObjectRequest{Path: p, ConfigValue: v})
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

// Leaf is a member of the section table that a request sends, for tests
// that derive values from its rules.
type Leaf struct {
	// Path is the wire path (ClusterConfig, NodeOptions, NodeConfig, Count).
	Path []string
	// RuleKey is the path as rules.DomainConfig names it
	// (ClusterConfig.NodeOptions[].NodeConfig.Count).
	RuleKey string
	// Kind is string, policy, time, bool, int, set, list, map, objectMap
	// or object.
	Kind string
	// Rule is the member's rule; nil when it has none.
	Rule *rules.Value
	// OneOf are an enumeration's values.
	OneOf []string
	// Doc is the attribute's description.
	Doc string
}

// Leaves are every member a request may send, objects included, in the
// table's order.
func Leaves() []Leaf {
	var out []Leaf
	var walk func(fs []field, path []string, key string)
	walk = func(fs []field, path []string, key string) {
		for i := range fs {
			f := &fs[i]
			if f.role == returned {
				continue
			}
			p := append(slices.Clone(path), f.wire)
			k := key + f.wire
			out = append(out, Leaf{Path: p, RuleKey: k, Kind: kindName(f.kind), Rule: f.rule, OneOf: f.oneOf, Doc: f.doc})
			switch f.kind.(type) {
			case objectListKind:
				walk(f.fields, p, k+"[].")
			case objectMapKind:
				walk(f.fields, p, k+".*.")
			default:
				walk(f.fields, p, k+".")
			}
		}
	}
	walk(sections(), nil, "")
	return out
}

func kindName(k codec) string {
	switch k.(type) {
	case policyKind:
		return "policy"
	case timeKind:
		return "time"
	case stringKind:
		return "string"
	case boolKind:
		return "bool"
	case int64Kind:
		return "int"
	case stringSetKind:
		return "set"
	case stringMapKind:
		return "map"
	case objectListKind:
		return "list"
	case objectMapKind:
		return "objectMap"
	}
	return "object"
}

// NullElements is a list of n null elements of the list at the wire path,
// to probe its length.
func NullElements(n int, wirePath ...string) (types.List, error) {
	f, ok := sectionByWire(wirePath[0])
	for _, w := range wirePath[1:] {
		if !ok {
			break
		}
		f, ok = f.child(w)
	}
	if !ok || f.elem == nil {
		return types.List{}, fmt.Errorf("no list at %v", wirePath)
	}
	lt, ok := f.kind.resourceAttribute(f, true).GetType().(types.ListType)
	if !ok {
		return types.List{}, fmt.Errorf("%v is not a list", wirePath)
	}
	ot, _ := lt.ElemType.(types.ObjectType)
	elems := make([]attr.Value, n)
	for i := range elems {
		elems[i] = types.ObjectNull(ot.AttrTypes)
	}
	return types.ListValueMust(lt.ElemType, elems), nil
}

// ObjectOf is the object at the wire path with the attributes of values
// (a Go string or bool each, by Terraform name) and the others null, to
// probe an object's own validators.
func ObjectOf(ctx context.Context, values map[string]any, wirePath ...string) (types.Object, error) {
	f, ok := sectionByWire(wirePath[0])
	for _, w := range wirePath[1:] {
		if !ok {
			break
		}
		f, ok = f.child(w)
	}
	if !ok {
		return types.Object{}, fmt.Errorf("no field at %v", wirePath)
	}
	ot, ok := f.kind.resourceAttribute(f, true).GetType().(types.ObjectType)
	if !ok {
		return types.Object{}, fmt.Errorf("%v is not an object", wirePath)
	}
	attrs := map[string]attr.Value{}
	for name, t := range ot.AttrTypes {
		var raw tftypes.Value
		switch v := values[name].(type) {
		case string:
			raw = tftypes.NewValue(tftypes.String, v)
		case bool:
			raw = tftypes.NewValue(tftypes.Bool, v)
		case nil:
			raw = tftypes.NewValue(t.TerraformType(ctx), nil)
		default:
			return types.Object{}, fmt.Errorf("%s: a %T", name, v)
		}
		av, err := t.ValueFromTerraform(ctx, raw)
		if err != nil {
			return types.Object{}, err
		}
		attrs[name] = av
	}
	obj, diags := types.ObjectValue(ot.AttrTypes, attrs)
	if diags.HasError() {
		return types.Object{}, fmt.Errorf("%v", diags)
	}
	return obj, nil
}
