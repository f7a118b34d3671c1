package shape

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// An answer that leaves AdvancedOptions keys out reads as the spec's
// defaults, so a configured default is no change: the domain already
// behaves as configured.
func TestAdvancedOptionsDefaults(t *testing.T) {
	t.Parallel()
	f, _ := sectionByWire("AdvancedOptions")
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	for _, tc := range []struct {
		name string
		wire any
		want map[string]tftypes.Value
	}{
		{"absent", nil, map[string]tftypes.Value{
			"rest.action.multi.allow_explicit_index": str("true"), "indices.fielddata.cache.size": str("unbounded"), "indices.query.bool.max_clause_count": str("1024"),
		}},
		{"one set", map[string]any{"indices.query.bool.max_clause_count": "2048"}, map[string]tftypes.Value{
			"rest.action.multi.allow_explicit_index": str("true"), "indices.fielddata.cache.size": str("unbounded"), "indices.query.bool.max_clause_count": str("2048"),
		}},
	} {
		got, err := f.fromWire(tc.wire, tftypes.Value{}, resourceView)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := tftypes.NewValue(f.typ[resourceView], tc.want)
		if !got.Equal(want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
		if eq, _ := f.subset(tftypes.NewValue(f.typ[resourceView], map[string]tftypes.Value{"indices.query.bool.max_clause_count": str("1024")}), got); eq != (tc.name == "absent") {
			t.Errorf("%s: max_clause_count = \"1024\" compared equal %v", tc.name, eq)
		}
	}
}
