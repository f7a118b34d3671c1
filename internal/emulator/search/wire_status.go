package search

// The response shape: the domain status object (DryRunConfig, and what
// Domain returns), from the spec's "Sections in responses" and "DryRunConfig"
// sections. DomainConfig wraps the same section values in {Options, Status},
// except that its AutoTuneOptions.Options keeps the request shape.

// DomainStatus is the domain status object.
type DomainStatus struct {
	AccessPolicies                *string                        `json:"AccessPolicies,omitempty"`
	AdvancedOptions               map[string]string              `json:"AdvancedOptions,omitempty"`
	AdvancedSecurityOptions       *AdvancedSecurityOptions       `json:"AdvancedSecurityOptions,omitempty"`
	AIMLOptions                   *AIMLOptions                   `json:"AIMLOptions,omitempty"`
	AutomatedSnapshotPauseOptions *AutomatedSnapshotPauseOptions `json:"AutomatedSnapshotPauseOptions,omitempty"`
	AutoTuneOptions               *AutoTuneStatus                `json:"AutoTuneOptions,omitempty"`
	ClusterConfig                 *ClusterConfig                 `json:"ClusterConfig,omitempty"`
	UserPoolAuthOptions           *UserPoolAuthOptions           `json:"UserPoolAuthOptions,omitempty"`
	DeploymentStrategyOptions     *DeploymentStrategyOptions     `json:"DeploymentStrategyOptions,omitempty"`
	DomainEndpointOptions         *DomainEndpointOptions         `json:"DomainEndpointOptions,omitempty"`
	BlockVolumeOptions            *BlockVolumeOptions            `json:"BlockVolumeOptions,omitempty"`
	EncryptionAtRestOptions       *EncryptionAtRestOptions       `json:"EncryptionAtRestOptions,omitempty"`
	EngineMode                    *string                        `json:"EngineMode,omitempty"`
	EngineVersion                 *string                        `json:"EngineVersion,omitempty"`
	WorkforceIdentityOptions      *WorkforceIdentityOptions      `json:"WorkforceIdentityOptions,omitempty"`
	IPAddressType                 *string                        `json:"IPAddressType,omitempty"`
	LogPublishingOptions          map[string]LogPublishingOption `json:"LogPublishingOptions,omitempty"`
	NodeToNodeEncryptionOptions   *EnabledOption                 `json:"NodeToNodeEncryptionOptions,omitempty"`
	OffPeakWindowOptions          *OffPeakWindowOptions          `json:"OffPeakWindowOptions,omitempty"`
	SnapshotOptions               *SnapshotOptions               `json:"SnapshotOptions,omitempty"`
	SoftwareUpdateOptions         *SoftwareUpdateOptions         `json:"SoftwareUpdateOptions,omitempty"`
	UseCase                       *string                        `json:"UseCase,omitempty"`
	VPCOptions                    *VPCDerivedInfo                `json:"VPCOptions,omitempty"`

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
	Processing                   *bool                   `json:"Processing,omitempty"`
	UpgradeProcessing            *bool                   `json:"UpgradeProcessing,omitempty"`
	ChangeProgressDetails        *ChangeProgressDetails  `json:"ChangeProgressDetails,omitempty"`
	ModifyingProperties          []ModifyingProperty     `json:"ModifyingProperties,omitempty"`
	ServiceSoftwareOptions       *ServiceSoftwareOptions `json:"ServiceSoftwareOptions,omitempty"`
}

// AdvancedSecurityOptions as returned: AnonymousAuthDisableDate added,
// MasterUserOptions left out.
type AdvancedSecurityOptions struct {
	AnonymousAuthDisableDate    *EpochSeconds              `json:"AnonymousAuthDisableDate,omitempty"`
	AnonymousAuthEnabled        *bool                      `json:"AnonymousAuthEnabled,omitempty"`
	Enabled                     *bool                      `json:"Enabled,omitempty"`
	InternalUserDatabaseEnabled *bool                      `json:"InternalUserDatabaseEnabled,omitempty"`
	IdentityFederationOptions   *IdentityFederationOptions `json:"IdentityFederationOptions,omitempty"`
	JWTOptions                  *JWTOptions                `json:"JWTOptions,omitempty"`
	SAMLOptions                 *SAMLOptions               `json:"SAMLOptions,omitempty"`
}

