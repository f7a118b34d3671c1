package search

import "github.com/cloudlabs/terraform-provider-cloud/internal/rules"

// Values the design guide (contributing/design.md) fixes where the spec says
// "not shown". Clients treat a value they do not know conservatively.
const (
	// ChangeProgressStatus.Status (also used for each stage's Status).
	ChangeStatusPending    = "PENDING"
	ChangeStatusProcessing = "PROCESSING"
	ChangeStatusCompleted  = "COMPLETED"
	ChangeStatusFailed     = "FAILED"

	// ConfigChangeStatus.
	ConfigChangeStatusPending          = "Pending"
	ConfigChangeStatusInitializing     = "Initializing"
	ConfigChangeStatusValidating       = "Validating"
	ConfigChangeStatusValidationFailed = "ValidationFailed"
	ConfigChangeStatusApplyingChanges  = "ApplyingChanges"
	ConfigChangeStatusCompleted        = "Completed"
	ConfigChangeStatusPendingUserInput = "PendingUserInput"
	ConfigChangeStatusCancelled        = "Cancelled"

	// DryRunStatus.
	DryRunStatusPending    = "pending"
	DryRunStatusInProgress = "in-progress"
	DryRunStatusCompleted  = "completed"
	DryRunStatusFailed     = "failed"

	// ValidationFailure.Severity.
	SeverityAdvisory = "Advisory"
	SeverityCritical = "Critical"

	// DryRunResults.DeploymentType.
	DeploymentTypeBlueGreen = "blue/green"
	DeploymentTypeDynamic   = "dynamic"
	DeploymentTypeNone      = "none"

	// DryRunMode.
	DryRunModeBasic   = "Basic"
	DryRunModeVerbose = "Verbose"

	// EngineMode.
	EngineModeGeneral   = "GENERAL"
	EngineModeOptimized = "OPTIMIZED"

	// IPAddressType.
	IPAddressTypeIPv4      = "ipv4"
	IPAddressTypeDualstack = "dualstack"

	// UseCase.
	UseCaseSearch        = "SEARCH"
	UseCaseVector        = "VECTOR"
	UseCaseObservability = "OBSERVABILITY"
	UseCaseMixed         = "MIXED"

	// LogPublishingOptions keys.
	LogTypeIndexSlowLogs     = "INDEX_SLOW_LOGS"
	LogTypeSearchSlowLogs    = "SEARCH_SLOW_LOGS"
	LogTypeESApplicationLogs = "ES_APPLICATION_LOGS"
	LogTypeAuditLogs         = "AUDIT_LOGS"

	// DesiredState of Auto-Tune and natural language query generation.
	DesiredStateEnabled  = "ENABLED"
	DesiredStateDisabled = "DISABLED"

	// AutoTuneOptions.RollbackOnDisable.
	RollbackNone    = "NO_ROLLBACK"
	RollbackDefault = "DEFAULT_ROLLBACK"

	// Unit of an Auto-Tune maintenance schedule's Duration.
	DurationUnitHours = "HOURS"

	// AdvancedOptions keys the spec supports.
	AdvancedOptionAllowExplicitIndex = rules.AllowExplicitIndex
	AdvancedOptionFielddataCacheSize = rules.FielddataCacheSize
	AdvancedOptionMaxClauseCount     = rules.MaxClauseCount
)

// Enumerations as lists, for validators.
var (
	EngineModes        = []string{EngineModeGeneral, EngineModeOptimized}
	IPAddressTypes     = []string{IPAddressTypeIPv4, IPAddressTypeDualstack}
	UseCases           = []string{UseCaseSearch, UseCaseVector, UseCaseObservability, UseCaseMixed}
	LogTypes           = []string{LogTypeIndexSlowLogs, LogTypeSearchSlowLogs, LogTypeESApplicationLogs, LogTypeAuditLogs}
	AdvancedOptionKeys = []string{AdvancedOptionAllowExplicitIndex, AdvancedOptionFielddataCacheSize, AdvancedOptionMaxClauseCount}
	DesiredStates      = []string{DesiredStateEnabled, DesiredStateDisabled}
	RollbackOnDisables = []string{RollbackNone, RollbackDefault}
	DurationUnits      = []string{DurationUnitHours}
)

// ChangeRunning reports a ConfigChangeStatus of a change still running.
func ChangeRunning(configChangeStatus string) bool {
	switch configChangeStatus {
	case ConfigChangeStatusPending, ConfigChangeStatusInitializing, ConfigChangeStatusValidating, ConfigChangeStatusApplyingChanges:
		return true
	}
	return false
}

// Engine types of ListDomainNames.
const (
	EngineTypeOpenSearch    = "OpenSearch"
	EngineTypeElasticsearch = "Elasticsearch"
)
