package search

// UpdateDomainConfigInput is the request of UpdateDomainConfig. Every member
// is optional; a nil member is not sent.
type UpdateDomainConfigInput struct {
	// DomainName is the path parameter, not part of the body.
	DomainName string `json:"-"`

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
	NodeToNodeEncryptionOptions   *NodeToNodeEncryptionOptions   `json:"NodeToNodeEncryptionOptions,omitempty"`
	OffPeakWindowOptions          *OffPeakWindowOptions          `json:"OffPeakWindowOptions,omitempty"`
	SnapshotOptions               *SnapshotOptions               `json:"SnapshotOptions,omitempty"`
	SoftwareUpdateOptions         *SoftwareUpdateOptions         `json:"SoftwareUpdateOptions,omitempty"`
	UseCase                       *string                        `json:"UseCase,omitempty"`
	VPCOptions                    *VPCOptions                    `json:"VPCOptions,omitempty"`
}

// carriesSecret reports whether the request holds a master user password.
func (in *UpdateDomainConfigInput) carriesSecret() bool {
	a := in.AdvancedSecurityOptions
	return a != nil && a.MasterUserOptions != nil && a.MasterUserOptions.MasterUserPassword != nil
}

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

// MasterUserOptions exists in requests only: the service never returns it.
type MasterUserOptions struct {
	MasterUserARN      *string `json:"MasterUserARN,omitempty"`
	MasterUserName     *string `json:"MasterUserName,omitempty"`
	MasterUserPassword *string `json:"MasterUserPassword,omitempty"`
}

// SAMLOptionsInput is SAML sign-in as sent.
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
	ObjectStoreVectorsEngine              *ObjectStoreVectorsEngine            `json:"ObjectStoreVectorsEngine,omitempty"`
	ServerlessVectorAcceleration          *ServerlessVectorAcceleration        `json:"ServerlessVectorAcceleration,omitempty"`
}

// NaturalLanguageQueryGenerationInput as sent.
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

// VPCOptions as sent.
type VPCOptions struct {
	EgressEnabled    *bool    `json:"EgressEnabled,omitempty"`
	SecurityGroupIds []string `json:"SecurityGroupIds,omitempty"` //nolint:revive // the wire name
	SubnetIds        []string `json:"SubnetIds,omitempty"`        //nolint:revive // the wire name
}
