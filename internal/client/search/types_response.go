package search

// OptionStatus is the Status of one wrapped DomainConfig section.
type OptionStatus struct {
	CreationDate    *EpochSeconds `json:"CreationDate,omitempty"`
	PendingDeletion *bool         `json:"PendingDeletion,omitempty"`
	State           *string       `json:"State,omitempty"`
	UpdateDate      *EpochSeconds `json:"UpdateDate,omitempty"`
	UpdateVersion   *int64        `json:"UpdateVersion,omitempty"`
}

// AutoTuneStatus is OptionStatus plus the Auto-Tune error.
type AutoTuneStatus struct {
	OptionStatus
	ErrorMessage *string `json:"ErrorMessage,omitempty"`
}

// Wrapped is a DomainConfig section: its value and its status.
type Wrapped[T any] struct {
	Options T            `json:"Options"`
	Status  OptionStatus `json:"Status"`
}

// AutoTuneOptionsStatus is the wrapped Auto-Tune section.
type AutoTuneOptionsStatus struct {
	Options AutoTuneOptions `json:"Options"`
	Status  AutoTuneStatus  `json:"Status"`
}

// DomainConfig is the configuration as UpdateDomainConfig and
// DescribeDomainConfig return it.
type DomainConfig struct {
	AccessPolicies                *Wrapped[string]                         `json:"AccessPolicies,omitempty"`
	AdvancedOptions               *Wrapped[map[string]string]              `json:"AdvancedOptions,omitempty"`
	AdvancedSecurityOptions       *Wrapped[AdvancedSecurityOptions]        `json:"AdvancedSecurityOptions,omitempty"`
	AIMLOptions                   *Wrapped[AIMLOptions]                    `json:"AIMLOptions,omitempty"`
	AutomatedSnapshotPauseOptions *Wrapped[AutomatedSnapshotPauseOptions]  `json:"AutomatedSnapshotPauseOptions,omitempty"`
	AutoTuneOptions               *AutoTuneOptionsStatus                   `json:"AutoTuneOptions,omitempty"`
	ClusterConfig                 *Wrapped[ClusterConfig]                  `json:"ClusterConfig,omitempty"`
	UserPoolAuthOptions           *Wrapped[UserPoolAuthOptions]            `json:"UserPoolAuthOptions,omitempty"`
	DeploymentStrategyOptions     *Wrapped[DeploymentStrategyOptions]      `json:"DeploymentStrategyOptions,omitempty"`
	DomainEndpointOptions         *Wrapped[DomainEndpointOptions]          `json:"DomainEndpointOptions,omitempty"`
	BlockVolumeOptions            *Wrapped[BlockVolumeOptions]             `json:"BlockVolumeOptions,omitempty"`
	EncryptionAtRestOptions       *Wrapped[EncryptionAtRestOptions]        `json:"EncryptionAtRestOptions,omitempty"`
	EngineMode                    *Wrapped[string]                         `json:"EngineMode,omitempty"`
	EngineVersion                 *Wrapped[string]                         `json:"EngineVersion,omitempty"`
	WorkforceIdentityOptions      *Wrapped[WorkforceIdentityOptions]       `json:"WorkforceIdentityOptions,omitempty"`
	IPAddressType                 *Wrapped[string]                         `json:"IPAddressType,omitempty"`
	LogPublishingOptions          *Wrapped[map[string]LogPublishingOption] `json:"LogPublishingOptions,omitempty"`
	NodeToNodeEncryptionOptions   *Wrapped[NodeToNodeEncryptionOptions]    `json:"NodeToNodeEncryptionOptions,omitempty"`
	OffPeakWindowOptions          *Wrapped[OffPeakWindowOptions]           `json:"OffPeakWindowOptions,omitempty"`
	SnapshotOptions               *Wrapped[SnapshotOptions]                `json:"SnapshotOptions,omitempty"`
	SoftwareUpdateOptions         *Wrapped[SoftwareUpdateOptions]          `json:"SoftwareUpdateOptions,omitempty"`
	UseCase                       *Wrapped[string]                         `json:"UseCase,omitempty"`
	VPCOptions                    *Wrapped[VPCDerivedInfo]                 `json:"VPCOptions,omitempty"`

	ChangeProgressDetails *ChangeProgressDetails `json:"ChangeProgressDetails,omitempty"`
	ModifyingProperties   []ModifyingProperty    `json:"ModifyingProperties,omitempty"`
}

