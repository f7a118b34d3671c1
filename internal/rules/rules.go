// Package rules holds every value rule (a pattern, a length, a range, a
// number of items, a limit) that the provider and the services' requests
// share, written once: the search domain configuration's members
// (rules.DomainConfig: ranges, lengths, forms, numbers of items; the
// AdvancedOptions values) and the search service's domain name, change id
// and snapshot suspension (search.go); the identity inputs the provider
// sends, its listings' path prefix and page size, a key's service name and
// id (identity.go); the token service's session name and length, external
// id and web identity token (token.go); the short-term key's lifetime (keys.go); the converse
// request's model id and text (converse.go); the form of a region name.
// The provider derives its validators from them (internal/validators,
// which mark each as derived: validators.Ruled), the clients check
// requests with them, and the emulator checks requests with them, so a
// value is never refused by one and accepted by another. Tests hold it:
// TestValueRulesHome (internal/provider) walks every schema the provider
// serves, the provider block and the list resources' configurations too,
// and fails for a validator whose rule is written anywhere else; the
// agreement tests (TestValueRulesAgree, TestControlRulesAgree,
// TestIdentityRulesAgree, TestTokenRulesAgree, TestConverseRulesAgree)
// send values derived from each rule to both sides. Where the spec gives
// a limit the rule is the spec's; where it does not, the rule is the
// service's documented one or the project's decision, written here once
// and documented in contributing/design.md ("Value rules"). Enumerations
// are not here: the emulator keeps its own lists, written from the spec,
// and the agreement tests compare them with the provider's. This package
// imports the standard library only (the rules rule of .golangci.yml).
package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Region is the form of a region name such as us-east-1: the provider's
// region arguments and the emulator's signature and runtime checks use it.
var Region = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-\d+$`)

// IntRange is an inclusive range of whole numbers.
type IntRange struct{ Min, Max int64 }

// Contains reports whether v is in the range.
func (r IntRange) Contains(v int64) bool { return v >= r.Min && v <= r.Max }

// String describes the range for a message: "between 1 and 1000".
func (r IntRange) String() string { return fmt.Sprintf("between %d and %d", r.Min, r.Max) }

// DedicatedMasterCountsEnabled are the dedicated master counts a domain
// may have while its dedicated master nodes are enabled (an odd quorum).
// The spec gives no rule; this is the project's decision. It depends on
// DedicatedMasterEnabled, which the domain may hold rather than the
// request, so it is no value rule: the emulator's dry run reports it as
// CRIT_DEDICATED_MASTER_COUNT_INVALID, and the provider's plan refuses it
// before any call when it knows both values.
var DedicatedMasterCountsEnabled = []int64{3, 5}

// DedicatedMasterCountAllowed reports whether count dedicated master nodes
// are allowed with dedicated master nodes enabled or not.
func DedicatedMasterCountAllowed(enabled bool, count int64) bool {
	return !enabled || slices.Contains(DedicatedMasterCountsEnabled, count)
}

// Alternatives describes whole numbers for a message: "3 or 5".
func Alternatives(values []int64) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = strconv.FormatInt(v, 10)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Limits of the spec.
const (
	MaxAcceptedWarnings    = 25
	MaxAccessPoliciesChars = 102400
)

// AccessPoliciesLength is an access policy's length as the spec counts it:
// in characters, not bytes.
func AccessPoliciesLength(policy string) int { return utf8.RuneCountInString(policy) }

// AdvancedOptions keys the spec supports.
const (
	AllowExplicitIndex = "rest.action.multi.allow_explicit_index"
	FielddataCacheSize = "indices.fielddata.cache.size"
	MaxClauseCount     = "indices.query.bool.max_clause_count"
)

// AdvancedOptionKeys are the supported keys, in the spec's order.
var AdvancedOptionKeys = []string{AllowExplicitIndex, FielddataCacheSize, MaxClauseCount}

// AdvancedOptionDefaults are the spec's defaults: a domain that sets none
// of these has them, so configuring a default is no change.
func AdvancedOptionDefaults() map[string]string {
	return map[string]string{AllowExplicitIndex: "true", FielddataCacheSize: "unbounded", MaxClauseCount: "1024"}
}

// maxClauseCountMax is the largest clause count: the engine holds it in a
// 32-bit signed integer.
const maxClauseCountMax = 1<<31 - 1

var (
	percentRe = regexp.MustCompile(`^([1-9][0-9]?|100)%?$`)
	countRe   = regexp.MustCompile(`^[1-9][0-9]*$`)
)

// advancedOptionWants says what form each key's value has, for messages.
var advancedOptionWants = map[string]string{
	AllowExplicitIndex: `"true" or "false"`,
	FielddataCacheSize: `a percentage of heap from 1 to 100, such as "40" or "40%", or "unbounded" (the default)`,
	MaxClauseCount:     fmt.Sprintf(`a positive whole number up to %d, such as "1024" (the default)`, maxClauseCountMax),
}

// CheckAdvancedOption returns nil when value is a valid value of key, else
// an error that says the form the key needs. An unsupported key is an
// error too.
func CheckAdvancedOption(key, value string) error {
	ok := false
	switch key {
	case AllowExplicitIndex:
		ok = value == "true" || value == "false"
	case FielddataCacheSize:
		ok = value == "unbounded" || percentRe.MatchString(value)
	case MaxClauseCount:
		n, err := strconv.ParseInt(value, 10, 64)
		ok = countRe.MatchString(value) && err == nil && n <= maxClauseCountMax
	default:
		return fmt.Errorf("unsupported key %q; supported: %s", key, strings.Join(AdvancedOptionKeys, ", "))
	}
	if !ok {
		return fmt.Errorf("the value of %s must be %s (a string); got %q", key, advancedOptionWants[key], value)
	}
	return nil
}

// SupportedAdvancedOption reports whether key is one of the spec's keys.
func SupportedAdvancedOption(key string) bool { return slices.Contains(AdvancedOptionKeys, key) }
