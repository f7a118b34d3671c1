package shape

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"time"

	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// The scalar kinds: string, JSON policy, time, bool, whole number and a
// set of strings.

// leaf is what the scalar kinds share: no members, compared exactly, a
// pending value read as JSON.
type leaf struct{}

func (leaf) subset(_ *field, c, s tftypes.Value) bool { return c.Equal(s) }
func (leaf) fromText(text string) (any, error)        { return decodeJSON([]byte(text)) }
func (leaf) member(*field, string) (*field, bool)     { return nil, false }
func (leaf) shown(_ *field, v tftypes.Value) tftypes.Value {
	return v
}

func (leaf) keepEquivalent(_ *field, planned, _, _ tftypes.Value) tftypes.Value {
	return planned
}

func (leaf) below(f *field, cur tftypes.Value, _ []string, _ string) (tftypes.Value, error) {
	return cur, fmt.Errorf("%s has no fields", f.wire)
}

// unexpected is the error of a wire value of the wrong JSON type.
func unexpected(f *field, w any) (tftypes.Value, error) {
	return tftypes.Value{}, fmt.Errorf("%s: unexpected %T in the answer", f.wire, w)
}

type stringKind struct{ leaf }

func (stringKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.StringAttribute{Optional: optional, Computed: true, Sensitive: f.sensitive, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.String](f),
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func (stringKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.StringAttribute{Computed: true, Sensitive: f.sensitive, MarkdownDescription: f.doc}
}

func (stringKind) fromWire(f *field, w any, _ tftypes.Value, v view) (tftypes.Value, error) {
	s, ok := w.(string)
	if !ok {
		return unexpected(f, w)
	}
	return tftypes.NewValue(f.typ[v], s), nil
}

func (stringKind) toWire(_ *field, val tftypes.Value) (any, error) {
	var s string
	err := val.As(&s)
	return s, err
}

func (stringKind) fromText(text string) (any, error) { return text, nil }

// policyKind is a JSON document in a string, compared by meaning
// (customtypes.SameJSON, the provider's one judge of "the same JSON").
type policyKind struct{ stringKind }

func (policyKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.StringAttribute{CustomType: customtypes.PolicyType{}, Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.String](f),
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func (policyKind) subset(_ *field, c, s tftypes.Value) bool {
	return customtypes.SameJSON(tfvalue.KnownString(c), tfvalue.KnownString(s))
}

func (k policyKind) keepEquivalent(f *field, planned, config, state tftypes.Value) tftypes.Value {
	if k.subset(f, config, state) {
		return state
	}
	return planned
}

// timeKind is epoch seconds on the wire and an RFC 3339 string in
// Terraform: any offset or Z, and the same instant in another offset is no
// change (the service answers in UTC).
type timeKind struct{ stringKind }

func (timeKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.StringAttribute{CustomType: customtypes.TimeType{}, Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.String](f),
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func (timeKind) fromWire(f *field, w any, _ tftypes.Value, v view) (tftypes.Value, error) {
	n, ok := w.(json.Number)
	if !ok {
		return unexpected(f, w)
	}
	secs, err := n.Float64()
	if err != nil {
		return unexpected(f, w)
	}
	return tftypes.NewValue(f.typ[v], searchclient.EpochSeconds(secs).Text()), nil
}

func (timeKind) toWire(f *field, val tftypes.Value) (any, error) {
	var s string
	if err := val.As(&s); err != nil {
		return nil, err
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.wire, err)
	}
	return searchclient.Epoch(t), nil
}

func (timeKind) fromText(text string) (any, error) {
	if t, err := time.Parse(time.RFC3339, text); err == nil {
		return json.Number(strconv.FormatInt(t.Unix(), 10)), nil
	}
	return decodeJSON([]byte(text))
}

// subset compares two RFC 3339 times as instants
// ("2030-01-01T02:00:00+02:00" and "2030-01-01T00:00:00Z" are the same);
// text that does not parse is compared as text, a null or unknown value
// as a value.
func (timeKind) subset(_ *field, c, s tftypes.Value) bool {
	if !known(c) || !known(s) {
		return c.Equal(s)
	}
	return customtypes.SameInstant(tfvalue.KnownString(c), tfvalue.KnownString(s))
}

// known reports a value that is neither null nor unknown.
func known(v tftypes.Value) bool {
	_, ok := tfvalue.KnownValue(v)
	return ok
}

func (k timeKind) keepEquivalent(f *field, planned, config, state tftypes.Value) tftypes.Value {
	if k.subset(f, config, state) {
		return state
	}
	return planned
}

type boolKind struct{ leaf }

func (boolKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.BoolAttribute{Optional: optional, Computed: true, MarkdownDescription: f.doc,
		PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
}

func (boolKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.BoolAttribute{Computed: true, MarkdownDescription: f.doc}
}

func (boolKind) fromWire(f *field, w any, _ tftypes.Value, v view) (tftypes.Value, error) {
	b, ok := w.(bool)
	if !ok {
		return unexpected(f, w)
	}
	return tftypes.NewValue(f.typ[v], b), nil
}

func (boolKind) toWire(_ *field, val tftypes.Value) (any, error) {
	var b bool
	err := val.As(&b)
	return b, err
}

// int64Kind is a whole number, read exactly.
type int64Kind struct{ leaf }

func (int64Kind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.Int64Attribute{CustomType: customtypes.Int64Type{}, Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.Int64](f),
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
}

func (int64Kind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.Int64Attribute{Computed: true, MarkdownDescription: f.doc}
}

func (int64Kind) fromWire(f *field, w any, _ tftypes.Value, v view) (tftypes.Value, error) {
	n, ok := w.(json.Number)
	if !ok {
		return unexpected(f, w)
	}
	bf, _, err := big.ParseFloat(n.String(), 10, 512, big.ToNearestEven)
	if err != nil {
		return unexpected(f, w)
	}
	return tftypes.NewValue(f.typ[v], bf), nil
}

func (int64Kind) toWire(f *field, val tftypes.Value) (any, error) {
	var n big.Float
	if err := val.As(&n); err != nil {
		return nil, err
	}
	i, acc := n.Int64()
	if acc != big.Exact {
		return nil, fmt.Errorf("%s: %s is not a whole number", f.wire, n.String())
	}
	return i, nil
}

// stringSetKind is an array of strings whose order does not matter: a set
// in the resource, a list in the service's order in an answer.
type stringSetKind struct{ leaf }

func (stringSetKind) resourceAttribute(f *field, optional bool) schema.Attribute {
	return schema.SetAttribute{ElementType: types.StringType, Optional: optional, Computed: true, MarkdownDescription: f.doc,
		Validators:    validatorsAs[validator.Set](f),
		PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()}}
}

func (stringSetKind) dataSourceAttribute(f *field) dsschema.Attribute {
	return dsschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: f.doc}
}

func (stringSetKind) fromWire(f *field, w any, _ tftypes.Value, v view) (tftypes.Value, error) {
	list, ok := w.([]any)
	if !ok {
		return unexpected(f, w)
	}
	elems := make([]tftypes.Value, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return unexpected(f, w)
		}
		elems = append(elems, tftypes.NewValue(tftypes.String, s))
	}
	return tftypes.NewValue(f.typ[v], elems), nil
}

func (stringSetKind) toWire(_ *field, val tftypes.Value) (any, error) {
	var elems []tftypes.Value
	if err := val.As(&elems); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		var s string
		if err := e.As(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}
