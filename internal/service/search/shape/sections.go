package shape

import (
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// The spec's section table, written with the builders of builders.go.

// sections are the configuration sections of UpdateDomainConfig and of a
// DomainConfig answer, in the spec's order; dryRunConfig is a dry run's
// DryRunConfig. Built once, with their Terraform types, on first use: about
// 1 ms, which a provider process that serves no domain (two of the three a
// plan of other resources starts) need not spend. Read only.
var (
	sections     = sync.OnceValue(func() []field { return finished(ruled(sectionTable())) })
	dryRunConfig = sync.OnceValue(func() *field {
		return finishedObject(object("DryRunConfig", "", dryRunConfigTable(sections())...))
	})
)

func finishedObject(f field) *field {
	f.finish()
	return &f
}

// finished is fields with their Terraform types derived (field.finish).
func finished(fields []field) []field {
	for i := range fields {
		fields[i].finish()
	}
	return fields
}

func sectionTable() []field {
	return []field{
		policy("AccessPolicies", "The domain's access policy, a JSON policy document (an object; an empty string is allowed). Compared by meaning, not by text.",
			validators.JSONObject()),
		stringMap("AdvancedOptions", "Advanced cluster settings; values are strings. Supported keys: `rest.action.multi.allow_explicit_index` (`true` or `false`, default `true`), `indices.fielddata.cache.size` (percentage of heap, such as `40` or `40%`, or `unbounded`, the default), `indices.query.bool.max_clause_count` (a number from 1 to 2147483647, default `1024`). Only the keys the configuration sets are compared; a key set to its default is no change on a domain that does not set it.",
			mapvalidator.KeysAre(stringvalidator.OneOf(rules.AdvancedOptionKeys...)), validators.AdvancedOptionValues(),
		).withDefaults(rules.AdvancedOptionDefaults()),
		object("AdvancedSecurityOptions", "Fine-grained access control.",
			timestamp("AnonymousAuthDisableDate", "When anonymous access is to be turned off").only(returned),
			boolean("AnonymousAuthEnabled", "Whether anonymous access is allowed during the migration to fine-grained access control."),
			boolean("Enabled", "Whether fine-grained access control is enabled."),
			boolean("InternalUserDatabaseEnabled", "Whether the internal user database is enabled."),
			object("IdentityFederationOptions", "Identity federation sign-in.",
				boolean("Enabled", "Whether identity federation is enabled."),
				str("RolesKey", "Claim that holds the roles."),
				str("SubjectKey", "Claim that holds the subject."),
			),
			object("JWTOptions", "JSON Web Token sign-in.",
				boolean("Enabled", "Whether JWT sign-in is enabled."),
				str("JwksUrl", "URL of the JSON Web Key Set."),
				str("PublicKey", "Public key that verifies tokens."),
				str("RolesKey", "Claim that holds the roles."),
				str("SubjectKey", "Claim that holds the subject."),
			),
			object("MasterUserOptions", "The master user. The service never returns these values, so they are kept as configured. Prefer `master_user_password_wo` for the password.",
				str("MasterUserARN", "ARN of the master user (instead of a name and password)."),
				str("MasterUserName", "Name of the master user in the internal user database."),
				str("MasterUserPassword", "Password of the master user, stored in state (Sensitive); use `master_user_password_wo` to keep it out of state.").secret(),
			).only(sendOnly),
			object("SAMLOptions", "SAML sign-in for the dashboard.",
				boolean("Enabled", "Whether SAML sign-in is enabled."),
				object("Idp", "The SAML identity provider.",
					str("EntityId", "Entity id of the identity provider."),
					str("MetadataContent", "Metadata XML of the identity provider."),
				),
				str("MasterBackendRole", "Backend role of the SAML master user (not returned by the service; kept as configured).").only(sendOnly),
				str("MasterUserName", "SAML master user name (not returned by the service; kept as configured).").only(sendOnly),
				str("RolesKey", "SAML attribute that holds the roles."),
				integer("SessionTimeoutMinutes", "Session duration in minutes."),
				str("SubjectKey", "SAML attribute that holds the subject."),
			),
		),
		object("AIMLOptions", "Machine learning features.",
			object("NaturalLanguageQueryGenerationOptions", "Natural language query generation.",
				enum("DesiredState", "The wanted state.", searchclient.DesiredStates),
				str("CurrentState", "The feature's current state.").only(returned),
			),
			enabled("ObjectStoreVectorsEngine", "The object-store vector engine."),
			enabled("ServerlessVectorAcceleration", "Serverless vector acceleration."),
		),
		object("AutomatedSnapshotPauseOptions", "Suspends automated snapshots for at most 3 days; while they are suspended the domain cannot be restored to points in that span.",
			boolean("Enabled", "Whether automated snapshots are suspended; `true` needs `start_time` and `end_time`."),
			timestamp("StartTime", "Start of the suspension"),
			timestamp("EndTime", "End of the suspension, at most 3 days after `start_time`"),
			str("State", "The suspension's state.").only(returned),
		).check(validators.SnapshotPauseWindow()),
		object("AutoTuneOptions", "Auto-Tune.",
			enum("DesiredState", "The wanted state.", searchclient.DesiredStates),
			objectList("MaintenanceSchedules", "Maintenance windows.",
				str("CronExpressionForRecurrence", "Cron expression of the recurrence."),
				object("Duration", "Length of the window.",
					enum("Unit", "Unit of the length.", searchclient.DurationUnits),
					integer("Value", "Number of units."),
				),
				timestamp("StartAt", "First window"),
			),
			enum("RollbackOnDisable", "What disabling Auto-Tune does to its changes.", searchclient.RollbackOnDisables),
			boolean("UseOffPeakWindow", "Whether Auto-Tune changes wait for the off-peak window."),
		),
		object("ClusterConfig", "Nodes and zones. Changing the instance type or count, dedicated masters, warm or cold storage, or zones is a blue/green deployment.",
			enabled("ColdStorageOptions", "Cold storage."),
			integer("DedicatedMasterCount", "Number of dedicated master nodes: "+rules.Alternatives(rules.DedicatedMasterCountsEnabled)+" when dedicated masters are enabled."),
			boolean("DedicatedMasterEnabled", "Whether dedicated master nodes are used."),
			str("DedicatedMasterType", "Instance type of the dedicated master nodes."),
			integer("InstanceCount", "Number of data nodes: a multiple of the zone count when zone awareness is on."),
			str("InstanceType", "Instance type of the data nodes."),
			boolean("MultiAZWithStandbyEnabled", "Whether a standby zone is kept."),
			objectList("NodeOptions", "Options of other node types.",
				str("NodeType", "The node type, such as `coordinator`."),
				object("NodeConfig", "Its configuration.",
					integer("Count", "Number of nodes."),
					boolean("Enabled", "Whether the nodes are used."),
					str("Type", "Instance type."),
				),
			),
			integer("WarmCount", "Number of warm nodes."),
			boolean("WarmEnabled", "Whether warm storage is used."),
			str("WarmType", "Instance type of the warm nodes."),
			object("ZoneAwarenessConfig", "Zones.",
				integer("AvailabilityZoneCount", "Number of availability zones."),
			),
			boolean("ZoneAwarenessEnabled", "Whether nodes are spread across zones."),
		),
		object("UserPoolAuthOptions", "User-pool sign-in for the domain's dashboard interface.",
			boolean("Enabled", "Whether user-pool sign-in is enabled."),
			str("IdentityPoolId", "Identity pool id."),
			str("RoleArn", "Role the service assumes to configure the user pool."),
			str("UserPoolId", "User pool id."),
		),
		object("DeploymentStrategyOptions", "How changes are deployed.",
			str("DeploymentStrategy", "The deployment strategy, such as `Default` or `CapacityOptimized`."),
		),
		object("DomainEndpointOptions", "HTTPS, TLS and the custom endpoint.",
			str("CustomEndpoint", "Custom host name of the endpoint."),
			str("CustomEndpointCertificateArn", "Certificate of the custom endpoint."),
			boolean("CustomEndpointEnabled", "Whether the custom endpoint is used."),
			boolean("EnforceHTTPS", "Whether only HTTPS is accepted."),
			str("TLSSecurityPolicy", "TLS security policy name."),
		),
		object("BlockVolumeOptions", "Block storage of the data nodes. Changing it is a blue/green deployment.",
			boolean("BlockVolumeEnabled", "Whether block volumes are attached."),
			integer("Iops", "Provisioned IOPS."),
			integer("Throughput", "Provisioned throughput in MiB/s."),
			integer("VolumeSize", "Volume size in GiB."),
			str("VolumeType", "Volume type, such as `gp3`."),
		),
		object("EncryptionAtRestOptions", "Encryption of data at rest. Once enabled it cannot be turned off.",
			boolean("Enabled", "Whether data at rest is encrypted."),
			str("KmsKeyId", "Key that encrypts the data."),
		),
		enum("EngineMode", "Cannot be changed after the domain is created: a different value fails the plan.", searchclient.EngineModes),
		str("EngineVersion", "The domain's engine version.").only(returned),
		object("WorkforceIdentityOptions", "Directory-center access.",
			boolean("EnabledAPIAccess", "Whether API access through the directory center is enabled."),
			str("WorkforceIdentityInstanceARN", "ARN of the directory-center instance."),
			str("WorkforceIdentityInstanceRegion", "Region of the directory-center instance."),
			str("RolesKey", "Attribute that holds the roles."),
			str("SubjectKey", "Attribute that holds the subject."),
			str("WorkforceIdentityApplicationARN", "ARN of the application the service created.").only(returned),
			str("IdentityStoreId", "Id of the identity store.").only(returned),
		),
		enum("IPAddressType", "`dualstack` is recommended. A domain set to `dualstack` cannot go back: `ipv4` then fails the plan.", searchclient.IPAddressTypes),
		objectMap("LogPublishingOptions", "Log publishing, keyed by log type: "+backquoted(searchclient.LogTypes)+".",
			str("LogsLogGroupArn", "ARN of the log group that receives the logs."),
			boolean("Enabled", "Whether the logs are published."),
		).check(mapvalidator.KeysAre(stringvalidator.OneOf(searchclient.LogTypes...))),
		enabled("NodeToNodeEncryptionOptions", "Encryption of traffic between nodes. Once enabled it cannot be turned off."),
		object("OffPeakWindowOptions", "The daily off-peak window in which blue/green changes are expected.",
			boolean("Enabled", "Whether the off-peak window is used."),
			object("OffPeakWindow", "The window.",
				object("WindowStartTime", "Start of the window (UTC).",
					integer("Hours", "Hour."),
					integer("Minutes", "Minute."),
				),
			),
		),
		object("SnapshotOptions", "Automated snapshots.",
			integer("AutomatedSnapshotStartHour", "Hour (UTC) of the daily automated snapshot; the service's default is 0."),
		),
		object("SoftwareUpdateOptions", "Service software updates.",
			boolean("AutoSoftwareUpdateEnabled", "Whether service software updates are applied automatically."),
			boolean("UseLatestServiceSoftwareForBlueGreen", "Whether a blue/green deployment also moves to the latest service software."),
		),
		enum("UseCase", "What the domain is for.", searchclient.UseCases),
		object("VPCOptions", "Network placement. Changing it is a blue/green deployment.",
			boolean("EgressEnabled", "Whether outbound traffic is allowed."),
			stringSet("SecurityGroupIds", "Security groups."),
			stringSet("SubnetIds", "Subnets, one per zone."),
			stringSet("AvailabilityZones", "Zones of the subnets.").only(returned),
			str("VPCId", "The network the domain is in.").only(returned),
		),
	}
}

// dryRunConfigTable is a DryRunConfig's members: the domain's status
// around the sections (as a DescribeDomain answer has them), the sections
// in their answer shape, and Auto-Tune in the status object's own shape.
func dryRunConfigTable(sections []field) []field {
	out := []field{
		str("ARN", "ARN of the domain."),
		boolean("Created", "Whether the domain has been created."),
		boolean("Deleted", "Whether the domain is being deleted."),
		str("DomainEndpointV2HostedZoneId", "Hosted zone id of the dual-stack endpoint."),
		str("DomainId", "Unique id of the domain."),
		str("DomainName", "Name of the domain."),
		str("DomainProcessingStatus", "Processing status of the domain, such as `Active` or `Modifying`."),
		str("Endpoint", "Endpoint for search and index requests."),
		str("EndpointV2", "Dual-stack endpoint for search and index requests."),
		stringMap("Endpoints", "Endpoints of a domain in a VPC, by kind."),
		boolean("Processing", "Whether a configuration change is in progress."),
		boolean("UpgradeProcessing", "Whether an engine upgrade is in progress."),
		object("ServiceSoftwareOptions", "The domain's service software.",
			timestamp("AutomatedUpdateDate", "When the service software is updated automatically"),
			boolean("Cancellable", "Whether a pending update can be cancelled."),
			str("CurrentVersion", "Current service software version."),
			str("Description", "Description of the update status."),
			str("NewVersion", "Version of an available update."),
			boolean("OptionalDeployment", "Whether the update is optional."),
			boolean("UpdateAvailable", "Whether an update is available."),
			str("UpdateStatus", "Status of the update."),
		),
		object("ChangeProgressDetails", "Summary of the domain's current change.",
			str("ChangeId", "Id of the change."),
			str("ConfigChangeStatus", "Configuration change status, such as `ApplyingChanges`."),
			str("InitiatedBy", "Who started the change."),
			timestamp("LastUpdatedTime", "When the change was last updated"),
			str("Message", "Message about the change."),
			timestamp("StartTime", "When the change started"),
		),
		modifyingProperties("Properties the change modifies, with their value now and once the change completes. The values of a secret are not shown."),
	}
	for _, s := range sections {
		if s.wire == "AutoTuneOptions" {
			s = object("AutoTuneOptions", "Auto-Tune as the domain status reports it.",
				str("ErrorMessage", "Auto-Tune error, if any."),
				str("State", "Auto-Tune state."),
				boolean("UseOffPeakWindow", "Whether Auto-Tune uses the off-peak window."),
			)
		}
		out = append(out, s)
	}
	return out
}

// modifyingProperties is the spec's ModifyingProperties list.
func modifyingProperties(doc string) field {
	return objectList("ModifyingProperties", doc,
		str("ActiveValue", "Value in effect now."),
		str("Name", "Property name, such as `ClusterConfig.InstanceType`."),
		str("PendingValue", "Value once the change completes."),
		str("ValueType", "`PLAIN_TEXT` or `STRINGIFIED_JSON`."),
	)
}
