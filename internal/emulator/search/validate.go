package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// requestMembers are the spec's request members, listed here (not derived
// from the client's types) so a misspelt member in a client is caught.
var requestMembers = map[string]bool{
	"AcceptedWarnings": true, "AccessPolicies": true, "AdvancedOptions": true,
	"AdvancedSecurityOptions": true, "AIMLOptions": true, "AutomatedSnapshotPauseOptions": true,
	"AutoTuneOptions": true, "ClusterConfig": true, "UserPoolAuthOptions": true,
	"DeploymentStrategyOptions": true, "DomainEndpointOptions": true, "DryRun": true,
	"DryRunMode": true, "BlockVolumeOptions": true, "EncryptionAtRestOptions": true,
	"EngineMode": true, "WorkforceIdentityOptions": true, "IPAddressType": true,
	"LogPublishingOptions": true, "NodeToNodeEncryptionOptions": true, "OffPeakWindowOptions": true,
	"SnapshotOptions": true, "SoftwareUpdateOptions": true, "UseCase": true, "VPCOptions": true,
}

// controlMembers steer the request; they are not configuration.
var controlMembers = map[string]bool{"AcceptedWarnings": true, "DryRun": true, "DryRunMode": true}

// maxSnapshotPause is the spec's limit on an automated snapshot suspension.
const maxSnapshotPause = 72 * time.Hour

// request is a parsed, limit-checked UpdateDomainConfig body.
type request struct {
	typed api.UpdateDomainConfigInput
	// sections holds the configuration members as plain JSON values,
	// secrets removed.
	sections map[string]any
	// writeOnly names the secret-bearing properties the request sets.
	writeOnly []string
	dryRun    bool
	mode      string
}

// parseRequest decodes and checks a body against every limit of the spec.
// Semantic rules that depend on the domain are findings (findings.go).
func parseRequest(body []byte) (*request, *apiError) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, baseError("The request body is not valid JSON: %v", err)
		}
		return nil, validationError("The request body must be a JSON object.")
	}
	for k := range raw {
		if !requestMembers[k] {
			return nil, validationError("Unknown member %q in the request body.", k)
		}
	}
	if ao, ok := raw["AdvancedOptions"]; ok {
		if aerr := checkAdvancedOptionTypes(ao); aerr != nil {
			return nil, aerr
		}
	}
	req := &request{sections: map[string]any{}}
	if err := json.Unmarshal(body, &req.typed); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, validationError("%s must be of type %s, not a JSON %s.", te.Field, te.Type, te.Value)
		}
		return nil, validationError("The request body could not be read: %v", err)
	}
	if aerr := checkLimits(&req.typed); aerr != nil {
		return nil, aerr
	}
	for k, v := range raw {
		if controlMembers[k] {
			continue
		}
		var val any
		_ = json.Unmarshal(v, &val)
		if val == nil {
			continue
		}
		req.sections[k] = val
	}
	req.writeOnly = stripSecrets(req.sections)
	req.dryRun = req.typed.DryRun != nil && *req.typed.DryRun
	req.mode = api.DryRunModeBasic
	if req.typed.DryRunMode != nil {
		req.mode = *req.typed.DryRunMode
	}
	return req, nil
}

