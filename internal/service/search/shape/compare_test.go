package shape

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// A time in a list element (Auto-Tune's start_at) configured with an offset
// is the service's UTC answer for the same instant: no change, and the
// plan keeps the state's text; another instant is a change and keeps the
// configuration's. Compared as text, every plan would show a change.
func TestTimesCompareAsInstants(t *testing.T) {
	t.Parallel()
	f, _ := sectionByWire("AutoTuneOptions")
	raw, err := decodeJSON([]byte(`{"DesiredState":"ENABLED","MaintenanceSchedules":[{"StartAt":1893456000,"CronExpressionForRecurrence":"cron(0 0 * * ? *)","Duration":{"Unit":"HOURS","Value":2}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	state, err := f.fromWire(raw, tftypes.Value{}, resourceView)
	if err != nil {
		t.Fatal(err)
	}
	// The configuration: the state with start_at spelled as text.
	startAt := func(text string) tftypes.Value {
		v, err := tftypes.Transform(state, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			if tfvalue.KnownString(v) == "2030-01-01T00:00:00Z" {
				return tftypes.NewValue(tftypes.String, text), nil
			}
			return v, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		config string
		same   bool
	}{
		{"2030-01-01T02:00:00+02:00", true},
		{"2029-12-31T19:00:00-05:00", true},
		{"2030-01-01T00:00:00Z", true},
		{"2030-01-01T00:00:00+02:00", false},
	} {
		config := startAt(tc.config)
		if eq, known := f.subset(config, state); eq != tc.same || !known {
			t.Errorf("%s: subset = %v (known %v), want %v", tc.config, eq, known, tc.same)
		}
		want := config
		if tc.same {
			want = state
		}
		if got := f.keepEquivalent(config, config, state); !got.Equal(want) {
			t.Errorf("%s: planned %v, want %v", tc.config, got, want)
		}
	}
}

// Policies compare as SameJSON does: by meaning, numbers exactly (two
// numbers equal as float64 but not as written are a change).
func TestPoliciesCompareAsSameJSON(t *testing.T) {
	t.Parallel()
	f, _ := sectionByWire("AccessPolicies")
	s := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	for _, tc := range []struct {
		config, state string
		same          bool
	}{
		{`{"a":1,"b":[1]}`, `{ "b": [1.0], "a": 1 }`, true},
		{`{"n":12345678901234567890}`, `{"n":12345678901234567891}`, false},
		{``, ``, true},
		{``, `{}`, false},
	} {
		if eq, known := f.subset(s(tc.config), s(tc.state)); eq != tc.same || !known {
			t.Errorf("%q vs %q: subset = %v (known %v), want %v", tc.config, tc.state, eq, known, tc.same)
		}
	}
}
