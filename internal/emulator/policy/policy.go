// Package policy parses and evaluates identity policy documents in the
// spec's shape (Version 2012-10-17, Statement with Effect, Action, Resource
// and an optional Condition), and holds the catalogue of managed policies.
//
// Evaluation follows the usual rules: an explicit Deny wins over any Allow;
// with no matching Allow the request is implicitly denied. Actions match
// case-insensitively and may use the wildcards * and ?; resources match
// case-sensitively with the same wildcards.
package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Version is the only policy language version accepted.
const Version = "2012-10-17"

// Decision is the outcome of an evaluation.
type Decision int

// The decisions, from the most to the least permissive.
const (
	// ImplicitDeny: no statement allows the request (and none denies it).
	ImplicitDeny Decision = iota
	// Allow: a statement allows the request and none denies it.
	Allow
	// ExplicitDeny: a Deny statement matches the request.
	ExplicitDeny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "Allow"
	case ExplicitDeny:
		return "ExplicitDeny"
	default:
		return "ImplicitDeny"
	}
}

// Document is a parsed policy document.
type Document struct {
	Version   string      `json:"Version"`
	ID        string      `json:"Id,omitempty"`
	Statement []Statement `json:"Statement"`
}

// Statement is one rule of a document.
type Statement struct {
	Sid      string     `json:"Sid,omitempty"`
	Effect   string     `json:"Effect"`
	Action   StringList `json:"Action"`
	Resource StringList `json:"Resource"`
	// Condition maps an operator (StringEquals, NumericLessThanEquals, ...)
	// to condition keys and the values they are compared with.
	Condition map[string]map[string]StringList `json:"Condition,omitempty"`
}

// StringList is a JSON string or array of strings. Numbers and booleans are
// accepted too (condition values often are) and kept in their JSON text.
type StringList []string

// UnmarshalJSON accepts a string, a number, a boolean or an array of them.
func (l *StringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return err
		}
		out := make(StringList, 0, len(raw))
		for _, r := range raw {
			s, err := scalar(r)
			if err != nil {
				return err
			}
			out = append(out, s)
		}
		*l = out
		return nil
	}
	s, err := scalar(b)
	if err != nil {
		return err
	}
	*l = StringList{s}
	return nil
}

// MarshalJSON writes one value as a string, more as an array.
func (l StringList) MarshalJSON() ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	return json.Marshal([]string(l))
}

func scalar(b []byte) (string, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case float64, bool:
		return string(bytes.TrimSpace(b)), nil
	default:
		return "", fmt.Errorf("expected a string, number or boolean, got %s", b)
	}
}

// operators are the condition operators understood, by lower-case name.
var operators = func() map[string]string {
	m := map[string]string{}
	for _, op := range []string{
		"StringEquals", "StringNotEquals", "StringEqualsIgnoreCase", "StringNotEqualsIgnoreCase",
		"StringLike", "StringNotLike",
		"NumericEquals", "NumericNotEquals", "NumericLessThan", "NumericLessThanEquals",
		"NumericGreaterThan", "NumericGreaterThanEquals",
		"Bool", "Null",
	} {
		m[strings.ToLower(op)] = op
		m[strings.ToLower(op)+"ifexists"] = op + "IfExists"
	}
	return m
}()

// Parse reads and checks a policy document: the version, each statement's
// Effect, Action and Resource, and the condition operators and their values.
func Parse(doc []byte) (Document, error) {
	doc, err := statementAsArray(doc)
	if err != nil {
		return Document{}, err
	}
	var d Document
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Document{}, fmt.Errorf("the policy document is malformed: %w", err)
	}
	if d.Version != Version {
		return Document{}, fmt.Errorf("the policy document's Version must be %q, got %q", Version, d.Version)
	}
	if len(d.Statement) == 0 {
		return Document{}, fmt.Errorf("the policy document has no Statement")
	}
	for i, s := range d.Statement {
		if err := checkStatement(i, s); err != nil {
			return Document{}, err
		}
	}
	return d, nil
}

