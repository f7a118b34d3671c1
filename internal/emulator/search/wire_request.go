package search

// The request shape of UpdateDomainConfig, member by member from the spec's
// section table (every member optional). strict.go decodes bodies against
// these types: a member they lack is refused, and a member of the response
// shape (wire_status.go) that they lack is named as response-only. A member
// they have that the response shape lacks is write-only: stored nowhere
// readable and never returned.

// UpdateDomainConfigRequest is the body of UpdateDomainConfig.
type UpdateDomainConfigRequest struct {
	AcceptedWarnings              []string                       `json:"AcceptedWarnings,omitempty"`
	AccessPolicies                *string                        `json:"AccessPolicies,omitempty"`
	AdvancedOptions               map[string]string              `json:"AdvancedOptions,omitempty"`
	AdvancedSecurityOptions       *AdvancedSecurityOptionsInput  `json:"AdvancedSecurityOptions,omitempty"`
	AIMLOptions                   *AIMLOptionsInput              `json:"AIMLOptions,omitempty"`
	AutomatedSnapshotPauseOptions *AutomatedSnapshotPauseInput   `json:"AutomatedSnapshotPauseOptions,omitempty"`
	AutoTuneOptions               *AutoTuneOptions               `json:"AutoTuneOptions,omitempty"`
	ClusterConfig                 *ClusterConfig                 `json:"ClusterConfig,omitempty"`
	UserPoolAuthOptions           *UserPoolAuthOptions           `json:"UserPoolAuthOptions,omitempty"`
	DeploymentStrategyOptions     *DeploymentStrategyOptions     `json:"DeploymentStrategyOptions,omitempty"`
	DomainEndpointOptions         *DomainEndpointOptions         `json:"DomainEndpointOptions,omitempty"`
	DryRun                        *bool                          `json:"DryRun,omitempty"`
	DryRunMode                    *string                        `json:"DryRunMode,omitempty"`
	BlockVolumeOptions            *BlockVolumeOptions            `json:"BlockVolumeOptions,omitempty"`
	EncryptionAtRestOptions       *EncryptionAtRestOptions       `json:"EncryptionAtRestOptions,omitempty"`
	EngineMode                    *string                        `json:"EngineMode,omitempty"`
	WorkforceIdentityOptions      *WorkforceIdentityOptionsInput `json:"WorkforceIdentityOptions,omitempty"`
	IPAddressType                 *string                        `json:"IPAddressType,omitempty"`
	LogPublishingOptions          map[string]LogPublishingOption `json:"LogPublishingOptions,omitempty"`
	NodeToNodeEncryptionOptions   *EnabledOption                 `json:"NodeToNodeEncryptionOptions,omitempty"`
	OffPeakWindowOptions          *OffPeakWindowOptions          `json:"OffPeakWindowOptions,omitempty"`
	SnapshotOptions               *SnapshotOptions               `json:"SnapshotOptions,omitempty"`
	SoftwareUpdateOptions         *SoftwareUpdateOptions         `json:"SoftwareUpdateOptions,omitempty"`
	UseCase                       *string                        `json:"UseCase,omitempty"`
	VPCOptions                    *VPCOptionsInput               `json:"VPCOptions,omitempty"`
}

// controlMembers steer the request; they are not configuration.
var controlMembers = map[string]bool{"AcceptedWarnings": true, "DryRun": true, "DryRunMode": true}

// AdvancedSecurityOptionsInput is fine-grained access control as sent.
type AdvancedSecurityOptionsInput struct {
	AnonymousAuthEnabled        *bool                      `json:"AnonymousAuthEnabled,omitempty"`
	Enabled                     *bool                      `json:"Enabled,omitempty"`
	InternalUserDatabaseEnabled *bool                      `json:"InternalUserDatabaseEnabled,omitempty"`
	IdentityFederationOptions   *IdentityFederationOptions `json:"IdentityFederationOptions,omitempty"`
	JWTOptions                  *JWTOptions                `json:"JWTOptions,omitempty"`
	MasterUserOptions           *MasterUserOptions         `json:"MasterUserOptions,omitempty"`
	SAMLOptions                 *SAMLOptionsInput          `json:"SAMLOptions,omitempty"`
}

// MasterUserOptions is write-only: responses omit it.
type MasterUserOptions struct {
	MasterUserARN      *string `json:"MasterUserARN,omitempty"`
	MasterUserName     *string `json:"MasterUserName,omitempty"`
	MasterUserPassword *string `json:"MasterUserPassword,omitempty"`
}

// SAMLOptionsInput is SAML sign-in as sent; MasterBackendRole and
// MasterUserName are write-only.
type SAMLOptionsInput struct {
	Enabled               *bool    `json:"Enabled,omitempty"`
	Idp                   *SAMLIdp `json:"Idp,omitempty"`
	MasterBackendRole     *string  `json:"MasterBackendRole,omitempty"`
	MasterUserName        *string  `json:"MasterUserName,omitempty"`
	RolesKey              *string  `json:"RolesKey,omitempty"`
	SessionTimeoutMinutes *int64   `json:"SessionTimeoutMinutes,omitempty"`
	SubjectKey            *string  `json:"SubjectKey,omitempty"`
}

// AIMLOptionsInput as sent.
type AIMLOptionsInput struct {
	NaturalLanguageQueryGenerationOptions *NaturalLanguageQueryGenerationInput `json:"NaturalLanguageQueryGenerationOptions,omitempty"`
	ObjectStoreVectorsEngine              *EnabledOption                       `json:"ObjectStoreVectorsEngine,omitempty"`
	ServerlessVectorAcceleration          *EnabledOption                       `json:"ServerlessVectorAcceleration,omitempty"`
}

// NaturalLanguageQueryGenerationInput as sent (no CurrentState).
type NaturalLanguageQueryGenerationInput struct {
	DesiredState *string `json:"DesiredState,omitempty"`
}

// AutomatedSnapshotPauseInput suspends automated snapshots (at most 3 days).
type AutomatedSnapshotPauseInput struct {
	Enabled   *bool         `json:"Enabled,omitempty"`
	StartTime *EpochSeconds `json:"StartTime,omitempty"`
	EndTime   *EpochSeconds `json:"EndTime,omitempty"`
}

// WorkforceIdentityOptionsInput as sent.
type WorkforceIdentityOptionsInput struct {
	EnabledAPIAccess                *bool   `json:"EnabledAPIAccess,omitempty"`
	WorkforceIdentityInstanceARN    *string `json:"WorkforceIdentityInstanceARN,omitempty"`
	WorkforceIdentityInstanceRegion *string `json:"WorkforceIdentityInstanceRegion,omitempty"`
	RolesKey                        *string `json:"RolesKey,omitempty"`
	SubjectKey                      *string `json:"SubjectKey,omitempty"`
}

// VPCOptionsInput as sent.
type VPCOptionsInput struct {
	EgressEnabled    *bool    `json:"EgressEnabled,omitempty"`
	SecurityGroupIds []string `json:"SecurityGroupIds,omitempty"` //nolint:revive // the wire name
	SubnetIds        []string `json:"SubnetIds,omitempty"`        //nolint:revive // the wire name
}
