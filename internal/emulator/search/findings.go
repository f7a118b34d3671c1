package search

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// deploymentRules decide how a changed property is deployed; the first
// rule whose path is a prefix of the property's wins. A property no rule
// names is blue/green: the safe guess. The table is in README.md.
var deploymentRules = []struct {
	path []string
	kind string
}{
	{[]string{"AdvancedOptions", advancedOptionAllowExplicitIndex}, deploymentDynamic},
	{[]string{"AdvancedOptions"}, deploymentBlueGreen},
	{[]string{"AdvancedSecurityOptions", "Enabled"}, deploymentBlueGreen},
	{[]string{"AdvancedSecurityOptions", "InternalUserDatabaseEnabled"}, deploymentBlueGreen},
	{[]string{"AdvancedSecurityOptions"}, deploymentDynamic},
	{[]string{"ClusterConfig"}, deploymentBlueGreen},
	{[]string{"BlockVolumeOptions"}, deploymentBlueGreen},
	{[]string{"EncryptionAtRestOptions"}, deploymentBlueGreen},
	{[]string{"NodeToNodeEncryptionOptions"}, deploymentBlueGreen},
	{[]string{"VPCOptions"}, deploymentBlueGreen},
	{[]string{"IPAddressType"}, deploymentBlueGreen},
	{[]string{"EngineMode"}, deploymentBlueGreen},
	{[]string{"UserPoolAuthOptions"}, deploymentBlueGreen},
	{[]string{"AccessPolicies"}, deploymentDynamic},
	{[]string{"SnapshotOptions"}, deploymentDynamic},
	{[]string{"OffPeakWindowOptions"}, deploymentDynamic},
	{[]string{"AutoTuneOptions"}, deploymentDynamic},
	{[]string{"LogPublishingOptions"}, deploymentDynamic},
	{[]string{"SoftwareUpdateOptions"}, deploymentDynamic},
	{[]string{"AutomatedSnapshotPauseOptions"}, deploymentDynamic},
	{[]string{"DeploymentStrategyOptions"}, deploymentDynamic},
	{[]string{"DomainEndpointOptions"}, deploymentDynamic},
	{[]string{"AIMLOptions"}, deploymentDynamic},
	{[]string{"WorkforceIdentityOptions"}, deploymentDynamic},
	{[]string{"UseCase"}, deploymentDynamic},
}

func deploymentFor(path []string) string {
	for _, r := range deploymentRules {
		if len(path) >= len(r.path) && slices.Equal(path[:len(r.path)], r.path) {
			return r.kind
		}
	}
	return deploymentBlueGreen
}

// deploymentType is the heaviest deployment any changed property needs;
// none when nothing changes.
func deploymentType(props []propChange) string {
	kind := deploymentNone
	for _, p := range props {
		switch deploymentFor(p.path) {
		case deploymentBlueGreen:
			return deploymentBlueGreen
		case deploymentDynamic:
			kind = deploymentDynamic
		}
	}
	return kind
}

// deploymentMessage is DryRunResults.Message.
func deploymentMessage(kind string, props []propChange) string {
	var names []string
	for _, p := range props {
		if deploymentFor(p.path) == kind {
			names = append(names, p.name())
		}
	}
	switch kind {
	case deploymentBlueGreen:
		return "This change requires a blue/green deployment because it modifies " + strings.Join(names, ", ") + "."
	case deploymentDynamic:
		return "This change is applied dynamically, without a blue/green deployment: " + strings.Join(names, ", ") + "."
	}
	return "This change does not modify the domain's configuration."
}

// finding is one validation failure of a change.
type finding struct {
	Code     string `json:"Code"`
	Message  string `json:"Message"`
	Severity string `json:"Severity"`
}

// Validation codes; the table with their conditions is in README.md.
const (
	CritEngineModeImmutable       = "CRIT_ENGINE_MODE_IMMUTABLE"
	CritDualstackIrreversible     = "CRIT_DUALSTACK_IRREVERSIBLE"
	CritInstanceCountZoneMismatch = "CRIT_INSTANCE_COUNT_ZONE_MISMATCH"
	CritDedicatedMasterCount      = "CRIT_DEDICATED_MASTER_COUNT_INVALID"
	CritSnapshotPauseTooLong      = "CRIT_SNAPSHOT_PAUSE_TOO_LONG"
	CritEncryptionAtRestDisable   = "CRIT_ENCRYPTION_AT_REST_DISABLE"
	CritNodeToNodeDisable         = "CRIT_NODE_TO_NODE_DISABLE"
	CritExplicitIndexSubresource  = "CRIT_EXPLICIT_INDEX_SUBRESOURCE_POLICY"

	AdvBlueGreenOutsideOffPeak = "ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"
	AdvDualstackRecommended    = "ADV_DUALSTACK_RECOMMENDED"
	AdvNoDedicatedMasters      = "ADV_NO_DEDICATED_MASTERS"
	AdvFielddataCacheUnbounded = "ADV_FIELDDATA_CACHE_UNBOUNDED"
	AdvSnapshotPauseNoRestore  = "ADV_SNAPSHOT_PAUSE_NO_RESTORE"
)

