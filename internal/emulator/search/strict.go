package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// Strict decoding of UpdateDomainConfig bodies against the request shape
// (wire_request.go). Every refusal is a ValidationException whose message
// starts with the member's path, e.g. "ClusterConfig.InstanceCount:
// expected a number, not a string". Map keys and array indexes are part of
// the path ("AdvancedOptions.indices.fielddata.cache.size",
// "ClusterConfig.NodeOptions[0].NodeType").

var (
	requestType  = reflect.TypeFor[UpdateDomainConfigRequest]()
	responseType = reflect.TypeFor[DomainStatus]()
	epochType    = reflect.TypeFor[EpochSeconds]()
)

// writeOnlyMembers are the request members responses omit (the spec's
// "Sections in responses"): never stored, never returned, never shown.
var writeOnlyMembers = [][]string{
	{"AdvancedSecurityOptions", "MasterUserOptions"},
	{"AdvancedSecurityOptions", "SAMLOptions", "MasterBackendRole"},
	{"AdvancedSecurityOptions", "SAMLOptions", "MasterUserName"},
}

// decoded is a strictly decoded body.
type decoded struct {
	// value is the body as plain JSON values (numbers as float64), null
	// members dropped.
	value map[string]any
	// writeOnly lists the leaves the body sets under write-only members.
	writeOnly [][]string
}

// stripWriteOnly removes the write-only members from a configuration.
func stripWriteOnly(cfg map[string]any) {
	for _, path := range writeOnlyMembers {
		if parent, ok := lookup(cfg, path[:len(path)-1]...).(map[string]any); ok {
			delete(parent, path[len(path)-1])
		}
	}
}

// decodeStrict parses body and checks it member by member.
func decodeStrict(body []byte) (*decoded, *apiError) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, baseError("The request body is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, baseError("The request body is not valid JSON: data after the top-level object")
	}
	if _, ok := raw.(map[string]any); !ok {
		return nil, validationError("The request body must be a JSON object.")
	}
	if at := duplicateMember(body); at != "" {
		// encoding/json keeps the last of two members of one name, so
		// {"DryRun":true,"DryRun":false} would be applied as a real change.
		return nil, validationError("%s: a member may appear only once in an object", at)
	}
	w := &walker{}
	v, aerr := w.check(nil, raw, requestType, responseType, false)
	if aerr != nil {
		return nil, aerr
	}
	m, _ := v.(map[string]any)
	return &decoded{value: m, writeOnly: w.writeOnly}, nil
}

type walker struct{ writeOnly [][]string }

// check returns v as plain JSON values when it fits req; resp is the same
// member's type in the response shape (nil when it has none), which names
// response-only members; wo is true under a write-only member.
func (w *walker) check(path []string, v any, req, resp reflect.Type, wo bool) (any, *apiError) {
	req, resp = indirect(req), indirect(resp)
	if req.Kind() != reflect.Struct && req.Kind() != reflect.Map && wo {
		w.writeOnly = append(w.writeOnly, slices.Clone(path))
	}
	switch req.Kind() {
	case reflect.Struct:
		return w.checkObject(path, v, req, resp, wo)
	case reflect.Map:
		return w.checkMap(path, v, req, resp, wo)
	case reflect.Slice:
		return w.checkArray(path, v, req, resp)
	case reflect.String:
		return checkKind[string](path, v, req)
	case reflect.Bool:
		return checkKind[bool](path, v, req)
	case reflect.Int64, reflect.Float64:
		return checkNumber(path, v, req)
	}
	panic("search emulator: no JSON rule for " + req.String())
}

// checkObject checks an object against the struct req member by member, in
// key order (so the first refusal is always the same one).
func (w *walker) checkObject(path []string, v any, req, resp reflect.Type, wo bool) (any, *apiError) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, mismatch(path, req, v)
	}
	out := map[string]any{}
	for _, k := range sortedKeys(m) {
		p := append(slices.Clone(path), k)
		f, ok := jsonField(req, k)
		if !ok {
			return nil, notAMember(p, resp)
		}
		if m[k] == nil {
			continue // null is the same as absent
		}
		var rt reflect.Type
		if rf, ok := jsonField(resp, k); ok {
			rt = rf.Type
		}
		isWO := wo || slices.ContainsFunc(writeOnlyMembers, func(m []string) bool { return slices.Equal(m, p) })
		x, aerr := w.check(p, m[k], f.Type, rt, isWO)
		if aerr != nil {
			return nil, aerr
		}
		out[k] = x
	}
	return out, nil
}