// AdvancedSecurityOptions as returned: no MasterUserOptions, and SAML
// without its master user and backend role.
type AdvancedSecurityOptions struct {
	AnonymousAuthDisableDate    *EpochSeconds              `json:"AnonymousAuthDisableDate,omitempty"`
	AnonymousAuthEnabled        *bool                      `json:"AnonymousAuthEnabled,omitempty"`
	Enabled                     *bool                      `json:"Enabled,omitempty"`
	InternalUserDatabaseEnabled *bool                      `json:"InternalUserDatabaseEnabled,omitempty"`
	IdentityFederationOptions   *IdentityFederationOptions `json:"IdentityFederationOptions,omitempty"`
	JWTOptions                  *JWTOptions                `json:"JWTOptions,omitempty"`
	SAMLOptions                 *SAMLOptions               `json:"SAMLOptions,omitempty"`
}

// SAMLOptions as returned.
type SAMLOptions struct {
	Enabled               *bool    `json:"Enabled,omitempty"`
	Idp                   *SAMLIdp `json:"Idp,omitempty"`
	RolesKey              *string  `json:"RolesKey,omitempty"`
	SessionTimeoutMinutes *int64   `json:"SessionTimeoutMinutes,omitempty"`
	SubjectKey            *string  `json:"SubjectKey,omitempty"`
}

// AIMLOptions as returned.
type AIMLOptions struct {
	NaturalLanguageQueryGenerationOptions *NaturalLanguageQueryGeneration `json:"NaturalLanguageQueryGenerationOptions,omitempty"`
	ObjectStoreVectorsEngine              *ObjectStoreVectorsEngine       `json:"ObjectStoreVectorsEngine,omitempty"`
	ServerlessVectorAcceleration          *ServerlessVectorAcceleration   `json:"ServerlessVectorAcceleration,omitempty"`
}

// NaturalLanguageQueryGeneration as returned, with its current state.
type NaturalLanguageQueryGeneration struct {
	CurrentState *string `json:"CurrentState,omitempty"`
	DesiredState *string `json:"DesiredState,omitempty"`
}

// AutomatedSnapshotPauseOptions as returned, with its State.
type AutomatedSnapshotPauseOptions struct {
	Enabled   *bool         `json:"Enabled,omitempty"`
	StartTime *EpochSeconds `json:"StartTime,omitempty"`
	EndTime   *EpochSeconds `json:"EndTime,omitempty"`
	State     *string       `json:"State,omitempty"`
}

// WorkforceIdentityOptions as returned.
type WorkforceIdentityOptions struct {
	EnabledAPIAccess                *bool   `json:"EnabledAPIAccess,omitempty"`
	WorkforceIdentityInstanceARN    *string `json:"WorkforceIdentityInstanceARN,omitempty"`
	WorkforceIdentityInstanceRegion *string `json:"WorkforceIdentityInstanceRegion,omitempty"`
	WorkforceIdentityApplicationARN *string `json:"WorkforceIdentityApplicationARN,omitempty"`
	IdentityStoreId                 *string `json:"IdentityStoreId,omitempty"` //nolint:revive // the wire name
	RolesKey                        *string `json:"RolesKey,omitempty"`
	SubjectKey                      *string `json:"SubjectKey,omitempty"`
}

// VPCDerivedInfo is VPCOptions as returned.
type VPCDerivedInfo struct {
	AvailabilityZones []string `json:"AvailabilityZones,omitempty"`
	EgressEnabled     *bool    `json:"EgressEnabled,omitempty"`
	SecurityGroupIds  []string `json:"SecurityGroupIds,omitempty"` //nolint:revive // the wire name
	SubnetIds         []string `json:"SubnetIds,omitempty"`        //nolint:revive // the wire name
	VPCId             *string  `json:"VPCId,omitempty"`            //nolint:revive // the wire name
}

// ChangeProgressDetails summarises a domain's current change.
type ChangeProgressDetails struct {
	ChangeId           *string       `json:"ChangeId,omitempty"` //nolint:revive // the wire name
	ConfigChangeStatus *string       `json:"ConfigChangeStatus,omitempty"`
	InitiatedBy        *string       `json:"InitiatedBy,omitempty"`
	LastUpdatedTime    *EpochSeconds `json:"LastUpdatedTime,omitempty"`
	Message            *string       `json:"Message,omitempty"`
	StartTime          *EpochSeconds `json:"StartTime,omitempty"`
}

// ModifyingProperty is one property a running change is modifying.
type ModifyingProperty struct {
	ActiveValue  *string `json:"ActiveValue,omitempty"`
	Name         *string `json:"Name,omitempty"`
	PendingValue *string `json:"PendingValue,omitempty"`
	ValueType    *string `json:"ValueType,omitempty"`
}

