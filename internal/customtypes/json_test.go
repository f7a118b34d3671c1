package customtypes

import "testing"

func TestSameJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[true,null,"x"]}`, ` { "b" : [ true, null, "x" ], "a" : 1 } `, true},
		{`{"a":1}`, `{"a":1.0}`, true},
		{`{"a":100}`, `{"a":1e2}`, true},
		{`{"a":0.1}`, `{"a":1E-1}`, true},
		{`{"a":-0}`, `{"a":0}`, true},
		// Beyond float64: these differ in the 20th digit.
		{`{"a":12345678901234567890}`, `{"a":12345678901234567891}`, false},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":1}`, `{"a":"1"}`, false},
		{`{"a":1}`, `{"a":1,"b":1}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{}`, `{} {}`, false},
		{``, ``, true},
		{``, `{}`, false},
		{`{nope`, `{nope`, true},
		{`{nope`, `{ nope`, false},
	} {
		if got := SameJSON(tc.a, tc.b); got != tc.want {
			t.Errorf("SameJSON(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := SameJSON(tc.b, tc.a); got != tc.want {
			t.Errorf("SameJSON(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}