// checkMap checks each value of an object against the map req's element
// type, in key order; null values are dropped.
func (w *walker) checkMap(path []string, v any, req, resp reflect.Type, wo bool) (any, *apiError) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, mismatch(path, req, v)
	}
	var rt reflect.Type
	if resp != nil && resp.Kind() == reflect.Map {
		rt = resp.Elem()
	}
	out := map[string]any{}
	for _, k := range sortedKeys(m) {
		if m[k] == nil {
			continue
		}
		x, aerr := w.check(append(slices.Clone(path), k), m[k], req.Elem(), rt, wo)
		if aerr != nil {
			return nil, aerr
		}
		out[k] = x
	}
	return out, nil
}

// checkArray checks each element of an array against the slice req's
// element type; a null element is refused.
func (w *walker) checkArray(path []string, v any, req, resp reflect.Type) (any, *apiError) {
	a, ok := v.([]any)
	if !ok {
		return nil, mismatch(path, req, v)
	}
	var rt reflect.Type
	if resp != nil && resp.Kind() == reflect.Slice {
		rt = resp.Elem()
	}
	out := make([]any, len(a))
	for i, x := range a {
		p := slices.Clone(path)
		p[len(p)-1] += fmt.Sprintf("[%d]", i)
		if x == nil {
			return nil, mismatch(p, req.Elem(), x)
		}
		// An element is part of its array's value: never a leaf of its own.
		y, aerr := w.check(p, x, req.Elem(), rt, false)
		if aerr != nil {
			return nil, aerr
		}
		out[i] = y
	}
	return out, nil
}

// checkKind accepts v when it is a T (a string or a boolean).
func checkKind[T string | bool](path []string, v any, req reflect.Type) (any, *apiError) {
	if _, ok := v.(T); !ok {
		return nil, mismatch(path, req, v)
	}
	return v, nil
}

// checkNumber accepts a number: for an Int64 member a whole one that
// float64 holds exactly, else any a float64 holds.
func checkNumber(path []string, v any, req reflect.Type) (any, *apiError) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, mismatch(path, req, v)
	}
	if req.Kind() == reflect.Int64 {
		return wholeNumber(path, n)
	}
	f, err := n.Float64()
	if err != nil {
		return nil, validationError("%s: %s is out of range", pathName(path), n)
	}
	return f, nil
}

func wholeNumber(path []string, n json.Number) (any, *apiError) {
	i, err := n.Int64()
	if err != nil {
		return nil, validationError("%s: expected a whole number, not %s", pathName(path), n)
	}
	// The value is kept as float64 (plain JSON), which holds whole
	// numbers exactly up to 2^53; beyond, it would round, or fail to
	// decode into the typed view (a 500 instead of a 400).
	if i > 1<<53 || i < -(1<<53) {
		return nil, validationError("%s: %s is out of range", pathName(path), n)
	}
	return float64(i), nil
}

// notAMember explains why a member is refused: the response shape has it,
// it is the response's {Options, Status} wrapper, or it is unknown.
func notAMember(p []string, resp reflect.Type) *apiError {
	name := pathName(p)
	if _, ok := jsonField(resp, p[len(p)-1]); ok {
		return validationError("%s: a response-only member; the service sets it, a request cannot", name)
	}
	if last := p[len(p)-1]; len(p) == 2 && (last == "Options" || last == "Status") {
		return validationError("%s: a request sends the section's members, not the response's {Options, Status} wrapper", name)
	}
	if len(p) == 1 {
		return validationError("%s: not a member of the UpdateDomainConfig request", name)
	}
	return validationError("%s: not a member of %s", name, pathName(p[:len(p)-1]))
}

