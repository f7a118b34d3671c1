// Package shape is the one place the shape of a search domain's
// configuration is written down (the spec's section table, sections.go):
// wire names, Terraform names, value kinds, which fields are sent and which
// only returned, descriptions and limits. Everything else is derived from
// it: the schema attributes, the Terraform types, reading an answer,
// comparing a configuration with the state, and building a request.
//
// Each value kind is one codec (codec.go); a new kind is one new codec.
// The package knows nothing of the Terraform resource that uses it: it
// must not import internal/service/search (the shape rule of .golangci.yml).
package shape

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// role says which way a field travels.
type role uint8

const (
	sent     role = iota // in requests and answers
	returned             // in answers only: computed
	sendOnly             // in requests only: the service never returns it, the state keeps what was configured
)

// view is which fields a schema or value holds: the resource holds every
// field (what is only sent is kept as configured); an answer, such as a
// dry run's DryRunConfig, holds what the service returns.
type view uint8

const (
	resourceView view = iota
	answerView
)

// field is one member of a section, or a section itself.
type field struct {
	wire, name string
	kind       codec
	role       role
	doc        string
	sensitive  bool
	fields     []field // of an object, or of the elements of a list or map
	// elem is the field of a list's or a map's elements.
	elem *field
	// defaults are the keys of a string map the service has at these
	// values when its answer leaves them out (the spec's AdvancedOptions
	// defaults), so configuring a default is no change.
	defaults map[string]string
	// validators check the configured value; each is of the kind's
	// validator type (validator.String for a string, ...).
	validators []validator.Describer
	// rule is the member's value rule in rules.DomainConfig, under ruleKey
	// (ruled, rules.go); nil for a member with none.
	rule    *rules.Value
	ruleKey string
	// oneOf are the values of an enumeration (enum).
	oneOf []string
	// typ is the Terraform type in each view, derived once from the
	// field's schema attribute (finish).
	typ [2]tftypes.Type
}

func (f *field) in(v view) bool { return v == resourceView || f.role != sendOnly }

// finish derives the Terraform types of f and of everything below it from
// their schema attributes. It runs once, when the tables are built, so a
// refresh builds no type.
func (f *field) finish() {
	if f.typ[resourceView] != nil {
		return
	}
	for i := range f.fields {
		f.fields[i].finish()
	}
	if f.elem != nil {
		f.elem.finish()
	}
	ctx := context.Background()
	f.typ[resourceView] = f.kind.resourceAttribute(f, true).GetType().TerraformType(ctx)
	if f.in(answerView) {
		f.typ[answerView] = f.kind.dataSourceAttribute(f).GetType().TerraformType(ctx)
	}
}

// child is the member of an object named by its wire name.
func (f *field) child(wire string) (*field, bool) {
	for i := range f.fields {
		if f.fields[i].wire == wire {
			return &f.fields[i], true
		}
	}
	return nil, false
}

func hasSensitive(fields []field) bool {
	for _, f := range fields {
		if f.sensitive || hasSensitive(f.fields) {
			return true
		}
	}
	return false
}

// describers widens typed validators into the field's one slot.
func describers[T validator.Describer](v []T) []validator.Describer {
	if len(v) == 0 {
		return nil
	}
	out := make([]validator.Describer, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}

// validatorsAs are f's validators as the validator type T of its kind. A
// validator of another type is a mistake in the table, found when the
// tables are built.
func validatorsAs[T any](f *field) []T {
	if len(f.validators) == 0 {
		return nil
	}
	out := make([]T, 0, len(f.validators))
	for _, v := range f.validators {
		t, ok := v.(T)
		if !ok {
			panic(fmt.Sprintf("shape: %s: validator %T does not fit its kind", f.wire, v))
		}
		out = append(out, t)
	}
	return out
}

// snake is the Terraform name of a wire name: ClusterConfig is
// cluster_config, MultiAZWithStandbyEnabled multi_az_with_standby_enabled,
// DomainEndpointV2HostedZoneId domain_endpoint_v2_hosted_zone_id.
func snake(wire string) string {
	r := []rune(wire)
	var b strings.Builder
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) {
			prev := r[i-1]
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

func backquoted(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}
