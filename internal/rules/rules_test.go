package rules

import (
	"strings"
	"testing"
)

func TestCheckAdvancedOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key, value string
		ok         bool
	}{
		{AllowExplicitIndex, "true", true},
		{AllowExplicitIndex, "false", true},
		{AllowExplicitIndex, "yes", false},
		{AllowExplicitIndex, "TRUE", false},
		{FielddataCacheSize, "unbounded", true}, // the spec's default
		{FielddataCacheSize, "40", true},
		{FielddataCacheSize, "40%", true},
		{FielddataCacheSize, "100", true},
		{FielddataCacheSize, "0", false},
		{FielddataCacheSize, "101", false},
		{FielddataCacheSize, "040", false},
		{MaxClauseCount, "1024", true},
		{MaxClauseCount, "1", true},
		{MaxClauseCount, "2147483647", true},
		{MaxClauseCount, "2147483648", false}, // past a 32-bit int, as the engine holds it
		{MaxClauseCount, "9999999999", false},
		{MaxClauseCount, "0", false},
		{MaxClauseCount, "01", false},
		{MaxClauseCount, "-5", false},
		{MaxClauseCount, "many", false},
		{"other.key", "1", false},
	} {
		err := CheckAdvancedOption(tc.key, tc.value)
		if (err == nil) != tc.ok {
			t.Errorf("%s = %q: error %v, want ok %v", tc.key, tc.value, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s = %q: %q does not name the key", tc.key, tc.value, err)
		}
	}
}

// Every default of the spec is a valid value of its key.
func TestAdvancedOptionDefaultsAreValid(t *testing.T) {
	t.Parallel()
	d := AdvancedOptionDefaults()
	if len(d) != len(AdvancedOptionKeys) {
		t.Fatalf("defaults %v do not cover every key %v", d, AdvancedOptionKeys)
	}
	for k, v := range d {
		if err := CheckAdvancedOption(k, v); err != nil {
			t.Errorf("default %s = %q refused: %v", k, v, err)
		}
	}
}

func TestIntRange(t *testing.T) {
	t.Parallel()
	r := IntRange{1, 1000}
	if r.Contains(1001) || !r.Contains(1000) || r.Contains(0) {
		t.Errorf("%v contains 1001 or 0, or not 1000", r)
	}
	if got := (IntRange{2, 3}).String(); got != "between 2 and 3" {
		t.Errorf("String() = %q", got)
	}
}

func TestAccessPoliciesLengthCountsCharacters(t *testing.T) {
	t.Parallel()
	if n := AccessPoliciesLength("é€😀"); n != 3 {
		t.Errorf("length %d, want 3 characters", n)
	}
}

func TestDedicatedMasterCountAllowed(t *testing.T) {
	t.Parallel()
	for n := int64(0); n <= 6; n++ {
		if got, want := DedicatedMasterCountAllowed(true, n), n == 3 || n == 5; got != want {
			t.Errorf("enabled, %d: allowed %v, want %v", n, got, want)
		}
		if !DedicatedMasterCountAllowed(false, n) {
			t.Errorf("disabled, %d: refused", n)
		}
	}
	if got := Alternatives(DedicatedMasterCountsEnabled); got != "3 or 5" {
		t.Errorf("Alternatives = %q", got)
	}
}