// mismatch is a wrong JSON type; an AdvancedOptions value also says how to
// send it (values are strings, never booleans or numbers).
func mismatch(path []string, want reflect.Type, v any) *apiError {
	msg := fmt.Sprintf("%s: expected %s, not %s", pathName(path), describeType(want), describeValue(v))
	if len(path) == 2 && path[0] == "AdvancedOptions" {
		if b, err := json.Marshal(v); err == nil {
			msg += fmt.Sprintf(`; AdvancedOptions values are strings, such as "%s"`, strings.Trim(string(b), `"`))
		}
	}
	return validationError("%s", msg)
}

func describeType(t reflect.Type) string {
	t = indirect(t)
	switch {
	case t == epochType:
		return "a number (seconds since the epoch)"
	case t.Kind() == reflect.Struct || t.Kind() == reflect.Map:
		return "an object"
	case t.Kind() == reflect.Slice:
		return "an array"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "a boolean"
	}
	return "a number"
}

// describeValue names a JSON value's type; it never repeats a string's
// text, which may be a secret.
func describeValue(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	}
	return "null"
}

// pathName is the dotted member path used in messages and property names.
func pathName(p []string) string { return strings.Join(p, ".") }

func indirect(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// jsonField finds a struct field by its JSON name (exact case: the wire's
// member names are case-sensitive, unlike encoding/json's matching).
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	t = indirect(t)
	if t == nil || t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// duplicateMember is the path of the first member named twice in one
// object of body (valid JSON), "" when there is none.
func duplicateMember(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var s memberScan
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		if k, ok := s.expectsKey(tok); ok {
			// The first member named twice ends the scan, even when its
			// path is "" (an empty name at the top): the caller then reads
			// the body as having none, as it always has.
			if at, dup := s.key(k); dup {
				return at
			}
			continue
		}
		s.value(tok)
	}
}

// memberScan follows a token stream's nesting, remembering the member
// names each open object has had.
type memberScan struct{ stack []*scanFrame }

// scanFrame is one open object or array.
type scanFrame struct {
	object bool
	seen   map[string]bool
	path   string
	index  int
	key    string // the member whose value comes next
	hasKey bool
}

// expectsKey reports whether tok is a member name: a string where the
// innermost object expects one.
func (s *memberScan) expectsKey(tok any) (string, bool) {
	if len(s.stack) == 0 {
		return "", false
	}
	f := s.stack[len(s.stack)-1]
	if !f.object || f.hasKey {
		return "", false
	}
	k, ok := tok.(string)
	return k, ok
}

// key records the member name k in the innermost object; dup reports
// that the object has had it before, and at is then the member's path.
func (s *memberScan) key(k string) (at string, dup bool) {
	f := s.stack[len(s.stack)-1]
	if f.seen[k] {
		f.key = k
		return s.at(), true
	}
	f.seen[k], f.key, f.hasKey = true, k, true
	return "", false
}

// value follows a token that is (or opens, or closes) a value.
func (s *memberScan) value(tok any) {
	switch tok {
	case json.Delim('{'):
		s.stack = append(s.stack, &scanFrame{object: true, seen: map[string]bool{}, path: s.at()})
	case json.Delim('['):
		s.stack = append(s.stack, &scanFrame{path: s.at()})
	case json.Delim('}'), json.Delim(']'):
		s.stack = s.stack[:len(s.stack)-1]
		s.done()
	default:
		s.done()
	}
}

// at names the value about to be read in the innermost container.
func (s *memberScan) at() string {
	if len(s.stack) == 0 {
		return ""
	}
	f := s.stack[len(s.stack)-1]
	if f.object {
		if f.path == "" {
			return f.key
		}
		return f.path + "." + f.key
	}
	return fmt.Sprintf("%s[%d]", f.path, f.index)
}

// done marks the innermost container's current value as read.
func (s *memberScan) done() {
	if len(s.stack) == 0 {
		return
	}
	f := s.stack[len(s.stack)-1]
	if f.object {
		f.hasKey = false
	} else {
		f.index++
	}
}