// SAMLOptions as returned: no MasterBackendRole, no MasterUserName.
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
	ObjectStoreVectorsEngine              *EnabledOption                  `json:"ObjectStoreVectorsEngine,omitempty"`
	ServerlessVectorAcceleration          *EnabledOption                  `json:"ServerlessVectorAcceleration,omitempty"`
}

// NaturalLanguageQueryGeneration as returned: CurrentState added.
type NaturalLanguageQueryGeneration struct {
	CurrentState *string `json:"CurrentState,omitempty"`
	DesiredState *string `json:"DesiredState,omitempty"`
}

// AutomatedSnapshotPauseOptions as returned: State added.
type AutomatedSnapshotPauseOptions struct {
	Enabled   *bool         `json:"Enabled,omitempty"`
	StartTime *EpochSeconds `json:"StartTime,omitempty"`
	EndTime   *EpochSeconds `json:"EndTime,omitempty"`
	State     *string       `json:"State,omitempty"`
}

// AutoTuneStatus is AutoTuneOptions in the domain status object.
type AutoTuneStatus struct {
	ErrorMessage     *string `json:"ErrorMessage,omitempty"`
	State            *string `json:"State,omitempty"`
	UseOffPeakWindow *bool   `json:"UseOffPeakWindow,omitempty"`
}

// WorkforceIdentityOptions as returned: the application and store added.
type WorkforceIdentityOptions struct {
	EnabledAPIAccess                *bool   `json:"EnabledAPIAccess,omitempty"`
	WorkforceIdentityInstanceARN    *string `json:"WorkforceIdentityInstanceARN,omitempty"`
	WorkforceIdentityInstanceRegion *string `json:"WorkforceIdentityInstanceRegion,omitempty"`
	WorkforceIdentityApplicationARN *string `json:"WorkforceIdentityApplicationARN,omitempty"`
	IdentityStoreId                 *string `json:"IdentityStoreId,omitempty"` //nolint:revive // the wire name
	RolesKey                        *string `json:"RolesKey,omitempty"`
	SubjectKey                      *string `json:"SubjectKey,omitempty"`
}

// VPCDerivedInfo is VPCOptions as returned: zones and VPC added.
type VPCDerivedInfo struct {
	AvailabilityZones []string `json:"AvailabilityZones,omitempty"`
	EgressEnabled     *bool    `json:"EgressEnabled,omitempty"`
	SecurityGroupIds  []string `json:"SecurityGroupIds,omitempty"` //nolint:revive // the wire name
	SubnetIds         []string `json:"SubnetIds,omitempty"`        //nolint:revive // the wire name
	VPCId             *string  `json:"VPCId,omitempty"`            //nolint:revive // the wire name
}

// ChangeProgressDetails names a domain's most recent change.
type ChangeProgressDetails struct {
	ChangeId           *string       `json:"ChangeId,omitempty"` //nolint:revive // the wire name
	ConfigChangeStatus *string       `json:"ConfigChangeStatus,omitempty"`
	InitiatedBy        *string       `json:"InitiatedBy,omitempty"`
	LastUpdatedTime    *EpochSeconds `json:"LastUpdatedTime,omitempty"`
	Message            *string       `json:"Message,omitempty"`
	StartTime          *EpochSeconds `json:"StartTime,omitempty"`
}

// ModifyingProperty is one property a change (or a dry run) modifies.
// ActiveValue and PendingValue are absent for a write-only property.
type ModifyingProperty struct {
	ActiveValue  *string `json:"ActiveValue,omitempty"`
	Name         *string `json:"Name,omitempty"`
	PendingValue *string `json:"PendingValue,omitempty"`
	ValueType    *string `json:"ValueType,omitempty"`
}

// ServiceSoftwareOptions of the domain status object.
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
