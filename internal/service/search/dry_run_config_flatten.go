package search

import (
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// flattenPlannedDomain converts a dry run's DryRunConfig; nil is nil (the
// planned configuration was not asked for).
func flattenPlannedDomain(d *sc.DomainStatus) *plannedDomainModel {
	if d == nil {
		return nil
	}
	m := &plannedDomainModel{
		ARN:                          d.ARN,
		Created:                      d.Created,
		Deleted:                      d.Deleted,
		DomainEndpointV2HostedZoneID: d.DomainEndpointV2HostedZoneId,
		DomainID:                     d.DomainId,
		DomainName:                   d.DomainName,
		DomainProcessingStatus:       d.DomainProcessingStatus,
		Endpoint:                     d.Endpoint,
		EndpointV2:                   d.EndpointV2,
		Endpoints:                    d.Endpoints,
		EngineMode:                   d.EngineMode,
		EngineVersion:                d.EngineVersion,
		Processing:                   d.Processing,
		UpgradeProcessing:            d.UpgradeProcessing,
		ServiceSoftwareOptions:       dsConvert(d.ServiceSoftwareOptions, flattenPlannedServiceSoftware),
		ChangeProgressDetails:        dsConvert(d.ChangeProgressDetails, flattenPlannedChangeProgressDetails),

		AccessPolicies:                d.AccessPolicies,
		AdvancedOptions:               d.AdvancedOptions,
		AdvancedSecurityOptions:       dsConvert(d.AdvancedSecurityOptions, flattenPlannedAdvancedSecurity),
		AIMLOptions:                   dsConvert(d.AIMLOptions, flattenPlannedAIML),
		AutomatedSnapshotPauseOptions: dsConvert(d.AutomatedSnapshotPauseOptions, flattenPlannedSnapshotPause),
		AutoTuneOptions:               dsConvert(d.AutoTuneOptions, flattenPlannedAutoTune),
		ClusterConfig:                 dsConvert(d.ClusterConfig, flattenPlannedClusterConfig),
		UserPoolAuthOptions:           dsConvert(d.UserPoolAuthOptions, flattenPlannedUserPoolAuth),
		DeploymentStrategyOptions: dsConvert(d.DeploymentStrategyOptions, func(o *sc.DeploymentStrategyOptions) *plannedDeploymentStrategy {
			return &plannedDeploymentStrategy{DeploymentStrategy: o.DeploymentStrategy}
		}),
		DomainEndpointOptions: dsConvert(d.DomainEndpointOptions, flattenPlannedDomainEndpoint),
		BlockVolumeOptions:    dsConvert(d.BlockVolumeOptions, flattenPlannedBlockVolume),
		EncryptionAtRestOptions: dsConvert(d.EncryptionAtRestOptions, func(o *sc.EncryptionAtRestOptions) *plannedEncryptionAtRest {
			return &plannedEncryptionAtRest{Enabled: o.Enabled, KmsKeyID: o.KmsKeyId}
		}),
		WorkforceIdentityOptions:    dsConvert(d.WorkforceIdentityOptions, flattenPlannedWorkforceIdentity),
		IPAddressType:               d.IPAddressType,
		NodeToNodeEncryptionOptions: dsConvert(d.NodeToNodeEncryptionOptions, func(o *sc.NodeToNodeEncryptionOptions) *plannedEnabled { return &plannedEnabled{Enabled: o.Enabled} }),
		OffPeakWindowOptions:        dsConvert(d.OffPeakWindowOptions, flattenPlannedOffPeakWindow),
		SnapshotOptions: dsConvert(d.SnapshotOptions, func(o *sc.SnapshotOptions) *plannedSnapshotOptions {
			return &plannedSnapshotOptions{AutomatedSnapshotStartHour: o.AutomatedSnapshotStartHour}
		}),
		SoftwareUpdateOptions: dsConvert(d.SoftwareUpdateOptions, func(o *sc.SoftwareUpdateOptions) *plannedSoftwareUpdate {
			return &plannedSoftwareUpdate{o.AutoSoftwareUpdateEnabled, o.UseLatestServiceSoftwareForBlueGreen}
		}),
		UseCase:    d.UseCase,
		VPCOptions: dsConvert(d.VPCOptions, flattenPlannedVPC),
	}
	for _, p := range d.ModifyingProperties {
		m.ModifyingProperties = append(m.ModifyingProperties, plannedModifyingProperty{ActiveValue: p.ActiveValue, Name: p.Name, PendingValue: p.PendingValue, ValueType: p.ValueType})
	}
	if d.LogPublishingOptions != nil {
		m.LogPublishingOptions = make(map[string]plannedLogPublishing, len(d.LogPublishingOptions))
		for k, v := range d.LogPublishingOptions {
			m.LogPublishingOptions[k] = plannedLogPublishing{LogsLogGroupArn: v.LogsLogGroupArn, Enabled: v.Enabled}
		}
	}
	return m
}

func flattenPlannedServiceSoftware(o *sc.ServiceSoftwareOptions) *plannedServiceSoftware {
	return &plannedServiceSoftware{
		AutomatedUpdateDate: dsEpochString(o.AutomatedUpdateDate),
		Cancellable:         o.Cancellable,
		CurrentVersion:      o.CurrentVersion,
		Description:         o.Description,
		NewVersion:          o.NewVersion,
		OptionalDeployment:  o.OptionalDeployment,
		UpdateAvailable:     o.UpdateAvailable,
		UpdateStatus:        o.UpdateStatus,
	}
}

func flattenPlannedChangeProgressDetails(o *sc.ChangeProgressDetails) *plannedChangeProgressDetails {
	return &plannedChangeProgressDetails{
		ChangeID:           o.ChangeId,
		ConfigChangeStatus: o.ConfigChangeStatus,
		InitiatedBy:        o.InitiatedBy,
		LastUpdatedTime:    dsEpochString(o.LastUpdatedTime),
		Message:            o.Message,
		StartTime:          dsEpochString(o.StartTime),
	}
}

func flattenPlannedAdvancedSecurity(o *sc.AdvancedSecurityOptions) *plannedAdvancedSecurity {
	return &plannedAdvancedSecurity{
		AnonymousAuthDisableDate:    dsEpochString(o.AnonymousAuthDisableDate),
		AnonymousAuthEnabled:        o.AnonymousAuthEnabled,
		Enabled:                     o.Enabled,
		InternalUserDatabaseEnabled: o.InternalUserDatabaseEnabled,
		IdentityFederationOptions: dsConvert(o.IdentityFederationOptions, func(f *sc.IdentityFederationOptions) *plannedIdentityFederation {
			return &plannedIdentityFederation{Enabled: f.Enabled, RolesKey: f.RolesKey, SubjectKey: f.SubjectKey}
		}),
		JWTOptions: dsConvert(o.JWTOptions, func(j *sc.JWTOptions) *plannedJWT {
			return &plannedJWT{Enabled: j.Enabled, JwksURL: j.JwksUrl, PublicKey: j.PublicKey, RolesKey: j.RolesKey, SubjectKey: j.SubjectKey}
		}),
		SAMLOptions: dsConvert(o.SAMLOptions, func(s *sc.SAMLOptions) *plannedSAML {
			return &plannedSAML{
				Enabled: s.Enabled,
				Idp: dsConvert(s.Idp, func(i *sc.SAMLIdp) *plannedSAMLIdp {
					return &plannedSAMLIdp{EntityID: i.EntityId, MetadataContent: i.MetadataContent}
				}),
				RolesKey:              s.RolesKey,
				SessionTimeoutMinutes: s.SessionTimeoutMinutes,
				SubjectKey:            s.SubjectKey,
			}
		}),
	}
}

func flattenPlannedAIML(o *sc.AIMLOptions) *plannedAIML {
	enabled := func(e *bool) *plannedEnabled { return &plannedEnabled{Enabled: e} }
	m := &plannedAIML{
		NaturalLanguageQueryGenerationOptions: dsConvert(o.NaturalLanguageQueryGenerationOptions, func(n *sc.NaturalLanguageQueryGeneration) *plannedNLQG {
			return &plannedNLQG{DesiredState: n.DesiredState, CurrentState: n.CurrentState}
		}),
	}
	if o.ObjectStoreVectorsEngine != nil {
		m.ObjectStoreVectorsEngine = enabled(o.ObjectStoreVectorsEngine.Enabled)
	}
	if o.ServerlessVectorAcceleration != nil {
		m.ServerlessVectorAcceleration = enabled(o.ServerlessVectorAcceleration.Enabled)
	}
	return m
}

func flattenPlannedSnapshotPause(o *sc.AutomatedSnapshotPauseOptions) *plannedSnapshotPause {
	return &plannedSnapshotPause{Enabled: o.Enabled, StartTime: dsEpochString(o.StartTime), EndTime: dsEpochString(o.EndTime), State: o.State}
}

func flattenPlannedAutoTune(o *sc.AutoTuneOptionsOutput) *plannedAutoTune {
	return &plannedAutoTune{ErrorMessage: o.ErrorMessage, State: o.State, UseOffPeakWindow: o.UseOffPeakWindow}
}

func flattenPlannedClusterConfig(o *sc.ClusterConfig) *plannedClusterConfig {
	m := &plannedClusterConfig{
		DedicatedMasterCount:      o.DedicatedMasterCount,
		DedicatedMasterEnabled:    o.DedicatedMasterEnabled,
		DedicatedMasterType:       o.DedicatedMasterType,
		InstanceCount:             o.InstanceCount,
		InstanceType:              o.InstanceType,
		MultiAZWithStandbyEnabled: o.MultiAZWithStandbyEnabled,
		WarmCount:                 o.WarmCount,
		WarmEnabled:               o.WarmEnabled,
		WarmType:                  o.WarmType,
		ZoneAwarenessEnabled:      o.ZoneAwarenessEnabled,
		ZoneAwarenessConfig: dsConvert(o.ZoneAwarenessConfig, func(z *sc.ZoneAwarenessConfig) *plannedZoneAwareness {
			return &plannedZoneAwareness{AvailabilityZoneCount: z.AvailabilityZoneCount}
		}),
	}
	if o.ColdStorageOptions != nil {
		m.ColdStorageOptions = &plannedEnabled{Enabled: o.ColdStorageOptions.Enabled}
	}
	for _, n := range o.NodeOptions {
		m.NodeOptions = append(m.NodeOptions, plannedNodeOption{
			NodeType: n.NodeType,
			NodeConfig: dsConvert(n.NodeConfig, func(c *sc.NodeConfig) *plannedNodeConfig {
				return &plannedNodeConfig{Count: c.Count, Enabled: c.Enabled, Type: c.Type}
			}),
		})
	}
	return m
}

func flattenPlannedUserPoolAuth(o *sc.UserPoolAuthOptions) *plannedUserPoolAuth {
	return &plannedUserPoolAuth{Enabled: o.Enabled, IdentityPoolID: o.IdentityPoolId, RoleArn: o.RoleArn, UserPoolID: o.UserPoolId}
}

func flattenPlannedDomainEndpoint(o *sc.DomainEndpointOptions) *plannedDomainEndpoint {
	return &plannedDomainEndpoint{
		CustomEndpoint:               o.CustomEndpoint,
		CustomEndpointCertificateArn: o.CustomEndpointCertificateArn,
		CustomEndpointEnabled:        o.CustomEndpointEnabled,
		EnforceHTTPS:                 o.EnforceHTTPS,
		TLSSecurityPolicy:            o.TLSSecurityPolicy,
	}
}

func flattenPlannedBlockVolume(o *sc.BlockVolumeOptions) *plannedBlockVolume {
	return &plannedBlockVolume{BlockVolumeEnabled: o.BlockVolumeEnabled, Iops: o.Iops, Throughput: o.Throughput, VolumeSize: o.VolumeSize, VolumeType: o.VolumeType}
}

func flattenPlannedWorkforceIdentity(o *sc.WorkforceIdentityOptions) *plannedWorkforceIdentity {
	return &plannedWorkforceIdentity{
		EnabledAPIAccess:                o.EnabledAPIAccess,
		WorkforceIdentityInstanceARN:    o.WorkforceIdentityInstanceARN,
		WorkforceIdentityInstanceRegion: o.WorkforceIdentityInstanceRegion,
		RolesKey:                        o.RolesKey,
		SubjectKey:                      o.SubjectKey,
		WorkforceIdentityApplicationARN: o.WorkforceIdentityApplicationARN,
		IdentityStoreID:                 o.IdentityStoreId,
	}
}

func flattenPlannedOffPeakWindow(o *sc.OffPeakWindowOptions) *plannedOffPeakWindowOptions {
	m := &plannedOffPeakWindowOptions{Enabled: o.Enabled}
	if o.OffPeakWindow != nil {
		m.OffPeakWindow = &plannedOffPeakWindow{
			WindowStartTime: dsConvert(o.OffPeakWindow.WindowStartTime, func(w *sc.WindowStartTime) *plannedWindowStartTime {
				return &plannedWindowStartTime{Hours: w.Hours, Minutes: w.Minutes}
			}),
		}
	}
	return m
}

func flattenPlannedVPC(o *sc.VPCDerivedInfo) *plannedVPC {
	return &plannedVPC{
		EgressEnabled:     o.EgressEnabled,
		SecurityGroupIDs:  o.SecurityGroupIds,
		SubnetIDs:         o.SubnetIds,
		AvailabilityZones: o.AvailabilityZones,
		VPCID:             o.VPCId,
	}
}
