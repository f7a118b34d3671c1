package customtypes

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
)

// SameJSON reports whether a and b are the same JSON value by meaning: key
// order and whitespace do not count, and numbers are compared as numbers
// (1, 1.0 and 1e0 are the same; no precision is lost to float64). Text
// that is not one JSON value is the same only as the same text. This is
// the provider's one definition of "the same JSON": the policy type's
// semantic equality and the plan's comparison of documents both use it.
func SameJSON(a, b string) bool {
	x, errA := decodeOne(a)
	y, errB := decodeOne(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return sameValue(x, y)
}

// decodeOne decodes s, which must hold exactly one JSON value, keeping
// numbers as written.
func decodeOne(s string) (any, error) {
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

func sameValue(x, y any) bool {
	switch a := x.(type) {
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !sameValue(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := y.(json.Number)
		return ok && sameNumber(a, b)
	default: // string, bool, nil
		return x == y
	}
}

// sameNumber compares two JSON numbers by value; 512 bits hold every
// number a document plausibly spells exactly. A number too large to parse
// is compared as text.
func sameNumber(a, b json.Number) bool {
	x, _, errX := big.ParseFloat(a.String(), 10, 512, big.ToNearestEven)
	y, _, errY := big.ParseFloat(b.String(), 10, 512, big.ToNearestEven)
	if errX != nil || errY != nil {
		return a == b
	}
	return x.Cmp(y) == 0
}
