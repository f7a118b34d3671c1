package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// request is a parsed, limit-checked UpdateDomainConfig body.
type request struct {
	typed UpdateDomainConfigRequest
	// sections holds the configuration members as plain JSON values,
	// write-only members removed.
	sections map[string]any
	// writeOnly lists the write-only leaves the request sets.
	writeOnly [][]string
	dryRun    bool
	mode      string
}

// parseRequest decodes a body strictly (strict.go) and checks it against
// every limit of the spec. Semantic rules that depend on the domain are
// findings (findings.go).
func parseRequest(body []byte) (*request, *apiError) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec, aerr := decodeStrict(body)
	if aerr != nil {
		return nil, aerr
	}
	req := &request{sections: map[string]any{}, writeOnly: dec.writeOnly}
	// The typed view is decoded from the checked value (not the body), so
	// both agree on what was sent: a null member is absent in both.
	b, _ := json.Marshal(dec.value)
	if err := json.Unmarshal(b, &req.typed); err != nil {
		return nil, internalError("The request could not be decoded after it was checked: %v", err)
	}
	if aerr := firstError(checkValues(dec.value), checkLimits(&req.typed)); aerr != nil {
		return nil, aerr
	}
	for k, v := range dec.value {
		if !controlMembers[k] {
			req.sections[k] = v
		}
	}
	stripWriteOnly(req.sections)
	req.dryRun = req.typed.DryRun != nil && *req.typed.DryRun
	req.mode = dryRunModeBasic
	if req.typed.DryRunMode != nil {
		req.mode = *req.typed.DryRunMode
	}
	return req, nil
}

func oneOf(field, v string, allowed []string) *apiError {
	if slices.Contains(allowed, v) {
		return nil
	}
	return validationError("%s must be one of %s, not %q.", field, strings.Join(allowed, ", "), v)
}

// checkReadRequest refuses a body on the GET operations with BaseException,
// the spec's "an error occurred while processing the request", which it
// lists for DescribeDryRunProgress and DescribeDomainChangeProgress but
// whose conditions it does not show: the operations take none.
func checkReadRequest(op string, body []byte) *apiError {
	if op != "DescribeDryRunProgress" && op != "DescribeDomainChangeProgress" && op != "DescribeDomainConfig" && op != opListDomainNames {
		return nil
	}
	if len(bytes.TrimSpace(body)) > 0 {
		return baseError("%s takes no request body; send its parameters in the query string.", op)
	}
	return nil
}

// checkLimits applies the spec's limits, enumerations and ranges. The
// first refusal, in the order below, is the one returned.
func checkLimits(in *UpdateDomainConfigRequest) *apiError {
	if e := firstError(
		checkAcceptedWarnings(in.AcceptedWarnings),
		checkAccessPolicies(in.AccessPolicies),
		checkAdvancedOptions(in.AdvancedOptions),
		checkEnumerations(in),
		checkRanges(in),
	); e != nil {
		return e
	}
	return checkLogTypes(in.LogPublishingOptions)
}

// firstError is the first of errs that is not nil.
func firstError(errs ...*apiError) *apiError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func checkAcceptedWarnings(codes []string) *apiError {
	if n := len(codes); n > rules.MaxAcceptedWarnings {
		return validationError("AcceptedWarnings may list at most %d codes, not %d.", rules.MaxAcceptedWarnings, n)
	}
	for i, c := range codes {
		if err := rules.WarningCode.CheckString(c); err != nil {
			return validationError("AcceptedWarnings[%d] %s.", i, err)
		}
	}
	return nil
}

// checkAccessPolicies: at most the spec's length, and a JSON object.
func checkAccessPolicies(p *string) *apiError {
	if p == nil {
		return nil
	}
	if n := rules.AccessPoliciesLength(*p); n > rules.MaxAccessPoliciesChars {
		return validationError("AccessPolicies must be at most %d characters, not %d.", rules.MaxAccessPoliciesChars, n)
	}
	if *p == "" {
		return nil
	}
	// The text null is no policy document either (decoded into a map, it
	// would be a nil map without an error).
	var doc any
	if err := json.Unmarshal([]byte(*p), &doc); err != nil {
		return validationError("AccessPolicies must be a JSON policy document (a JSON object), not text that is not JSON: %v.", err)
	}
	if _, ok := doc.(map[string]any); !ok {
		what := "null"
		if doc != nil {
			what = describeValue(doc)
		}
		return validationError("AccessPolicies must be a JSON policy document (a JSON object), not %s.", what)
	}
	return nil
}

func checkEnumerations(in *UpdateDomainConfigRequest) *apiError {
	var errs []*apiError
	check := func(key string, v *string) {
		if v != nil {
			errs = append(errs, oneOf(key, *v, enumerations[key]))
		}
	}
	check("EngineMode", in.EngineMode)
	check("IPAddressType", in.IPAddressType)
	check("UseCase", in.UseCase)
	check("DryRunMode", in.DryRunMode)
	if a := in.AIMLOptions; a != nil && a.NaturalLanguageQueryGenerationOptions != nil {
		check("AIMLOptions.NaturalLanguageQueryGenerationOptions.DesiredState", a.NaturalLanguageQueryGenerationOptions.DesiredState)
	}
	if a := in.AutoTuneOptions; a != nil {
		check("AutoTuneOptions.DesiredState", a.DesiredState)
		check("AutoTuneOptions.RollbackOnDisable", a.RollbackOnDisable)
		const unit = "AutoTuneOptions.MaintenanceSchedules[].Duration.Unit"
		for i, m := range a.MaintenanceSchedules {
			if m.Duration != nil && m.Duration.Unit != nil {
				errs = append(errs, oneOf(fmt.Sprintf("AutoTuneOptions.MaintenanceSchedules[%d].Duration.Unit", i), *m.Duration.Unit, enumerations[unit]))
			}
		}
	}
	return firstError(errs...)
}

