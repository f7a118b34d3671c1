package search

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// The emulator's own wire constants, written from the spec and the design guide (contributing/design.md)
// (which fixes the values the spec leaves "not shown"). They are not taken
// from the client: a wrong constant there must not be mirrored here.

// SigningName is the SigV4 service name of the search service.
const SigningName = "search"

const (
	changeStatusPending    = "PENDING"
	changeStatusProcessing = "PROCESSING"
	changeStatusCompleted  = "COMPLETED"
	changeStatusFailed     = "FAILED"

	configChangePending          = "Pending"
	configChangeValidating       = "Validating"
	configChangeValidationFailed = "ValidationFailed"
	configChangeApplyingChanges  = "ApplyingChanges"
	configChangeCompleted        = "Completed"
	configChangeCancelled        = "Cancelled"

	dryRunStatusPending    = "pending"
	dryRunStatusInProgress = "in-progress"
	dryRunStatusCompleted  = "completed"

	severityAdvisory = "Advisory"
	severityCritical = "Critical"

	deploymentBlueGreen = "blue/green"
	deploymentDynamic   = "dynamic"
	deploymentNone      = "none"

	dryRunModeBasic   = "Basic"
	dryRunModeVerbose = "Verbose"

	engineModeGeneral   = "GENERAL"
	engineModeOptimized = "OPTIMIZED"

	ipv4      = "ipv4"
	dualstack = "dualstack"

	optionStateActive     = "Active"
	optionStateProcessing = "Processing"

	valueTypePlainText       = "PLAIN_TEXT"
	valueTypeStringifiedJSON = "STRINGIFIED_JSON"

	advancedOptionAllowExplicitIndex = rules.AllowExplicitIndex
	advancedOptionFielddataCacheSize = rules.FielddataCacheSize
	advancedOptionMaxClauseCount     = rules.MaxClauseCount
)

var (
	engineModes    = []string{engineModeGeneral, engineModeOptimized}
	ipAddressTypes = []string{ipv4, dualstack}
	useCases       = []string{"SEARCH", "VECTOR", "OBSERVABILITY", "MIXED"}
	dryRunModes    = []string{dryRunModeBasic, dryRunModeVerbose}
	logTypes       = []string{"INDEX_SLOW_LOGS", "SEARCH_SLOW_LOGS", "ES_APPLICATION_LOGS", "AUDIT_LOGS"}
	// The spec leaves these "not shown"; the service's documented values.
	desiredStates      = []string{"ENABLED", "DISABLED"}
	rollbackOnDisables = []string{"NO_ROLLBACK", "DEFAULT_ROLLBACK"}
	durationUnits      = []string{"HOURS"}
)

// enumerations are the request members whose value is one of a list,
// keyed by the member's path (an array's elements as [], as in
// rules.DomainConfig), and the map whose keys are (a map's keys as *).
// checkEnumerations and checkLogTypes refuse by it.
var enumerations = map[string][]string{
	"EngineMode":    engineModes,
	"IPAddressType": ipAddressTypes,
	"UseCase":       useCases,
	"DryRunMode":    dryRunModes,
	"AIMLOptions.NaturalLanguageQueryGenerationOptions.DesiredState": desiredStates,
	"AutoTuneOptions.DesiredState":                                   desiredStates,
	"AutoTuneOptions.RollbackOnDisable":                              rollbackOnDisables,
	"AutoTuneOptions.MaintenanceSchedules[].Duration.Unit":           durationUnits,
	"LogPublishingOptions.*":                                         logTypes,
}

// Enumerations are the values UpdateDomainConfig accepts for each member
// that is one of a list, keyed by the member's path (an array's elements
// as []), so a test can hold the provider's lists to the emulator's as
// sets.
func Enumerations() map[string][]string {
	out := make(map[string][]string, len(enumerations))
	for k, v := range enumerations {
		out[k] = slices.Clone(v)
	}
	return out
}

// validDomainName says which of the spec's rules (rules.DomainName) a
// domain name breaks.
func validDomainName(name string) error {
	r := rules.DomainName
	if n := len(name); !r.Length.Contains(int64(n)) {
		return fmt.Errorf("domain name %q must be %d to %d characters long, it has %d", name, r.Length.Min, r.Length.Max, n)
	}
	if !r.Form.Re.MatchString(name) {
		return fmt.Errorf("domain name %q %s", name, r.Form.Must)
	}
	return nil
}

// validID checks a DryRunId or ChangeId (rules.ChangeID).
func validID(id string) error {
	if rules.ChangeID.CheckString(id) != nil {
		return fmt.Errorf("id %q %s", id, rules.ChangeID.Form.Must)
	}
	return nil
}

// EpochSeconds is the wire's "number (timestamp)": seconds since the epoch,
// a JSON number (never a string).
type EpochSeconds float64

// Time converts to time.Time (UTC).
func (e EpochSeconds) Time() time.Time {
	sec, frac := math.Modf(float64(e))
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

// epoch is a time on the wire, with millisecond precision.
func epoch(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }
