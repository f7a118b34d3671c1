package search

import (
	"encoding/json"
	"fmt"
	"time"
)

// EverySectionDomain is a domain with every configuration section of the
// spec's table set, write-only members (the master user and its password,
// SAML's master user and backend role) included, for tests that adopt a
// domain whose whole configuration must read back as it was written. Its
// snapshot pause and Auto-Tune window start an hour after now. region ""
// is the emulator's home region; the ARNs and pool ids of the domain's
// own region name region (us-east-1, the default home region, for "").
func EverySectionDomain(name, region string, now time.Time) DomainSpec {
	start, end := now.Add(time.Hour).Unix(), now.Add(25*time.Hour).Unix()
	arnRegion := region
	if arnRegion == "" {
		arnRegion = "us-east-1"
	}
	config := fmt.Sprintf(`{
  "AccessPolicies": "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"CLOUD\":\"arn:cloud:identity::123456789012:root\"},\"Action\":\"search:*\",\"Resource\":\"arn:cloud:search:%[4]s:123456789012:domain/%[1]s/*\"}]}",
  "AdvancedOptions": {"rest.action.multi.allow_explicit_index": "false", "indices.fielddata.cache.size": "40", "indices.query.bool.max_clause_count": "2048"},
  "AdvancedSecurityOptions": {
    "Enabled": true, "InternalUserDatabaseEnabled": true, "AnonymousAuthEnabled": false,
    "MasterUserOptions": {"MasterUserName": "admin", "MasterUserPassword": "Fixture-Passw0rd!"},
    "IdentityFederationOptions": {"Enabled": true, "RolesKey": "fed-roles", "SubjectKey": "fed-sub"},
    "JWTOptions": {"Enabled": true, "JwksUrl": "https://idp.example/jwks", "PublicKey": "pk-1", "RolesKey": "jwt-roles", "SubjectKey": "jwt-sub"},
    "SAMLOptions": {"Enabled": true, "Idp": {"EntityId": "https://idp.example/saml", "MetadataContent": "<EntityDescriptor/>"},
      "MasterBackendRole": "saml-admins", "MasterUserName": "saml-admin", "RolesKey": "saml-roles", "SessionTimeoutMinutes": 120, "SubjectKey": "saml-sub"}
  },
  "AIMLOptions": {"NaturalLanguageQueryGenerationOptions": {"DesiredState": "ENABLED"}, "ObjectStoreVectorsEngine": {"Enabled": true}, "ServerlessVectorAcceleration": {"Enabled": true}},
  "AutomatedSnapshotPauseOptions": {"Enabled": true, "StartTime": %[2]d, "EndTime": %[3]d},
  "AutoTuneOptions": {"DesiredState": "ENABLED", "RollbackOnDisable": "NO_ROLLBACK", "UseOffPeakWindow": true,
    "MaintenanceSchedules": [{"CronExpressionForRecurrence": "cron(0 3 ? * MON *)", "Duration": {"Unit": "HOURS", "Value": 2}, "StartAt": %[2]d}]},
  "ClusterConfig": {
    "InstanceType": "r6g.large.search", "InstanceCount": 6,
    "DedicatedMasterEnabled": true, "DedicatedMasterType": "m6g.large.search", "DedicatedMasterCount": 3,
    "ZoneAwarenessEnabled": true, "ZoneAwarenessConfig": {"AvailabilityZoneCount": 3},
    "WarmEnabled": true, "WarmType": "ultrawarm1.medium.search", "WarmCount": 3,
    "ColdStorageOptions": {"Enabled": true}, "MultiAZWithStandbyEnabled": true,
    "NodeOptions": [{"NodeType": "coordinator", "NodeConfig": {"Count": 2, "Enabled": true, "Type": "m6g.large.search"}}]
  },
  "UserPoolAuthOptions": {"Enabled": true, "IdentityPoolId": "%[4]s:pool-1", "RoleArn": "arn:cloud:identity::123456789012:role/dashboards", "UserPoolId": "%[4]s_Pool1"},
  "DeploymentStrategyOptions": {"DeploymentStrategy": "CapacityOptimized"},
  "DomainEndpointOptions": {"CustomEndpoint": "search.example.com", "CustomEndpointCertificateArn": "arn:cloud:acm:%[4]s:123456789012:certificate/c1",
    "CustomEndpointEnabled": true, "EnforceHTTPS": true, "TLSSecurityPolicy": "Policy-Min-TLS-1-2-2019-07"},
  "BlockVolumeOptions": {"BlockVolumeEnabled": true, "VolumeType": "gp3", "VolumeSize": 200, "Iops": 4000, "Throughput": 250},
  "EncryptionAtRestOptions": {"Enabled": true, "KmsKeyId": "key-1"},
  "WorkforceIdentityOptions": {"EnabledAPIAccess": true, "WorkforceIdentityInstanceARN": "arn:cloud:sso:::instance/ssoins-1", "WorkforceIdentityInstanceRegion": "us-east-1", "RolesKey": "wf-roles", "SubjectKey": "wf-sub"},
  "LogPublishingOptions": {
    "INDEX_SLOW_LOGS": {"Enabled": true, "LogsLogGroupArn": "arn:cloud:logs:%[4]s:123456789012:log-group:index-slow"},
    "SEARCH_SLOW_LOGS": {"Enabled": true, "LogsLogGroupArn": "arn:cloud:logs:%[4]s:123456789012:log-group:search-slow"},
    "ES_APPLICATION_LOGS": {"Enabled": false, "LogsLogGroupArn": "arn:cloud:logs:%[4]s:123456789012:log-group:app"},
    "AUDIT_LOGS": {"Enabled": true, "LogsLogGroupArn": "arn:cloud:logs:%[4]s:123456789012:log-group:audit"}
  },
  "NodeToNodeEncryptionOptions": {"Enabled": true},
  "OffPeakWindowOptions": {"Enabled": true, "OffPeakWindow": {"WindowStartTime": {"Hours": 1, "Minutes": 30}}},
  "SnapshotOptions": {"AutomatedSnapshotStartHour": 5},
  "SoftwareUpdateOptions": {"AutoSoftwareUpdateEnabled": true, "UseLatestServiceSoftwareForBlueGreen": true},
  "UseCase": "VECTOR",
  "VPCOptions": {"EgressEnabled": true, "SecurityGroupIds": ["sg-1", "sg-2"], "SubnetIds": ["subnet-1", "subnet-2"]}
}`, name, start, end, arnRegion)
	return DomainSpec{
		DomainName: name, Region: region, EngineMode: "GENERAL", EngineVersion: "OpenSearch_2.19",
		IPAddressType: "dualstack", Config: json.RawMessage(config),
	}
}
