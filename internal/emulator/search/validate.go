package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
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

func inRange(field string, v *int64, r rules.IntRange) *apiError {
	if v != nil && !r.Contains(*v) {
		return validationError("%s must be %s, not %d.", field, r, *v)
	}
	return nil
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
	if *p != "" {
		var doc map[string]any
		if err := json.Unmarshal([]byte(*p), &doc); err != nil {
			return validationError("AccessPolicies must be a JSON policy document (a JSON object): %v.", err)
		}
	}
	return nil
}

func checkEnumerations(in *UpdateDomainConfigRequest) *apiError {
	var errs []*apiError
	if in.EngineMode != nil {
		errs = append(errs, oneOf("EngineMode", *in.EngineMode, engineModes))
	}
	if in.IPAddressType != nil {
		errs = append(errs, oneOf("IPAddressType", *in.IPAddressType, ipAddressTypes))
	}
	if in.UseCase != nil {
		errs = append(errs, oneOf("UseCase", *in.UseCase, useCases))
	}
	if in.DryRunMode != nil {
		errs = append(errs, oneOf("DryRunMode", *in.DryRunMode, dryRunModes))
	}
	return firstError(errs...)
}

// checkRanges checks the numbers of the snapshot, off-peak window, snapshot
// pause and cluster sections.
func checkRanges(in *UpdateDomainConfigRequest) *apiError {
	var errs []*apiError
	if so := in.SnapshotOptions; so != nil {
		errs = append(errs, inRange("SnapshotOptions.AutomatedSnapshotStartHour", so.AutomatedSnapshotStartHour, rules.Hour))
	}
	if o := in.OffPeakWindowOptions; o != nil && o.OffPeakWindow != nil && o.OffPeakWindow.WindowStartTime != nil {
		ws := o.OffPeakWindow.WindowStartTime
		errs = append(errs,
			inRange("OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Hours", ws.Hours, rules.Hour),
			inRange("OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Minutes", ws.Minutes, rules.Minute))
	}
	if p := in.AutomatedSnapshotPauseOptions; p != nil {
		errs = append(errs, checkSnapshotPause(p))
	}
	if c := in.ClusterConfig; c != nil {
		errs = append(errs,
			inRange("ClusterConfig.InstanceCount", c.InstanceCount, rules.InstanceCount),
			inRange("ClusterConfig.DedicatedMasterCount", c.DedicatedMasterCount, rules.DedicatedMasterCount),
			inRange("ClusterConfig.WarmCount", c.WarmCount, rules.WarmCount))
		if c.ZoneAwarenessConfig != nil {
			errs = append(errs, inRange("ClusterConfig.ZoneAwarenessConfig.AvailabilityZoneCount", c.ZoneAwarenessConfig.AvailabilityZoneCount, rules.AvailabilityZoneCount))
		}
	}
	return firstError(errs...)
}

// checkLogTypes: an unknown log type is an unsupported sub-resource, not a
// bad value.
func checkLogTypes(opts map[string]LogPublishingOption) *apiError {
	for k := range opts {
		if !slices.Contains(logTypes, k) {
			return invalidType("LogPublishingOptions has an unsupported log type %q; supported: %s.", k, strings.Join(logTypes, ", "))
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
	return d, d > maxSnapshotPause
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.1f hours", d.Hours())
}
