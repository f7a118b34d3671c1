package search

// Sections (and parts of sections) whose shape is the same in requests and
// responses, from the spec's section table. Counts, hours, sizes and
// minutes are whole numbers (int64); timestamps are EpochSeconds.

// ClusterConfig is the cluster's nodes and zones.
type ClusterConfig struct {
	ColdStorageOptions        *EnabledOption       `json:"ColdStorageOptions,omitempty"`
	DedicatedMasterCount      *int64               `json:"DedicatedMasterCount,omitempty"`
	DedicatedMasterEnabled    *bool                `json:"DedicatedMasterEnabled,omitempty"`
	DedicatedMasterType       *string              `json:"DedicatedMasterType,omitempty"`
	InstanceCount             *int64               `json:"InstanceCount,omitempty"`
	InstanceType              *string              `json:"InstanceType,omitempty"`
	MultiAZWithStandbyEnabled *bool                `json:"MultiAZWithStandbyEnabled,omitempty"`
	NodeOptions               []NodeOption         `json:"NodeOptions,omitempty"`
	WarmCount                 *int64               `json:"WarmCount,omitempty"`
	WarmEnabled               *bool                `json:"WarmEnabled,omitempty"`
	WarmType                  *string              `json:"WarmType,omitempty"`
	ZoneAwarenessConfig       *ZoneAwarenessConfig `json:"ZoneAwarenessConfig,omitempty"`
	ZoneAwarenessEnabled      *bool                `json:"ZoneAwarenessEnabled,omitempty"`
}

// EnabledOption is a section part holding only Enabled (cold storage,
// node-to-node encryption, the AIML engines).
type EnabledOption struct {
	Enabled *bool `json:"Enabled,omitempty"`
}

// NodeOption is one entry of ClusterConfig.NodeOptions.
type NodeOption struct {
	NodeType   *string     `json:"NodeType,omitempty"`
	NodeConfig *NodeConfig `json:"NodeConfig,omitempty"`
}

// NodeConfig of a NodeOption.
type NodeConfig struct {
	Count   *int64  `json:"Count,omitempty"`
	Enabled *bool   `json:"Enabled,omitempty"`
	Type    *string `json:"Type,omitempty"`
}

// ZoneAwarenessConfig of ClusterConfig.
type ZoneAwarenessConfig struct {
	AvailabilityZoneCount *int64 `json:"AvailabilityZoneCount,omitempty"`
}

// AutoTuneOptions as sent, and as DomainConfig returns it in Options.
type AutoTuneOptions struct {
	DesiredState         *string                       `json:"DesiredState,omitempty"`
	MaintenanceSchedules []AutoTuneMaintenanceSchedule `json:"MaintenanceSchedules,omitempty"`
	RollbackOnDisable    *string                       `json:"RollbackOnDisable,omitempty"`
	UseOffPeakWindow     *bool                         `json:"UseOffPeakWindow,omitempty"`
}

// AutoTuneMaintenanceSchedule is one maintenance window.
type AutoTuneMaintenanceSchedule struct {
	CronExpressionForRecurrence *string       `json:"CronExpressionForRecurrence,omitempty"`
	Duration                    *Duration     `json:"Duration,omitempty"`
	StartAt                     *EpochSeconds `json:"StartAt,omitempty"`
}

// Duration of a maintenance schedule.
type Duration struct {
	Unit  *string `json:"Unit,omitempty"`
	Value *int64  `json:"Value,omitempty"`
}

// UserPoolAuthOptions is the sign-in for the domain's dashboard interface.
type UserPoolAuthOptions struct {
	Enabled        *bool   `json:"Enabled,omitempty"`
	IdentityPoolId *string `json:"IdentityPoolId,omitempty"` //nolint:revive // the wire name
	RoleArn        *string `json:"RoleArn,omitempty"`
	UserPoolId     *string `json:"UserPoolId,omitempty"` //nolint:revive // the wire name
}