// offPeakLength is how long the daily off-peak window lasts.
const offPeakLength = 10 * time.Hour

// analyse finds every Critical and Advisory validation failure of applying
// req to the current configuration, sorted by code.
func analyse(cur, next map[string]any, req *request, kind string, now time.Time) []finding {
	var f findingList
	in := &req.typed
	f.engineAndAddressType(cur, in)
	if in.ClusterConfig != nil {
		f.cluster(next)
	}
	f.snapshotPause(in)
	f.encryption(cur, next)
	f.advancedOptions(next, in)
	if kind == deploymentBlueGreen && !inOffPeak(cur, now) {
		// The message names the window, not the time of the request: a
		// repeat dry run of the same change a minute later must give the
		// same findings (Terraform plans the same change again at apply).
		f.adv(AdvBlueGreenOutsideOffPeak, "This blue/green deployment would start outside the domain's off-peak window (%s).", offPeakWindow(cur))
	}
	out := f.list
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// findingList collects findings; each code is found at most once, so the
// order the rules run in does not show once the list is sorted.
type findingList struct{ list []finding }

func (f *findingList) crit(code, format string, args ...any) {
	f.list = append(f.list, finding{code, fmt.Sprintf(format, args...), severityCritical})
}

func (f *findingList) adv(code, format string, args ...any) {
	f.list = append(f.list, finding{code, fmt.Sprintf(format, args...), severityAdvisory})
}

// engineAndAddressType: the engine mode is fixed at creation, and dualstack
// cannot go back to ipv4.
func (f *findingList) engineAndAddressType(cur map[string]any, in *UpdateDomainConfigRequest) {
	if in.EngineMode != nil && *in.EngineMode != lookupString(cur, "EngineMode") {
		f.crit(CritEngineModeImmutable, "EngineMode cannot be changed after the domain is created (it is %s, the change asks for %s).", lookupString(cur, "EngineMode"), *in.EngineMode)
	}
	if in.IPAddressType != nil {
		if *in.IPAddressType == ipv4 && lookupString(cur, "IPAddressType") == dualstack {
			f.crit(CritDualstackIrreversible, "IPAddressType cannot go back from dualstack to ipv4.")
		}
		if *in.IPAddressType == ipv4 {
			f.adv(AdvDualstackRecommended, "IPAddressType dualstack is recommended over ipv4.")
		}
	}
}

// cluster checks the next cluster shape: instances spread evenly over the
// zones, and a valid dedicated master count (or advice to have masters).
func (f *findingList) cluster(next map[string]any) {
	count, _ := lookupNumber(next, "ClusterConfig", "InstanceCount")
	if lookupBool(next, "ClusterConfig", "ZoneAwarenessEnabled") {
		zones, ok := lookupNumber(next, "ClusterConfig", "ZoneAwarenessConfig", "AvailabilityZoneCount")
		if !ok {
			zones = 2
		}
		// The zone count itself is a value rule (2 or 3, internal/rules),
		// refused before any analysis.
		if int64(count)%int64(zones) != 0 {
			f.crit(CritInstanceCountZoneMismatch, "ClusterConfig.InstanceCount (%g) must be a multiple of the availability zone count (%g).", count, zones)
		}
	}
	if lookupBool(next, "ClusterConfig", "DedicatedMasterEnabled") {
		if n, _ := lookupNumber(next, "ClusterConfig", "DedicatedMasterCount"); n != math.Trunc(n) || !rules.DedicatedMasterCountAllowed(true, int64(n)) {
			f.crit(CritDedicatedMasterCount, "ClusterConfig.DedicatedMasterCount must be %s when dedicated master nodes are enabled, not %g.", rules.Alternatives(rules.DedicatedMasterCountsEnabled), n)
		}
	} else if count > 1 {
		f.adv(AdvNoDedicatedMasters, "A domain of %g data nodes without dedicated master nodes is less stable; enable ClusterConfig.DedicatedMasterEnabled.", count)
	}
}

func (f *findingList) snapshotPause(in *UpdateDomainConfigRequest) {
	if d, long := snapshotPauseTooLong(in.AutomatedSnapshotPauseOptions); long {
		f.crit(CritSnapshotPauseTooLong, "AutomatedSnapshotPauseOptions may suspend snapshots for at most 3 days, not %s.", fmtDuration(d))
	}
	if p := in.AutomatedSnapshotPauseOptions; p != nil && p.Enabled != nil && *p.Enabled {
		f.adv(AdvSnapshotPauseNoRestore, "While automated snapshots are suspended the domain cannot be restored to points in time in that span.")
	}
}

// encryption: encryption at rest and node-to-node, once enabled, stay so.
func (f *findingList) encryption(cur, next map[string]any) {
	if lookupBool(cur, "EncryptionAtRestOptions", "Enabled") && !lookupBool(next, "EncryptionAtRestOptions", "Enabled") {
		f.crit(CritEncryptionAtRestDisable, "EncryptionAtRestOptions cannot be disabled once enabled.")
	}
	if lookupBool(cur, "NodeToNodeEncryptionOptions", "Enabled") && !lookupBool(next, "NodeToNodeEncryptionOptions", "Enabled") {
		f.crit(CritNodeToNodeDisable, "NodeToNodeEncryptionOptions cannot be disabled once enabled.")
	}
}

// advancedOptions checks the access policies against allow_explicit_index,
// and advises bounding the field data cache.
func (f *findingList) advancedOptions(next map[string]any, in *UpdateDomainConfigRequest) {
	if in.AccessPolicies != nil || in.AdvancedOptions != nil {
		// The spec: allow_explicit_index "must be false to set access
		// policies on sub-resources such as specific indexes and domain
		// APIs" (a key left out is at its default, true).
		if sub := subResources(lookupString(next, "AccessPolicies")); len(sub) > 0 && lookupString(next, "AdvancedOptions", advancedOptionAllowExplicitIndex) != "false" {
			f.crit(CritExplicitIndexSubresource, "AccessPolicies names sub-resources of the domain (%s) while AdvancedOptions[%q] is \"true\"; set it to \"false\" in the same change, or grant the whole domain (domain/<name>/*).",
				strings.Join(sub, ", "), advancedOptionAllowExplicitIndex)
		}
	}
	if in.AdvancedOptions != nil {
		switch v := lookupString(next, "AdvancedOptions", advancedOptionFielddataCacheSize); v {
		case "", "unbounded", "100", "100%":
			f.adv(AdvFielddataCacheUnbounded, "AdvancedOptions[%q] is unbounded; set it (for example \"40\") so field data cannot exhaust the heap.", advancedOptionFielddataCacheSize)
		}
	}
}

// subResourceRe matches a domain ARN's path below the domain:
// arn:...:domain/demo/my-index/* has "my-index/*".
var subResourceRe = regexp.MustCompile(`:domain/[^/]+/(.+)$`)

// subResources lists the Resources of a policy document that name a part
// of a domain (an index, a domain API) rather than all of it
// (domain/<name>/*), sorted.
func subResources(policy string) []string {
	var doc struct {
		Statement json.RawMessage `json:"Statement"`
	}
	if policy == "" || json.Unmarshal([]byte(policy), &doc) != nil {
		return nil
	}
	var stmts []map[string]any
	if json.Unmarshal(doc.Statement, &stmts) != nil {
		var one map[string]any
		if json.Unmarshal(doc.Statement, &one) != nil {
			return nil
		}
		stmts = []map[string]any{one}
	}
	seen := map[string]bool{}
	for _, st := range stmts {
		var res []any
		switch r := st["Resource"].(type) {
		case string:
			res = []any{r}
		case []any:
			res = r
		}
		for _, r := range res {
			s, _ := r.(string)
			if m := subResourceRe.FindStringSubmatch(s); m != nil && m[1] != "*" {
				seen[s] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// offPeakWindow describes the domain's off-peak window for a message.
func offPeakWindow(cfg map[string]any) string {
	if !lookupBool(cfg, "OffPeakWindowOptions", "Enabled") {
		return "none is enabled"
	}
	h, _ := lookupNumber(cfg, "OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Hours")
	m, _ := lookupNumber(cfg, "OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Minutes")
	return fmt.Sprintf("%02d:%02d UTC for %g hours", int(h), int(m), offPeakLength.Hours())
}

// inOffPeak reports whether now is within the domain's enabled off-peak
// window (a daily window of offPeakLength from WindowStartTime, UTC).
func inOffPeak(cfg map[string]any, now time.Time) bool {
	if !lookupBool(cfg, "OffPeakWindowOptions", "Enabled") {
		return false
	}
	h, _ := lookupNumber(cfg, "OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Hours")
	m, _ := lookupNumber(cfg, "OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Minutes")
	start := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
	now = now.UTC()
	sinceMidnight := now.Sub(now.Truncate(24 * time.Hour))
	since := (sinceMidnight - start + 24*time.Hour) % (24 * time.Hour)
	return since < offPeakLength
}

// blocking lists the findings that stop a real change: every Critical one
// (and any severity this emulator does not know) and every Advisory one
// whose code is not accepted.
func blocking(fs []finding, accepted []string) []finding {
	var out []finding
	for _, f := range fs {
		if f.Severity == severityAdvisory && slices.Contains(accepted, f.Code) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func describeFindings(fs []finding) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%s (%s): %s", f.Code, f.Severity, f.Message)
	}
	return strings.Join(parts, "; ")
}