// stripSecrets removes the members the service never returns, reporting
// them as write-only properties.
func stripSecrets(sections map[string]any) []string {
	aso, ok := sections["AdvancedSecurityOptions"].(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	if _, ok := aso["MasterUserOptions"]; ok {
		delete(aso, "MasterUserOptions")
		out = append(out, "AdvancedSecurityOptions.MasterUserOptions")
	}
	if saml, ok := aso["SAMLOptions"].(map[string]any); ok {
		for _, k := range []string{"MasterBackendRole", "MasterUserName"} {
			if _, ok := saml[k]; ok {
				delete(saml, k)
				out = append(out, "AdvancedSecurityOptions.SAMLOptions."+k)
			}
		}
	}
	return out
}

// checkAdvancedOptionTypes: the values are strings, never booleans or
// numbers; the message names the key.
func checkAdvancedOptionTypes(raw json.RawMessage) *apiError {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return validationError("AdvancedOptions must be a map of string to string.")
	}
	for k, v := range m {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return validationError("AdvancedOptions[%q] must be a string (for example %q), not %s.", k, strings.Trim(string(v), `"`), string(v))
		}
	}
	return nil
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
func checkLimits(in *api.UpdateDomainConfigInput) *apiError {
	var errs []*apiError
	add := func(e *apiError) {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if n := len(in.AcceptedWarnings); n > api.MaxAcceptedWarnings {
		add(validationError("AcceptedWarnings may list at most %d codes, not %d.", api.MaxAcceptedWarnings, n))
	}
	if p := in.AccessPolicies; p != nil {
		if n := utf8.RuneCountInString(*p); n > api.MaxAccessPoliciesChars {
			add(validationError("AccessPolicies must be at most %d characters, not %d.", api.MaxAccessPoliciesChars, n))
		} else if *p != "" {
			var doc map[string]any
			if err := json.Unmarshal([]byte(*p), &doc); err != nil {
				add(validationError("AccessPolicies must be a JSON policy document (a JSON object): %v.", err))
			}
		}
	}
	add(checkAdvancedOptions(in.AdvancedOptions))
	if in.EngineMode != nil {
		add(oneOf("EngineMode", *in.EngineMode, api.EngineModes))
	}
	if in.IPAddressType != nil {
		add(oneOf("IPAddressType", *in.IPAddressType, api.IPAddressTypes))
	}
	if in.UseCase != nil {
		add(oneOf("UseCase", *in.UseCase, api.UseCases))
	}
	if in.DryRunMode != nil {
		add(oneOf("DryRunMode", *in.DryRunMode, api.DryRunModes))
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
		if !slices.Contains(api.LogTypes, k) {
			return invalidType("LogPublishingOptions has an unsupported log type %q; supported: %s.", k, strings.Join(api.LogTypes, ", "))
		}
	}
	return nil
}

// checkAdvancedOptions allows the spec's keys with well-formed values.
func checkAdvancedOptions(m map[string]string) *apiError {
	for k, v := range m {
		switch k {
		case api.AdvancedOptionAllowExplicitIndex:
			if v != "true" && v != "false" {
				return validationError("AdvancedOptions[%q] must be \"true\" or \"false\", not %q.", k, v)
			}
		case api.AdvancedOptionFielddataCacheSize:
			n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
			if v != "unbounded" && (err != nil || n < 1 || n > 100) {
				return validationError("AdvancedOptions[%q] must be a percentage of heap from 1 to 100 (for example \"40\"), not %q.", k, v)
			}
		case api.AdvancedOptionMaxClauseCount:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 2147483647 {
				return validationError("AdvancedOptions[%q] must be a positive whole number (default \"1024\"), not %q.", k, v)
			}
		default:
			return validationError("AdvancedOptions has an unsupported key %q; supported: %s.", k, strings.Join(api.AdvancedOptionKeys, ", "))
		}
	}
	return nil
}

// checkSnapshotPause checks the window's shape; the 3-day limit is a
// finding (CRIT_SNAPSHOT_PAUSE_TOO_LONG), see findings.go.
func checkSnapshotPause(p *api.AutomatedSnapshotPauseInput) *apiError {
	if p.Enabled != nil && *p.Enabled && (p.StartTime == nil || p.EndTime == nil) {
		return validationError("AutomatedSnapshotPauseOptions: StartTime and EndTime are required when Enabled is true.")
	}
	if p.StartTime != nil && p.EndTime != nil && *p.EndTime <= *p.StartTime {
		return validationError("AutomatedSnapshotPauseOptions.EndTime must be after StartTime.")
	}
	return nil
}

// snapshotPauseTooLong reports a suspension longer than the spec's 3 days.
func snapshotPauseTooLong(p *api.AutomatedSnapshotPauseInput) (time.Duration, bool) {
	if p == nil || p.StartTime == nil || p.EndTime == nil {
		return 0, false
	}
	d := p.EndTime.Time().Sub(p.StartTime.Time())
	return d, d > maxSnapshotPause
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.1f hours", d.Hours())
}
