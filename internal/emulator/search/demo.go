package search

import "encoding/json"

// DemoDomainName is the domain the emulator starts with.
const DemoDomainName = "demo"

// demoConfig is a production-like domain: three data nodes over three
// zones, dedicated masters, encryption everywhere, HTTPS only, and an
// off-peak window from 00:00 UTC.
const demoConfig = `{
  "AccessPolicies": "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"CLOUD\":\"arn:cloud:identity::123456789012:root\"},\"Action\":\"search:*\",\"Resource\":\"arn:cloud:search:us-east-1:123456789012:domain/demo/*\"}]}",
  "AdvancedOptions": {"rest.action.multi.allow_explicit_index": "true"},
  "ClusterConfig": {
    "InstanceType": "r6g.large.search", "InstanceCount": 3,
    "DedicatedMasterEnabled": true, "DedicatedMasterType": "m6g.large.search", "DedicatedMasterCount": 3,
    "ZoneAwarenessEnabled": true, "ZoneAwarenessConfig": {"AvailabilityZoneCount": 3},
    "WarmEnabled": false, "MultiAZWithStandbyEnabled": false, "ColdStorageOptions": {"Enabled": false}
  },
  "BlockVolumeOptions": {"BlockVolumeEnabled": true, "VolumeType": "gp3", "VolumeSize": 100, "Iops": 3000, "Throughput": 125},
  "EncryptionAtRestOptions": {"Enabled": true},
  "NodeToNodeEncryptionOptions": {"Enabled": true},
  "DomainEndpointOptions": {"EnforceHTTPS": true, "TLSSecurityPolicy": "Policy-Min-TLS-1-2-2019-07", "CustomEndpointEnabled": false},
  "SnapshotOptions": {"AutomatedSnapshotStartHour": 0},
  "OffPeakWindowOptions": {"Enabled": true, "OffPeakWindow": {"WindowStartTime": {"Hours": 0, "Minutes": 0}}},
  "AutoTuneOptions": {"DesiredState": "ENABLED", "UseOffPeakWindow": true},
  "SoftwareUpdateOptions": {"AutoSoftwareUpdateEnabled": false},
  "DeploymentStrategyOptions": {"DeploymentStrategy": "Default"},
  "UseCase": "SEARCH"
}`

func demoDomain() DomainSpec {
	return DomainSpec{
		DomainName: DemoDomainName, EngineMode: "GENERAL", EngineVersion: "OpenSearch_2.19",
		IPAddressType: "ipv4", Config: json.RawMessage(demoConfig),
	}
}
