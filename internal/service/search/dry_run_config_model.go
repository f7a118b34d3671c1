package search

import (
	"time"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// The planned configuration of a dry run (its DryRunConfig, a domain status
// object). Pointers, nil slices and nil maps are null in Terraform, so a
// field the service leaves out stays null rather than a made-up zero. The
// section names and nesting are those of cloud_search_domain_config, so a
// module reads the planned configuration the way it writes it.

type plannedDomainModel struct {
	ARN                          *string                       `tfsdk:"arn"`
	Created                      *bool                         `tfsdk:"created"`
	Deleted                      *bool                         `tfsdk:"deleted"`
	DomainEndpointV2HostedZoneID *string                       `tfsdk:"domain_endpoint_v2_hosted_zone_id"`
	DomainID                     *string                       `tfsdk:"domain_id"`
	DomainName                   *string                       `tfsdk:"domain_name"`
	DomainProcessingStatus       *string                       `tfsdk:"domain_processing_status"`
	Endpoint                     *string                       `tfsdk:"endpoint"`
	EndpointV2                   *string                       `tfsdk:"endpoint_v2"`
	Endpoints                    map[string]string             `tfsdk:"endpoints"`
	EngineMode                   *string                       `tfsdk:"engine_mode"`
	EngineVersion                *string                       `tfsdk:"engine_version"`
	Processing                   *bool                         `tfsdk:"processing"`
	UpgradeProcessing            *bool                         `tfsdk:"upgrade_processing"`
	ServiceSoftwareOptions       *plannedServiceSoftware       `tfsdk:"service_software_options"`
	ChangeProgressDetails        *plannedChangeProgressDetails `tfsdk:"change_progress_details"`
	ModifyingProperties          []plannedModifyingProperty    `tfsdk:"modifying_properties"`

	AccessPolicies                *string                         `tfsdk:"access_policies"`
	AdvancedOptions               map[string]string               `tfsdk:"advanced_options"`
	AdvancedSecurityOptions       *plannedAdvancedSecurity        `tfsdk:"advanced_security_options"`
	AIMLOptions                   *plannedAIML                    `tfsdk:"aiml_options"`
	AutomatedSnapshotPauseOptions *plannedSnapshotPause           `tfsdk:"automated_snapshot_pause_options"`
	AutoTuneOptions               *plannedAutoTune                `tfsdk:"auto_tune_options"`
	ClusterConfig                 *plannedClusterConfig           `tfsdk:"cluster_config"`
	UserPoolAuthOptions           *plannedUserPoolAuth            `tfsdk:"user_pool_auth_options"`
	DeploymentStrategyOptions     *plannedDeploymentStrategy      `tfsdk:"deployment_strategy_options"`
	DomainEndpointOptions         *plannedDomainEndpoint          `tfsdk:"domain_endpoint_options"`
	BlockVolumeOptions            *plannedBlockVolume             `tfsdk:"block_volume_options"`
	EncryptionAtRestOptions       *plannedEncryptionAtRest        `tfsdk:"encryption_at_rest_options"`
	WorkforceIdentityOptions      *plannedWorkforceIdentity       `tfsdk:"workforce_identity_options"`
	IPAddressType                 *string                         `tfsdk:"ip_address_type"`
	LogPublishingOptions          map[string]plannedLogPublishing `tfsdk:"log_publishing_options"`
	NodeToNodeEncryptionOptions   *plannedEnabled                 `tfsdk:"node_to_node_encryption_options"`
	OffPeakWindowOptions          *plannedOffPeakWindowOptions    `tfsdk:"off_peak_window_options"`
	SnapshotOptions               *plannedSnapshotOptions         `tfsdk:"snapshot_options"`
	SoftwareUpdateOptions         *plannedSoftwareUpdate          `tfsdk:"software_update_options"`
	UseCase                       *string                         `tfsdk:"use_case"`
	VPCOptions                    *plannedVPC                     `tfsdk:"vpc_options"`
}

type plannedEnabled struct {
	Enabled *bool `tfsdk:"enabled"`
}

type plannedServiceSoftware struct {
	AutomatedUpdateDate *string `tfsdk:"automated_update_date"`
	Cancellable         *bool   `tfsdk:"cancellable"`
	CurrentVersion      *string `tfsdk:"current_version"`
	Description         *string `tfsdk:"description"`
	NewVersion          *string `tfsdk:"new_version"`
	OptionalDeployment  *bool   `tfsdk:"optional_deployment"`
	UpdateAvailable     *bool   `tfsdk:"update_available"`
	UpdateStatus        *string `tfsdk:"update_status"`
}

type plannedChangeProgressDetails struct {
	ChangeID           *string `tfsdk:"change_id"`
	ConfigChangeStatus *string `tfsdk:"config_change_status"`
	InitiatedBy        *string `tfsdk:"initiated_by"`
	LastUpdatedTime    *string `tfsdk:"last_updated_time"`
	Message            *string `tfsdk:"message"`
	StartTime          *string `tfsdk:"start_time"`
}

type plannedModifyingProperty struct {
	ActiveValue  *string `tfsdk:"active_value"`
	Name         *string `tfsdk:"name"`
	PendingValue *string `tfsdk:"pending_value"`
	ValueType    *string `tfsdk:"value_type"`
}

type plannedAdvancedSecurity struct {
	AnonymousAuthDisableDate    *string                    `tfsdk:"anonymous_auth_disable_date"`
	AnonymousAuthEnabled        *bool                      `tfsdk:"anonymous_auth_enabled"`
	Enabled                     *bool                      `tfsdk:"enabled"`
	InternalUserDatabaseEnabled *bool                      `tfsdk:"internal_user_database_enabled"`
	IdentityFederationOptions   *plannedIdentityFederation `tfsdk:"identity_federation_options"`
	JWTOptions                  *plannedJWT                `tfsdk:"jwt_options"`
	SAMLOptions                 *plannedSAML               `tfsdk:"saml_options"`
}

type plannedIdentityFederation struct {
	Enabled    *bool   `tfsdk:"enabled"`
	RolesKey   *string `tfsdk:"roles_key"`
	SubjectKey *string `tfsdk:"subject_key"`
}

type plannedJWT struct {
	Enabled    *bool   `tfsdk:"enabled"`
	JwksURL    *string `tfsdk:"jwks_url"`
	PublicKey  *string `tfsdk:"public_key"`
	RolesKey   *string `tfsdk:"roles_key"`
	SubjectKey *string `tfsdk:"subject_key"`
}

type plannedSAML struct {
	Enabled               *bool           `tfsdk:"enabled"`
	Idp                   *plannedSAMLIdp `tfsdk:"idp"`
	RolesKey              *string         `tfsdk:"roles_key"`
	SessionTimeoutMinutes *int64          `tfsdk:"session_timeout_minutes"`
	SubjectKey            *string         `tfsdk:"subject_key"`
}

type plannedSAMLIdp struct {
	EntityID        *string `tfsdk:"entity_id"`
	MetadataContent *string `tfsdk:"metadata_content"`
}

type plannedAIML struct {
	NaturalLanguageQueryGenerationOptions *plannedNLQG    `tfsdk:"natural_language_query_generation_options"`
	ObjectStoreVectorsEngine              *plannedEnabled `tfsdk:"object_store_vectors_engine"`
	ServerlessVectorAcceleration          *plannedEnabled `tfsdk:"serverless_vector_acceleration"`
}

type plannedNLQG struct {
	DesiredState *string `tfsdk:"desired_state"`
	CurrentState *string `tfsdk:"current_state"`
}

type plannedSnapshotPause struct {
	Enabled   *bool   `tfsdk:"enabled"`
	StartTime *string `tfsdk:"start_time"`
	EndTime   *string `tfsdk:"end_time"`
	State     *string `tfsdk:"state"`
}

type plannedAutoTune struct {
	ErrorMessage     *string `tfsdk:"error_message"`
	State            *string `tfsdk:"state"`
	UseOffPeakWindow *bool   `tfsdk:"use_off_peak_window"`
}

type plannedClusterConfig struct {
	ColdStorageOptions        *plannedEnabled       `tfsdk:"cold_storage_options"`
	DedicatedMasterCount      *int64                `tfsdk:"dedicated_master_count"`
	DedicatedMasterEnabled    *bool                 `tfsdk:"dedicated_master_enabled"`
	DedicatedMasterType       *string               `tfsdk:"dedicated_master_type"`
	InstanceCount             *int64                `tfsdk:"instance_count"`
	InstanceType              *string               `tfsdk:"instance_type"`
	MultiAZWithStandbyEnabled *bool                 `tfsdk:"multi_az_with_standby_enabled"`
	NodeOptions               []plannedNodeOption   `tfsdk:"node_options"`
	WarmCount                 *int64                `tfsdk:"warm_count"`
	WarmEnabled               *bool                 `tfsdk:"warm_enabled"`
	WarmType                  *string               `tfsdk:"warm_type"`
	ZoneAwarenessConfig       *plannedZoneAwareness `tfsdk:"zone_awareness_config"`
	ZoneAwarenessEnabled      *bool                 `tfsdk:"zone_awareness_enabled"`
}

type plannedNodeOption struct {
	NodeType   *string            `tfsdk:"node_type"`
	NodeConfig *plannedNodeConfig `tfsdk:"node_config"`
}

type plannedNodeConfig struct {
	Count   *int64  `tfsdk:"count"`
	Enabled *bool   `tfsdk:"enabled"`
	Type    *string `tfsdk:"type"`
}

type plannedZoneAwareness struct {
	AvailabilityZoneCount *int64 `tfsdk:"availability_zone_count"`
}

type plannedUserPoolAuth struct {
	Enabled        *bool   `tfsdk:"enabled"`
	IdentityPoolID *string `tfsdk:"identity_pool_id"`
	RoleArn        *string `tfsdk:"role_arn"`
	UserPoolID     *string `tfsdk:"user_pool_id"`
}

type plannedDeploymentStrategy struct {
	DeploymentStrategy *string `tfsdk:"deployment_strategy"`
}

type plannedDomainEndpoint struct {
	CustomEndpoint               *string `tfsdk:"custom_endpoint"`
	CustomEndpointCertificateArn *string `tfsdk:"custom_endpoint_certificate_arn"`
	CustomEndpointEnabled        *bool   `tfsdk:"custom_endpoint_enabled"`
	EnforceHTTPS                 *bool   `tfsdk:"enforce_https"`
	TLSSecurityPolicy            *string `tfsdk:"tls_security_policy"`
}

type plannedBlockVolume struct {
	BlockVolumeEnabled *bool   `tfsdk:"block_volume_enabled"`
	Iops               *int64  `tfsdk:"iops"`
	Throughput         *int64  `tfsdk:"throughput"`
	VolumeSize         *int64  `tfsdk:"volume_size"`
	VolumeType         *string `tfsdk:"volume_type"`
}

type plannedEncryptionAtRest struct {
	Enabled  *bool   `tfsdk:"enabled"`
	KmsKeyID *string `tfsdk:"kms_key_id"`
}

type plannedWorkforceIdentity struct {
	EnabledAPIAccess                *bool   `tfsdk:"enabled_api_access"`
	WorkforceIdentityInstanceARN    *string `tfsdk:"workforce_identity_instance_arn"`
	WorkforceIdentityInstanceRegion *string `tfsdk:"workforce_identity_instance_region"`
	RolesKey                        *string `tfsdk:"roles_key"`
	SubjectKey                      *string `tfsdk:"subject_key"`
	WorkforceIdentityApplicationARN *string `tfsdk:"workforce_identity_application_arn"`
	IdentityStoreID                 *string `tfsdk:"identity_store_id"`
}

type plannedLogPublishing struct {
	LogsLogGroupArn *string `tfsdk:"logs_log_group_arn"`
	Enabled         *bool   `tfsdk:"enabled"`
}

type plannedOffPeakWindowOptions struct {
	Enabled       *bool                 `tfsdk:"enabled"`
	OffPeakWindow *plannedOffPeakWindow `tfsdk:"off_peak_window"`
}

type plannedOffPeakWindow struct {
	WindowStartTime *plannedWindowStartTime `tfsdk:"window_start_time"`
}

type plannedWindowStartTime struct {
	Hours   *int64 `tfsdk:"hours"`
	Minutes *int64 `tfsdk:"minutes"`
}

type plannedSnapshotOptions struct {
	AutomatedSnapshotStartHour *int64 `tfsdk:"automated_snapshot_start_hour"`
}

type plannedSoftwareUpdate struct {
	AutoSoftwareUpdateEnabled            *bool `tfsdk:"auto_software_update_enabled"`
	UseLatestServiceSoftwareForBlueGreen *bool `tfsdk:"use_latest_service_software_for_blue_green"`
}

type plannedVPC struct {
	EgressEnabled     *bool    `tfsdk:"egress_enabled"`
	SecurityGroupIDs  []string `tfsdk:"security_group_ids"`
	SubnetIDs         []string `tfsdk:"subnet_ids"`
	AvailabilityZones []string `tfsdk:"availability_zones"`
	VPCID             *string  `tfsdk:"vpc_id"`
}

// dsEpochString turns a wire timestamp into an RFC 3339 string (UTC, whole
// seconds), nil staying nil.
func dsEpochString(e *searchclient.EpochSeconds) *string {
	if e == nil {
		return nil
	}
	s := e.Time().Round(time.Second).Format(time.RFC3339)
	return &s
}

// dsConvert converts a pointer with f, nil staying nil.
func dsConvert[T, U any](in *T, f func(*T) *U) *U {
	if in == nil {
		return nil
	}
	return f(in)
}