// ValidationFailure is one finding of a Verbose dry run.
type ValidationFailure struct {
	Code     *string `json:"Code,omitempty"`
	Message  *string `json:"Message,omitempty"`
	Severity *string `json:"Severity,omitempty"`
}

// DryRunProgressStatus is the progress of a dry run.
type DryRunProgressStatus struct {
	AcceptedWarnings   []string            `json:"AcceptedWarnings,omitempty"`
	CreationDate       *string             `json:"CreationDate,omitempty"`
	DryRunId           *string             `json:"DryRunId,omitempty"` //nolint:revive // the wire name
	DryRunStatus       *string             `json:"DryRunStatus,omitempty"`
	UpdateDate         *string             `json:"UpdateDate,omitempty"`
	ValidationFailures []ValidationFailure `json:"ValidationFailures,omitempty"`
}

// DryRunResults is what a dry run found.
type DryRunResults struct {
	DeploymentType *string `json:"DeploymentType,omitempty"`
	Message        *string `json:"Message,omitempty"`
}

// DomainStatus is a domain as a whole, with plain (unwrapped) sections; a
// dry run's DryRunConfig has this shape.
type DomainStatus struct {
	ARN                          *string                 `json:"ARN,omitempty"`
	Created                      *bool                   `json:"Created,omitempty"`
	Deleted                      *bool                   `json:"Deleted,omitempty"`
	DomainEndpointV2HostedZoneId *string                 `json:"DomainEndpointV2HostedZoneId,omitempty"` //nolint:revive // the wire name
	DomainId                     *string                 `json:"DomainId,omitempty"`                     //nolint:revive // the wire name
	DomainName                   *string                 `json:"DomainName,omitempty"`
	DomainProcessingStatus       *string                 `json:"DomainProcessingStatus,omitempty"`
	Endpoint                     *string                 `json:"Endpoint,omitempty"`
	EndpointV2                   *string                 `json:"EndpointV2,omitempty"`
	Endpoints                    map[string]string       `json:"Endpoints,omitempty"`
	EngineMode                   *string                 `json:"EngineMode,omitempty"`
	EngineVersion                *string                 `json:"EngineVersion,omitempty"`
	Processing                   *bool                   `json:"Processing,omitempty"`
	UpgradeProcessing            *bool                   `json:"UpgradeProcessing,omitempty"`
	ServiceSoftwareOptions       *ServiceSoftwareOptions `json:"ServiceSoftwareOptions,omitempty"`
	ChangeProgressDetails        *ChangeProgressDetails  `json:"ChangeProgressDetails,omitempty"`
	ModifyingProperties          []ModifyingProperty     `json:"ModifyingProperties,omitempty"`

	AccessPolicies                *string                        `json:"AccessPolicies,omitempty"`
	AdvancedOptions               map[string]string              `json:"AdvancedOptions,omitempty"`
	AdvancedSecurityOptions       *AdvancedSecurityOptions       `json:"AdvancedSecurityOptions,omitempty"`
	AIMLOptions                   *AIMLOptions                   `json:"AIMLOptions,omitempty"`
	AutomatedSnapshotPauseOptions *AutomatedSnapshotPauseOptions `json:"AutomatedSnapshotPauseOptions,omitempty"`
	AutoTuneOptions               *AutoTuneOptionsOutput         `json:"AutoTuneOptions,omitempty"`
	ClusterConfig                 *ClusterConfig                 `json:"ClusterConfig,omitempty"`
	UserPoolAuthOptions           *UserPoolAuthOptions           `json:"UserPoolAuthOptions,omitempty"`
	DeploymentStrategyOptions     *DeploymentStrategyOptions     `json:"DeploymentStrategyOptions,omitempty"`
	DomainEndpointOptions         *DomainEndpointOptions         `json:"DomainEndpointOptions,omitempty"`
	BlockVolumeOptions            *BlockVolumeOptions            `json:"BlockVolumeOptions,omitempty"`
	EncryptionAtRestOptions       *EncryptionAtRestOptions       `json:"EncryptionAtRestOptions,omitempty"`
	WorkforceIdentityOptions      *WorkforceIdentityOptions      `json:"WorkforceIdentityOptions,omitempty"`
	IPAddressType                 *string                        `json:"IPAddressType,omitempty"`
	LogPublishingOptions          map[string]LogPublishingOption `json:"LogPublishingOptions,omitempty"`
	NodeToNodeEncryptionOptions   *NodeToNodeEncryptionOptions   `json:"NodeToNodeEncryptionOptions,omitempty"`
	OffPeakWindowOptions          *OffPeakWindowOptions          `json:"OffPeakWindowOptions,omitempty"`
	SnapshotOptions               *SnapshotOptions               `json:"SnapshotOptions,omitempty"`
	SoftwareUpdateOptions         *SoftwareUpdateOptions         `json:"SoftwareUpdateOptions,omitempty"`
	UseCase                       *string                        `json:"UseCase,omitempty"`
	VPCOptions                    *VPCDerivedInfo                `json:"VPCOptions,omitempty"`
}