// checkValues applies the shared value rules (rules.DomainConfig) to the
// body's sections, wherever their members are: in each element of an
// array of objects, each value of a map. Members are checked in the order
// of their paths, so the first refusal is always the same one.
func checkValues(body map[string]any) *apiError {
	for _, key := range slices.Sorted(maps.Keys(rules.DomainConfig)) {
		if aerr := checkValueAt(body, strings.Split(key, "."), nil, rules.DomainConfig[key]); aerr != nil {
			return aerr
		}
	}
	return nil
}

// checkValueAt checks r on the members at the path segs below v; at is
// the path so far, for the message.
func checkValueAt(v any, segs, at []string, r rules.Value) *apiError {
	if len(segs) == 0 {
		return checkValue(v, at, r)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	seg := segs[0]
	if seg == "*" {
		for _, k := range sortedKeys(m) {
			if aerr := checkValueAt(m[k], segs[1:], append(slices.Clone(at), k), r); aerr != nil {
				return aerr
			}
		}
		return nil
	}
	name, each := strings.CutSuffix(seg, "[]")
	x, ok := m[name]
	if !ok {
		return nil
	}
	if !each {
		return checkValueAt(x, segs[1:], append(slices.Clone(at), name), r)
	}
	items, _ := x.([]any)
	for i, item := range items {
		if aerr := checkValueAt(item, segs[1:], append(slices.Clone(at), fmt.Sprintf("%s[%d]", name, i)), r); aerr != nil {
			return aerr
		}
	}
	return nil
}

// checkValue checks one member's value (strict decoding has checked its
// type: a string, a whole number held as float64, or an array).
func checkValue(v any, at []string, r rules.Value) *apiError {
	var err error
	switch v := v.(type) {
	case string:
		err = r.CheckString(v)
	case float64:
		// Only a member with a range is a whole number; a fraction never
		// converts to its truncation.
		switch {
		case r.Range == nil:
		case v != math.Trunc(v):
			err = fmt.Errorf("must be a whole number, not %v", v)
		default:
			err = r.CheckWholeNumber(int64(v))
		}
	case []any:
		strs := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				strs = append(strs, s)
			}
		}
		if len(strs) == len(v) && len(v) > 0 {
			err = r.CheckStrings(strs)
		} else {
			err = r.CheckCount(len(v))
		}
	}
	if err != nil {
		return validationError("%s %s.", pathName(at), err)
	}
	return nil
}

// checkRanges checks the snapshot pause's window (the value rules of the
// other numbers are checkValues').
func checkRanges(in *UpdateDomainConfigRequest) *apiError {
	var errs []*apiError
	if p := in.AutomatedSnapshotPauseOptions; p != nil {
		errs = append(errs, checkSnapshotPause(p))
	}
	return firstError(errs...)
}

// checkLogTypes: an unknown log type is an unsupported sub-resource, not a
// bad value.
func checkLogTypes(opts map[string]LogPublishingOption) *apiError {
	for k := range opts {
		if supported := enumerations["LogPublishingOptions.*"]; !slices.Contains(supported, k) {
			return invalidType("LogPublishingOptions has an unsupported log type %q; supported: %s.", k, strings.Join(supported, ", "))
		}
	}
	return nil
}

// checkAdvancedOptions allows the spec's keys with well-formed values: the
// rules the provider's validators apply too (internal/rules).
func checkAdvancedOptions(m map[string]string) *apiError {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := rules.CheckAdvancedOption(k, m[k]); err != nil {
			return validationError("AdvancedOptions: %s.", err)
		}
	}
	return nil
}

// checkSnapshotPause checks the window's shape; the 3-day limit is a
// finding (CRIT_SNAPSHOT_PAUSE_TOO_LONG), see findings.go.
func checkSnapshotPause(p *AutomatedSnapshotPauseInput) *apiError {
	if p.Enabled != nil && *p.Enabled && (p.StartTime == nil || p.EndTime == nil) {
		return validationError("AutomatedSnapshotPauseOptions: StartTime and EndTime are required when Enabled is true.")
	}
	if p.StartTime != nil && p.EndTime != nil && *p.EndTime <= *p.StartTime {
		return validationError("AutomatedSnapshotPauseOptions.EndTime must be after StartTime.")
	}
	return nil
}

// snapshotPauseTooLong reports a suspension longer than the spec's 3 days.
func snapshotPauseTooLong(p *AutomatedSnapshotPauseInput) (time.Duration, bool) {
	if p == nil || p.StartTime == nil || p.EndTime == nil {
		return 0, false
	}
	d := p.EndTime.Time().Sub(p.StartTime.Time())
	return d, d > rules.MaxSnapshotPause
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.1f hours", d.Hours())
}