// statementAsArray is doc with a Statement given as a single object
// wrapped in an array (it may be either); doc itself when it is not.
func statementAsArray(doc []byte) ([]byte, error) {
	var probe struct {
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(doc, &probe); err != nil {
		return nil, fmt.Errorf("the policy document is not a JSON object: %w", err)
	}
	if t := bytes.TrimSpace(probe.Statement); len(t) > 0 && t[0] == '{' {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(doc, &m)
		m["Statement"] = json.RawMessage(append(append([]byte{'['}, t...), ']'))
		doc, _ = json.Marshal(m)
	}
	return doc, nil
}

// checkStatement checks statement i's Effect, Action, Resource and
// conditions; errors name it by its Sid when it has one.
func checkStatement(i int, s Statement) error {
	at := fmt.Sprintf("Statement[%d]", i)
	if s.Sid != "" {
		at = fmt.Sprintf("Statement %q", s.Sid)
	}
	if s.Effect != "Allow" && s.Effect != "Deny" {
		return fmt.Errorf("%s: Effect must be Allow or Deny, got %q", at, s.Effect)
	}
	if len(s.Action) == 0 {
		return fmt.Errorf("%s: Action is required", at)
	}
	for _, a := range s.Action {
		if a != "*" && !strings.Contains(a, ":") {
			return fmt.Errorf("%s: Action %q must be * or service:action", at, a)
		}
	}
	if len(s.Resource) == 0 {
		return fmt.Errorf("%s: Resource is required", at)
	}
	for op, keys := range s.Condition {
		if err := checkCondition(at, op, keys); err != nil {
			return err
		}
	}
	return nil
}

// checkCondition checks one condition operator of the statement at and the
// values of each of its keys: numbers for Numeric operators, true or false
// for Bool and Null.
func checkCondition(at, op string, keys map[string]StringList) error {
	name, ok := operators[strings.ToLower(op)]
	if !ok {
		return fmt.Errorf("%s: unknown condition operator %q", at, op)
	}
	base := strings.TrimSuffix(name, "IfExists")
	for k, vals := range keys {
		if len(vals) == 0 {
			return fmt.Errorf("%s: %s %s has no value", at, op, k)
		}
		for _, v := range vals {
			switch {
			case strings.HasPrefix(base, "Numeric"):
				if _, err := strconv.ParseFloat(v, 64); err != nil {
					return fmt.Errorf("%s: %s %s: %q is not a number", at, op, k, v)
				}
			case base == "Bool" || base == "Null":
				if _, err := strconv.ParseBool(v); err != nil {
					return fmt.Errorf("%s: %s %s: %q is not true or false", at, op, k, v)
				}
			}
		}
	}
	return nil
}

// MustParse is Parse for documents known to be valid; it panics otherwise.
func MustParse(doc string) Document {
	d, err := Parse([]byte(doc))
	if err != nil {
		panic(err)
	}
	return d
}

// JSON is the document as compact JSON.
func (d Document) JSON() []byte {
	b, _ := json.Marshal(d)
	return b
}

// Evaluate decides a request: action (such as models:CallWithBearerToken),
// resource (an ARN or *) and the request's condition keys. An explicit
// Deny in any document wins; else any matching Allow allows; else the
// request is implicitly denied.
func Evaluate(docs []Document, action, resource string, ctxKeys map[string]string) Decision {
	return Explain(docs, action, resource, ctxKeys).Decision
}

// Result is an evaluation with the reasons behind it.
type Result struct {
	Decision Decision
	// Statement is the statement that decided (the Deny that matched, or
	// the first Allow that matched); empty for an implicit deny.
	Statement string
	// NotMet lists the statements whose Action and Resource matched but a
	// condition did not, with the condition that failed, as in
	// `Allow statement "CapAge": identity:ServiceSpecificCredentialAgeDays NumericLessThanEquals 90`.
	NotMet []string
}

// Reason is a sentence naming why the request was decided so.
func (r Result) Reason() string {
	switch r.Decision {
	case ExplicitDeny:
		return "an explicit deny in " + r.Statement
	case Allow:
		return "allowed by " + r.Statement
	}
	if len(r.NotMet) == 0 {
		return "no policy allows it (implicit deny)"
	}
	return "no policy allows it (implicit deny); the condition of " + strings.Join(r.NotMet, "; ") + " is not met"
}

// Explain is Evaluate with the reasons.
func Explain(docs []Document, action, resource string, ctxKeys map[string]string) Result {
	keys := make(map[string]string, len(ctxKeys))
	for k, v := range ctxKeys {
		keys[strings.ToLower(k)] = v
	}
	var res Result
	for di, d := range docs {
		for si, s := range d.Statement {
			if !s.matchesAction(action) || !s.matchesResource(resource) {
				continue
			}
			name := statementName(di, si, s)
			if failed := s.failedCondition(keys); failed != "" {
				if s.Effect == "Allow" {
					res.NotMet = append(res.NotMet, name+" (requires "+failed+")")
				}
				continue
			}
			if s.Effect == "Deny" {
				return Result{Decision: ExplicitDeny, Statement: name}
			}
			if res.Decision != Allow {
				res.Decision, res.Statement = Allow, name
			}
		}
	}
	if res.Decision == Allow {
		res.NotMet = nil
	}
	return res
}

func statementName(di, si int, s Statement) string {
	if s.Sid != "" {
		return fmt.Sprintf("%s statement %q", s.Effect, s.Sid)
	}
	return fmt.Sprintf("%s statement %d of policy %d", s.Effect, si+1, di+1)
}

func (s Statement) matchesAction(action string) bool {
	for _, a := range s.Action {
		if glob(strings.ToLower(a), strings.ToLower(action)) {
			return true
		}
	}
	return false
}

func (s Statement) matchesResource(resource string) bool {
	for _, r := range s.Resource {
		if glob(r, resource) {
			return true
		}
	}
	return false
}

// failedCondition returns the first condition not met, as text, or "".
// Operators are visited in a stable order so the message is stable.
func (s Statement) failedCondition(keys map[string]string) string {
	ops := make([]string, 0, len(s.Condition))
	for op := range s.Condition {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		ks := make([]string, 0, len(s.Condition[op]))
		for k := range s.Condition[op] {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			vals := s.Condition[op][k]
			v, present := keys[strings.ToLower(k)]
			if !conditionMet(op, v, present, vals) {
				return fmt.Sprintf("%s %s %s", k, op, strings.Join(vals, " or "))
			}
		}
	}
	return ""
}

// conditionMet applies one operator to one key. A key absent from the
// request fails every positive operator and meets every negated one
// (StringNotEquals, StringNotLike, NumericNotEquals), as in IAM; the
// IfExists variants are met when the key is absent; Null tests presence.
func conditionMet(op, v string, present bool, vals []string) bool {
	name := operators[strings.ToLower(op)]
	ifExists := strings.HasSuffix(name, "IfExists")
	name = strings.TrimSuffix(name, "IfExists")
	if name == "Null" {
		want, _ := strconv.ParseBool(vals[0])
		return want == !present
	}
	negated := strings.Contains(name, "Not")
	if !present {
		return ifExists || negated
	}
	switch {
	case strings.HasPrefix(name, "String"):
		return stringConditionMet(name, v, vals)
	case strings.HasPrefix(name, "Numeric"):
		return numericConditionMet(name, v, vals)
	case name == "Bool":
		got, err := strconv.ParseBool(v)
		return err == nil && anyValue(vals, func(w string) bool { b, err := strconv.ParseBool(w); return err == nil && b == got })
	}
	return false
}

// anyValue reports whether f holds for any of a condition's values.
func anyValue(vals []string, f func(want string) bool) bool {
	for _, w := range vals {
		if f(w) {
			return true
		}
	}
	return false
}

// stringConditionMet applies a String operator (its IfExists suffix cut)
// to the present value v.
func stringConditionMet(name, v string, vals []string) bool {
	equal := func(w string) bool { return v == w }
	equalFold := func(w string) bool { return strings.EqualFold(v, w) }
	like := func(w string) bool { return glob(w, v) }
	switch name {
	case "StringEquals":
		return anyValue(vals, equal)
	case "StringNotEquals":
		return !anyValue(vals, equal)
	case "StringEqualsIgnoreCase":
		return anyValue(vals, equalFold)
	case "StringNotEqualsIgnoreCase":
		return !anyValue(vals, equalFold)
	case "StringLike":
		return anyValue(vals, like)
	case "StringNotLike":
		return !anyValue(vals, like)
	}
	return false
}

// numericConditionMet applies a Numeric operator (its IfExists suffix cut)
// to the present value v; a v that is not a number meets none, not even
// NumericNotEquals.
func numericConditionMet(name, v string, vals []string) bool {
	a, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return false
	}
	num := func(cmp func(a, b float64) bool) bool {
		return anyValue(vals, func(w string) bool {
			b, err := strconv.ParseFloat(w, 64)
			return err == nil && cmp(a, b)
		})
	}
	switch name {
	case "NumericEquals":
		return num(func(a, b float64) bool { return a == b })
	case "NumericNotEquals":
		return !num(func(a, b float64) bool { return a == b })
	case "NumericLessThan":
		return num(func(a, b float64) bool { return a < b })
	case "NumericLessThanEquals":
		return num(func(a, b float64) bool { return a <= b })
	case "NumericGreaterThan":
		return num(func(a, b float64) bool { return a > b })
	case "NumericGreaterThanEquals":
		return num(func(a, b float64) bool { return a >= b })
	}
	return false
}

// glob matches s against a pattern where * matches any run of characters
// (also none) and ? exactly one.
func glob(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		// A * in the pattern is always the wildcard, also where s holds a
		// literal * (checked first, or "*" would not match "*x").
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
