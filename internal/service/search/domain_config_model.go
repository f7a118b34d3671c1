package search

import (
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// domainConfigModel is cloud_search_domain_config. Each configuration
// section is a pointer: nil when neither the configuration nor the state
// holds it.
type domainConfigModel struct {
	ID         types.String `tfsdk:"id"`
	DomainName types.String `tfsdk:"domain_name"`

	AccessPolicies                jsontypes.Normalized           `tfsdk:"access_policies"`
	AdvancedOptions               types.Map                      `tfsdk:"advanced_options"`
	AdvancedSecurityOptions       *advancedSecurityOptionsModel  `tfsdk:"advanced_security_options"`
	AIMLOptions                   *aimlOptionsModel              `tfsdk:"aiml_options"`
	AutomatedSnapshotPauseOptions *snapshotPauseModel            `tfsdk:"automated_snapshot_pause_options"`
	AutoTuneOptions               *autoTuneOptionsModel          `tfsdk:"auto_tune_options"`
	ClusterConfig                 *clusterConfigModel            `tfsdk:"cluster_config"`
	UserPoolAuthOptions           *userPoolAuthOptionsModel      `tfsdk:"user_pool_auth_options"`
	DeploymentStrategyOptions     *deploymentStrategyModel       `tfsdk:"deployment_strategy_options"`
	DomainEndpointOptions         *domainEndpointOptionsModel    `tfsdk:"domain_endpoint_options"`
	BlockVolumeOptions            *blockVolumeOptionsModel       `tfsdk:"block_volume_options"`
	EncryptionAtRestOptions       *encryptionAtRestModel         `tfsdk:"encryption_at_rest_options"`
	EngineMode                    types.String                   `tfsdk:"engine_mode"`
	EngineVersion                 types.String                   `tfsdk:"engine_version"`
	WorkforceIdentityOptions      *workforceIdentityOptionsModel `tfsdk:"workforce_identity_options"`
	IPAddressType                 types.String                   `tfsdk:"ip_address_type"`
	LogPublishingOptions          map[string]logPublishingModel  `tfsdk:"log_publishing_options"`
	NodeToNodeEncryptionOptions   *enabledModel                  `tfsdk:"node_to_node_encryption_options"`
	OffPeakWindowOptions          *offPeakWindowOptionsModel     `tfsdk:"off_peak_window_options"`
	SnapshotOptions               *snapshotOptionsModel          `tfsdk:"snapshot_options"`
	SoftwareUpdateOptions         *softwareUpdateOptionsModel    `tfsdk:"software_update_options"`
	UseCase                       types.String                   `tfsdk:"use_case"`
	VPCOptions                    *vpcOptionsModel               `tfsdk:"vpc_options"`

	MasterUserPasswordWO        types.String `tfsdk:"master_user_password_wo"`
	MasterUserPasswordWOVersion types.Int64  `tfsdk:"master_user_password_wo_version"`

	AcceptedWarnings  types.Set    `tfsdk:"accepted_warnings"`
	AllowBlueGreen    types.Bool   `tfsdk:"allow_blue_green"`
	DryRunMode        types.String `tfsdk:"dry_run_mode"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`

	DryRun             types.Object   `tfsdk:"dry_run"`
	ChangeID           types.String   `tfsdk:"change_id"`
	ConfigChangeStatus types.String   `tfsdk:"config_change_status"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
}

type enabledModel struct {
	Enabled types.Bool `tfsdk:"enabled"`
}

type advancedSecurityOptionsModel struct {
	AnonymousAuthDisableDate    types.String                    `tfsdk:"anonymous_auth_disable_date"`
	AnonymousAuthEnabled        types.Bool                      `tfsdk:"anonymous_auth_enabled"`
	Enabled                     types.Bool                      `tfsdk:"enabled"`
	InternalUserDatabaseEnabled types.Bool                      `tfsdk:"internal_user_database_enabled"`
	IdentityFederationOptions   *identityFederationOptionsModel `tfsdk:"identity_federation_options"`
	JWTOptions                  *jwtOptionsModel                `tfsdk:"jwt_options"`
	MasterUserOptions           *masterUserOptionsModel         `tfsdk:"master_user_options"`
	SAMLOptions                 *samlOptionsModel               `tfsdk:"saml_options"`
}

type identityFederationOptionsModel struct {
	Enabled    types.Bool   `tfsdk:"enabled"`
	RolesKey   types.String `tfsdk:"roles_key"`
	SubjectKey types.String `tfsdk:"subject_key"`
}

type jwtOptionsModel struct {
	Enabled    types.Bool   `tfsdk:"enabled"`
	JwksURL    types.String `tfsdk:"jwks_url"`
	PublicKey  types.String `tfsdk:"public_key"`
	RolesKey   types.String `tfsdk:"roles_key"`
	SubjectKey types.String `tfsdk:"subject_key"`
}

type masterUserOptionsModel struct {
	MasterUserARN      types.String `tfsdk:"master_user_arn"`
	MasterUserName     types.String `tfsdk:"master_user_name"`
	MasterUserPassword types.String `tfsdk:"master_user_password"`
}

type samlOptionsModel struct {
	Enabled               types.Bool    `tfsdk:"enabled"`
	Idp                   *samlIdpModel `tfsdk:"idp"`
	MasterBackendRole     types.String  `tfsdk:"master_backend_role"`
	MasterUserName        types.String  `tfsdk:"master_user_name"`
	RolesKey              types.String  `tfsdk:"roles_key"`
	SessionTimeoutMinutes types.Int64   `tfsdk:"session_timeout_minutes"`
	SubjectKey            types.String  `tfsdk:"subject_key"`
}

type samlIdpModel struct {
	EntityID        types.String `tfsdk:"entity_id"`
	MetadataContent types.String `tfsdk:"metadata_content"`
}

type aimlOptionsModel struct {
	NaturalLanguageQueryGenerationOptions *nlqGenerationModel `tfsdk:"natural_language_query_generation_options"`
	ObjectStoreVectorsEngine              *enabledModel       `tfsdk:"object_store_vectors_engine"`
	ServerlessVectorAcceleration          *enabledModel       `tfsdk:"serverless_vector_acceleration"`
}

type nlqGenerationModel struct {
	DesiredState types.String `tfsdk:"desired_state"`
	CurrentState types.String `tfsdk:"current_state"`
}

type snapshotPauseModel struct {
	Enabled   types.Bool   `tfsdk:"enabled"`
	StartTime types.String `tfsdk:"start_time"`
	EndTime   types.String `tfsdk:"end_time"`
	State     types.String `tfsdk:"state"`
}

type autoTuneOptionsModel struct {
	DesiredState         types.String               `tfsdk:"desired_state"`
	MaintenanceSchedules []maintenanceScheduleModel `tfsdk:"maintenance_schedules"`
	RollbackOnDisable    types.String               `tfsdk:"rollback_on_disable"`
	UseOffPeakWindow     types.Bool                 `tfsdk:"use_off_peak_window"`
}

type maintenanceScheduleModel struct {
	CronExpressionForRecurrence types.String   `tfsdk:"cron_expression_for_recurrence"`
	Duration                    *durationModel `tfsdk:"duration"`
	StartAt                     types.String   `tfsdk:"start_at"`
}

type durationModel struct {
	Unit  types.String `tfsdk:"unit"`
	Value types.Int64  `tfsdk:"value"`
}

type clusterConfigModel struct {
	ColdStorageOptions        *enabledModel             `tfsdk:"cold_storage_options"`
	DedicatedMasterCount      types.Int64               `tfsdk:"dedicated_master_count"`
	DedicatedMasterEnabled    types.Bool                `tfsdk:"dedicated_master_enabled"`
	DedicatedMasterType       types.String              `tfsdk:"dedicated_master_type"`
	InstanceCount             types.Int64               `tfsdk:"instance_count"`
	InstanceType              types.String              `tfsdk:"instance_type"`
	MultiAZWithStandbyEnabled types.Bool                `tfsdk:"multi_az_with_standby_enabled"`
	NodeOptions               []nodeOptionModel         `tfsdk:"node_options"`
	WarmCount                 types.Int64               `tfsdk:"warm_count"`
	WarmEnabled               types.Bool                `tfsdk:"warm_enabled"`
	WarmType                  types.String              `tfsdk:"warm_type"`
	ZoneAwarenessConfig       *zoneAwarenessConfigModel `tfsdk:"zone_awareness_config"`
	ZoneAwarenessEnabled      types.Bool                `tfsdk:"zone_awareness_enabled"`
}

type nodeOptionModel struct {
	NodeType   types.String     `tfsdk:"node_type"`
	NodeConfig *nodeConfigModel `tfsdk:"node_config"`
}

type nodeConfigModel struct {
	Count   types.Int64  `tfsdk:"count"`
	Enabled types.Bool   `tfsdk:"enabled"`
	Type    types.String `tfsdk:"type"`
}

type zoneAwarenessConfigModel struct {
	AvailabilityZoneCount types.Int64 `tfsdk:"availability_zone_count"`
}

type userPoolAuthOptionsModel struct {
	Enabled        types.Bool   `tfsdk:"enabled"`
	IdentityPoolID types.String `tfsdk:"identity_pool_id"`
	RoleARN        types.String `tfsdk:"role_arn"`
	UserPoolID     types.String `tfsdk:"user_pool_id"`
}

type deploymentStrategyModel struct {
	DeploymentStrategy types.String `tfsdk:"deployment_strategy"`
}

type domainEndpointOptionsModel struct {
	CustomEndpoint               types.String `tfsdk:"custom_endpoint"`
	CustomEndpointCertificateARN types.String `tfsdk:"custom_endpoint_certificate_arn"`
	CustomEndpointEnabled        types.Bool   `tfsdk:"custom_endpoint_enabled"`
	EnforceHTTPS                 types.Bool   `tfsdk:"enforce_https"`
	TLSSecurityPolicy            types.String `tfsdk:"tls_security_policy"`
}

type blockVolumeOptionsModel struct {
	BlockVolumeEnabled types.Bool   `tfsdk:"block_volume_enabled"`
	Iops               types.Int64  `tfsdk:"iops"`
	Throughput         types.Int64  `tfsdk:"throughput"`
	VolumeSize         types.Int64  `tfsdk:"volume_size"`
	VolumeType         types.String `tfsdk:"volume_type"`
}

type encryptionAtRestModel struct {
	Enabled  types.Bool   `tfsdk:"enabled"`
	KmsKeyID types.String `tfsdk:"kms_key_id"`
}

type workforceIdentityOptionsModel struct {
	EnabledAPIAccess                types.Bool   `tfsdk:"enabled_api_access"`
	WorkforceIdentityInstanceARN    types.String `tfsdk:"workforce_identity_instance_arn"`
	WorkforceIdentityInstanceRegion types.String `tfsdk:"workforce_identity_instance_region"`
	RolesKey                        types.String `tfsdk:"roles_key"`
	SubjectKey                      types.String `tfsdk:"subject_key"`
	WorkforceIdentityApplicationARN types.String `tfsdk:"workforce_identity_application_arn"`
	IdentityStoreID                 types.String `tfsdk:"identity_store_id"`
}

type logPublishingModel struct {
	LogsLogGroupARN types.String `tfsdk:"logs_log_group_arn"`
	Enabled         types.Bool   `tfsdk:"enabled"`
}

type offPeakWindowOptionsModel struct {
	Enabled       types.Bool          `tfsdk:"enabled"`
	OffPeakWindow *offPeakWindowModel `tfsdk:"off_peak_window"`
}

type offPeakWindowModel struct {
	WindowStartTime *windowStartTimeModel `tfsdk:"window_start_time"`
}

type windowStartTimeModel struct {
	Hours   types.Int64 `tfsdk:"hours"`
	Minutes types.Int64 `tfsdk:"minutes"`
}

type snapshotOptionsModel struct {
	AutomatedSnapshotStartHour types.Int64 `tfsdk:"automated_snapshot_start_hour"`
}

type softwareUpdateOptionsModel struct {
	AutoSoftwareUpdateEnabled            types.Bool `tfsdk:"auto_software_update_enabled"`
	UseLatestServiceSoftwareForBlueGreen types.Bool `tfsdk:"use_latest_service_software_for_blue_green"`
}

type vpcOptionsModel struct {
	EgressEnabled     types.Bool   `tfsdk:"egress_enabled"`
	SecurityGroupIDs  types.Set    `tfsdk:"security_group_ids"`
	SubnetIDs         types.Set    `tfsdk:"subnet_ids"`
	AvailabilityZones types.Set    `tfsdk:"availability_zones"`
	VPCID             types.String `tfsdk:"vpc_id"`
}