// AutoTuneOptionsOutput is Auto-Tune as a domain status object holds it.
type AutoTuneOptionsOutput struct {
	ErrorMessage     *string `json:"ErrorMessage,omitempty"`
	State            *string `json:"State,omitempty"`
	UseOffPeakWindow *bool   `json:"UseOffPeakWindow,omitempty"`
}

// ServiceSoftwareOptions is the domain's service software version.
type ServiceSoftwareOptions struct {
	AutomatedUpdateDate *EpochSeconds `json:"AutomatedUpdateDate,omitempty"`
	Cancellable         *bool         `json:"Cancellable,omitempty"`
	CurrentVersion      *string       `json:"CurrentVersion,omitempty"`
	Description         *string       `json:"Description,omitempty"`
	NewVersion          *string       `json:"NewVersion,omitempty"`
	OptionalDeployment  *bool         `json:"OptionalDeployment,omitempty"`
	UpdateAvailable     *bool         `json:"UpdateAvailable,omitempty"`
	UpdateStatus        *string       `json:"UpdateStatus,omitempty"`
}

// ChangeProgressStage is one stage of a change.
type ChangeProgressStage struct {
	Description *string       `json:"Description,omitempty"`
	LastUpdated *EpochSeconds `json:"LastUpdated,omitempty"`
	Name        *string       `json:"Name,omitempty"`
	Status      *string       `json:"Status,omitempty"`
}

// ChangeProgressStatus is the progress of a configuration change.
type ChangeProgressStatus struct {
	AcceptedWarnings     []string              `json:"AcceptedWarnings,omitempty"`
	ChangeId             *string               `json:"ChangeId,omitempty"` //nolint:revive // the wire name
	ChangeProgressStages []ChangeProgressStage `json:"ChangeProgressStages,omitempty"`
	CompletedProperties  []string              `json:"CompletedProperties,omitempty"`
	PendingProperties    []string              `json:"PendingProperties,omitempty"`
	ConfigChangeStatus   *string               `json:"ConfigChangeStatus,omitempty"`
	InitiatedBy          *string               `json:"InitiatedBy,omitempty"`
	LastUpdatedTime      *EpochSeconds         `json:"LastUpdatedTime,omitempty"`
	StartTime            *EpochSeconds         `json:"StartTime,omitempty"`
	Status               *string               `json:"Status,omitempty"`
	TotalNumberOfStages  *int64                `json:"TotalNumberOfStages,omitempty"`
	ValidationFailures   []ValidationFailure   `json:"ValidationFailures,omitempty"`
}

// UpdateDomainConfigOutput is the answer of UpdateDomainConfig.
// DryRunProgressStatus and DryRunResults are set for dry runs only.
type UpdateDomainConfigOutput struct {
	DomainConfig         *DomainConfig         `json:"DomainConfig,omitempty"`
	DryRunProgressStatus *DryRunProgressStatus `json:"DryRunProgressStatus,omitempty"`
	DryRunResults        *DryRunResults        `json:"DryRunResults,omitempty"`
}

// DescribeDryRunProgressOutput is the answer of DescribeDryRunProgress.
type DescribeDryRunProgressOutput struct {
	DryRunConfig         *DomainStatus         `json:"DryRunConfig,omitempty"`
	DryRunProgressStatus *DryRunProgressStatus `json:"DryRunProgressStatus,omitempty"`
	DryRunResults        *DryRunResults        `json:"DryRunResults,omitempty"`
}

// DescribeDomainChangeProgressOutput is the answer of
// DescribeDomainChangeProgress.
type DescribeDomainChangeProgressOutput struct {
	ChangeProgressStatus *ChangeProgressStatus `json:"ChangeProgressStatus,omitempty"`
}

// DescribeDomainConfigOutput is the answer of DescribeDomainConfig.
type DescribeDomainConfigOutput struct {
	DomainConfig *DomainConfig `json:"DomainConfig,omitempty"`
}
