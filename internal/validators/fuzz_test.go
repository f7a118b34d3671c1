package validators

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// FuzzAdvancedOptionValue: the validator refuses exactly the values of
// the spec's three keys that are not of their form, and leaves other keys
// to the key validator.
func FuzzAdvancedOptionValue(f *testing.F) {
	for _, s := range [][2]string{
		{"rest.action.multi.allow_explicit_index", "true"}, {"rest.action.multi.allow_explicit_index", "yes"},
		{"indices.fielddata.cache.size", "40%"}, {"indices.fielddata.cache.size", "unbounded"}, {"indices.fielddata.cache.size", "0"}, {"indices.fielddata.cache.size", "101"},
		{"indices.query.bool.max_clause_count", "1024"}, {"indices.query.bool.max_clause_count", "01"}, {"indices.query.bool.max_clause_count", "2147483648"},
		{"other.key", "anything"},
	} {
		f.Add(s[0], s[1])
	}
	want := map[string]func(string) bool{
		"rest.action.multi.allow_explicit_index": regexp.MustCompile(`^(true|false)$`).MatchString,
		"indices.fielddata.cache.size":           regexp.MustCompile(`^(unbounded|(100|[1-9][0-9]?)%?)$`).MatchString,
		"indices.query.bool.max_clause_count": func(v string) bool {
			n, err := strconv.ParseInt(v, 10, 32)
			return regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(v) && err == nil && n > 0
		},
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		m := types.MapValueMust(types.StringType, map[string]attr.Value{key: types.StringValue(value)})
		resp := &validator.MapResponse{}
		AdvancedOptionValues().ValidateMap(context.Background(), validator.MapRequest{Path: path.Root("advanced_options"), ConfigValue: m}, resp)
		re, known := want[key]
		refused := resp.Diagnostics.HasError()
		switch {
		case !known && refused:
			t.Fatalf("refused the value of unknown key %q", key)
		case known && refused == re(value):
			t.Fatalf("%s = %q: refused %v", key, value, refused)
		}
	})
}

// FuzzSnapshotPauseWindow: a suspension is refused exactly when both times
// are RFC 3339 and the end is not after the start or more than 3 days
// after it.
func FuzzSnapshotPauseWindow(f *testing.F) {
	f.Add("2026-01-01T00:00:00Z", "2026-01-04T00:00:00Z")
	f.Add("2026-01-01T00:00:00Z", "2026-01-04T00:00:01Z")
	f.Add("2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z")
	f.Add("2026-01-01T00:00:00+14:00", "2026-01-03T23:00:00-12:00")
	f.Add("not a time", "2026-01-01T00:00:00Z")
	attrTypes := map[string]attr.Type{"start_time": types.StringType, "end_time": types.StringType}
	f.Fuzz(func(t *testing.T, start, end string) {
		obj := types.ObjectValueMust(attrTypes, map[string]attr.Value{"start_time": types.StringValue(start), "end_time": types.StringValue(end)})
		resp := &validator.ObjectResponse{}
		SnapshotPauseWindow().ValidateObject(context.Background(), validator.ObjectRequest{Path: path.Root("automated_snapshot_pause_options"), ConfigValue: obj}, resp)
		s, errS := time.Parse(time.RFC3339, start)
		e, errE := time.Parse(time.RFC3339, end)
		wantRefused := errS == nil && errE == nil && (!e.After(s) || e.Sub(s) > rules.MaxSnapshotPause)
		if got := resp.Diagnostics.HasError(); got != wantRefused {
			t.Fatalf("start %q end %q: refused %v, want %v", start, end, got, wantRefused)
		}
	})
}