// DeploymentStrategyOptions chooses how changes are deployed.
type DeploymentStrategyOptions struct {
	DeploymentStrategy *string `json:"DeploymentStrategy,omitempty"`
}

// DomainEndpointOptions is HTTPS, TLS and the custom endpoint.
type DomainEndpointOptions struct {
	CustomEndpoint               *string `json:"CustomEndpoint,omitempty"`
	CustomEndpointCertificateArn *string `json:"CustomEndpointCertificateArn,omitempty"`
	CustomEndpointEnabled        *bool   `json:"CustomEndpointEnabled,omitempty"`
	EnforceHTTPS                 *bool   `json:"EnforceHTTPS,omitempty"`
	TLSSecurityPolicy            *string `json:"TLSSecurityPolicy,omitempty"`
}

// BlockVolumeOptions is the data nodes' block storage.
type BlockVolumeOptions struct {
	BlockVolumeEnabled *bool   `json:"BlockVolumeEnabled,omitempty"`
	Iops               *int64  `json:"Iops,omitempty"`
	Throughput         *int64  `json:"Throughput,omitempty"`
	VolumeSize         *int64  `json:"VolumeSize,omitempty"`
	VolumeType         *string `json:"VolumeType,omitempty"`
}

// EncryptionAtRestOptions of the domain's data.
type EncryptionAtRestOptions struct {
	Enabled  *bool   `json:"Enabled,omitempty"`
	KmsKeyId *string `json:"KmsKeyId,omitempty"` //nolint:revive // the wire name
}

// LogPublishingOption is the value of one LogPublishingOptions key.
type LogPublishingOption struct {
	LogsLogGroupArn *string `json:"LogsLogGroupArn,omitempty"`
	Enabled         *bool   `json:"Enabled,omitempty"`
}

// OffPeakWindowOptions is the daily window for blue/green changes.
type OffPeakWindowOptions struct {
	Enabled       *bool          `json:"Enabled,omitempty"`
	OffPeakWindow *OffPeakWindow `json:"OffPeakWindow,omitempty"`
}

// OffPeakWindow of OffPeakWindowOptions.
type OffPeakWindow struct {
	WindowStartTime *WindowStartTime `json:"WindowStartTime,omitempty"`
}

// WindowStartTime is a UTC time of day.
type WindowStartTime struct {
	Hours   *int64 `json:"Hours,omitempty"`
	Minutes *int64 `json:"Minutes,omitempty"`
}

// SnapshotOptions is the hour (UTC) of the daily automated snapshot.
type SnapshotOptions struct {
	AutomatedSnapshotStartHour *int64 `json:"AutomatedSnapshotStartHour,omitempty"`
}

// SoftwareUpdateOptions of the service software.
type SoftwareUpdateOptions struct {
	AutoSoftwareUpdateEnabled            *bool `json:"AutoSoftwareUpdateEnabled,omitempty"`
	UseLatestServiceSoftwareForBlueGreen *bool `json:"UseLatestServiceSoftwareForBlueGreen,omitempty"`
}

// IdentityFederationOptions of AdvancedSecurityOptions.
type IdentityFederationOptions struct {
	Enabled    *bool   `json:"Enabled,omitempty"`
	RolesKey   *string `json:"RolesKey,omitempty"`
	SubjectKey *string `json:"SubjectKey,omitempty"`
}

// JWTOptions of AdvancedSecurityOptions.
type JWTOptions struct {
	Enabled    *bool   `json:"Enabled,omitempty"`
	JwksUrl    *string `json:"JwksUrl,omitempty"` //nolint:revive // the wire name
	PublicKey  *string `json:"PublicKey,omitempty"`
	RolesKey   *string `json:"RolesKey,omitempty"`
	SubjectKey *string `json:"SubjectKey,omitempty"`
}

// SAMLIdp is the SAML identity provider.
type SAMLIdp struct {
	EntityId        *string `json:"EntityId,omitempty"` //nolint:revive // the wire name
	MetadataContent *string `json:"MetadataContent,omitempty"`
}
