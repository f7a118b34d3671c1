package search

import (
	"reflect"
	"sort"
	"strings"
)

// Configuration is kept as plain JSON values (map[string]any, []any,
// string, float64, bool) in the request's shape, so that merging a request
// into it and diffing two versions work the same for every section.

// propChange is one leaf property a request changes.
type propChange struct {
	path     []string
	old, new any
	// writeOnly marks a secret-bearing property the service never returns
	// (the master user): always a change, values never shown.
	writeOnly bool
}

func (p propChange) name() string { return strings.Join(p.path, ".") }

// merge returns base with patch applied: objects merge key by key (maps such
// as AdvancedOptions too), anything else replaces. base is not modified.
func merge(base, patch any) any {
	pm, ok := patch.(map[string]any)
	bm, ok2 := base.(map[string]any)
	if !ok || !ok2 {
		return clone(patch)
	}
	out := clone(bm).(map[string]any) //nolint:forcetypeassert // clone keeps the type
	for k, v := range pm {
		if v == nil {
			continue
		}
		out[k] = merge(bm[k], v)
	}
	return out
}

// diff lists the leaves that differ between a and b, sorted by path. An
// object on one side only is compared with an empty one, so each of its
// leaves is a property of its own (arrays are leaves: they replace).
func diff(path []string, a, b any, out *[]propChange) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && b == nil {
		bm, bok = map[string]any{}, true
	}
	if bok && a == nil {
		am, aok = map[string]any{}, true
	}
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			diff(append(append([]string{}, path...), k), am[k], bm[k], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, propChange{path: path, old: a, new: b})
	}
}

// clone deep-copies a JSON value.
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = clone(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = clone(x)
		}
		return s
	}
	return v
}

// lookup walks a config by keys; nil when any step is missing.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func lookupBool(v any, keys ...string) bool {
	b, _ := lookup(v, keys...).(bool)
	return b
}

func lookupNumber(v any, keys ...string) (float64, bool) {
	f, ok := lookup(v, keys...).(float64)
	return f, ok
}

func lookupString(v any, keys ...string) string {
	s, _ := lookup(v, keys...).(string)
	return s
}
