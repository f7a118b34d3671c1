package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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
	if aerr := checkLimits(&req.typed); aerr != nil {
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

func inRange(field string, v *int64, lo, hi int64) *apiError {
	if v != nil && (*v < lo || *v > hi) {
		return validationError("%s must be between %d and %d, not %d.", field, lo, hi, *v)
	}
	return nil
}

// checkLimits applies the spec's limits, enumerations and ranges.
func checkLimits(in *UpdateDomainConfigRequest) *apiError {
	var errs []*apiError
	add := func(e *apiError) {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if n := len(in.AcceptedWarnings); n > maxAcceptedWarnings {
		add(validationError("AcceptedWarnings may list at most %d codes, not %d.", maxAcceptedWarnings, n))
	}
	if p := in.AccessPolicies; p != nil {
		if n := utf8.RuneCountInString(*p); n > maxAccessPoliciesChars {
			add(validationError("AccessPolicies must be at most %d characters, not %d.", maxAccessPoliciesChars, n))
		} else if *p != "" {
			var doc map[string]any
			if err := json.Unmarshal([]byte(*p), &doc); err != nil {
				add(validationError("AccessPolicies must be a JSON policy document (a JSON object): %v.", err))
			}
		}
	}
	add(checkAdvancedOptions(in.AdvancedOptions))
	if in.EngineMode != nil {
		add(oneOf("EngineMode", *in.EngineMode, engineModes))
	}
	if in.IPAddressType != nil {
		add(oneOf("IPAddressType", *in.IPAddressType, ipAddressTypes))
	}
	if in.UseCase != nil {
		add(oneOf("UseCase", *in.UseCase, useCases))
	}
	if in.DryRunMode != nil {
		add(oneOf("DryRunMode", *in.DryRunMode, dryRunModes))
	}
	if so := in.SnapshotOptions; so != nil {
		add(inRange("SnapshotOptions.AutomatedSnapshotStartHour", so.AutomatedSnapshotStartHour, 0, 23))
	}
	if o := in.OffPeakWindowOptions; o != nil && o.OffPeakWindow != nil && o.OffPeakWindow.WindowStartTime != nil {
		ws := o.OffPeakWindow.WindowStartTime
		add(inRange("OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Hours", ws.Hours, 0, 23))
		add(inRange("OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Minutes", ws.Minutes, 0, 59))
	}
	if p := in.AutomatedSnapshotPauseOptions; p != nil {
		add(checkSnapshotPause(p))
	}
	if c := in.ClusterConfig; c != nil {
		add(inRange("ClusterConfig.InstanceCount", c.InstanceCount, 1, 1000))
		add(inRange("ClusterConfig.DedicatedMasterCount", c.DedicatedMasterCount, 1, 10))
		add(inRange("ClusterConfig.WarmCount", c.WarmCount, 0, 1000))
		if c.ZoneAwarenessConfig != nil {
			add(inRange("ClusterConfig.ZoneAwarenessConfig.AvailabilityZoneCount", c.ZoneAwarenessConfig.AvailabilityZoneCount, 1, 6))
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	// An unknown log type is an unsupported sub-resource, not a bad value.
	for k := range in.LogPublishingOptions {
		if !slices.Contains(logTypes, k) {
			return invalidType("LogPublishingOptions has an unsupported log type %q; supported: %s.", k, strings.Join(logTypes, ", "))
		}
	}
	return nil
}

// checkAdvancedOptions allows the spec's keys with well-formed values.
func checkAdvancedOptions(m map[string]string) *apiError {
	for k, v := range m {
		switch k {
		case advancedOptionAllowExplicitIndex:
			if v != "true" && v != "false" {
				return validationError("AdvancedOptions[%q] must be \"true\" or \"false\", not %q.", k, v)
			}
		case advancedOptionFielddataCacheSize:
			n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
			if v != "unbounded" && (err != nil || n < 1 || n > 100) {
				return validationError("AdvancedOptions[%q] must be a percentage of heap from 1 to 100 (for example \"40\"), not %q.", k, v)
			}
		case advancedOptionMaxClauseCount:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 2147483647 {
				return validationError("AdvancedOptions[%q] must be a positive whole number (default \"1024\"), not %q.", k, v)
			}
		default:
			return validationError("AdvancedOptions has an unsupported key %q; supported: %s.", k, strings.Join(advancedOptionKeys, ", "))
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
	return d, d > maxSnapshotPause
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.1f hours", d.Hours())
}
