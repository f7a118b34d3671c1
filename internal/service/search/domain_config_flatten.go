package search

import (
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// flattenDomainConfig copies the service's configuration into m. Values the
// service never returns (the master user, SAML's master user and backend
// role) keep what m already holds.
func flattenDomainConfig(c *sc.DomainConfig, m *domainConfigModel) {
	m.AccessPolicies = jsontypes.NewNormalizedNull()
	if c.AccessPolicies != nil {
		m.AccessPolicies = jsontypes.NewNormalizedValue(c.AccessPolicies.Options)
	}
	m.AdvancedOptions = types.MapNull(types.StringType)
	if c.AdvancedOptions != nil {
		m.AdvancedOptions = stringMap(c.AdvancedOptions.Options)
	}
	m.AdvancedSecurityOptions = flattenAdvancedSecurity(c.AdvancedSecurityOptions, m.AdvancedSecurityOptions)
	m.AIMLOptions = nil
	if w := c.AIMLOptions; w != nil {
		a := w.Options
		m.AIMLOptions = &aimlOptionsModel{}
		if n := a.NaturalLanguageQueryGenerationOptions; n != nil {
			m.AIMLOptions.NaturalLanguageQueryGenerationOptions = &nlqGenerationModel{DesiredState: strVal(n.DesiredState), CurrentState: strVal(n.CurrentState)}
		}
		if e := a.ObjectStoreVectorsEngine; e != nil {
			m.AIMLOptions.ObjectStoreVectorsEngine = &enabledModel{Enabled: boolVal(e.Enabled)}
		}
		if e := a.ServerlessVectorAcceleration; e != nil {
			m.AIMLOptions.ServerlessVectorAcceleration = &enabledModel{Enabled: boolVal(e.Enabled)}
		}
	}
	m.AutomatedSnapshotPauseOptions = nil
	if w := c.AutomatedSnapshotPauseOptions; w != nil {
		p := w.Options
		m.AutomatedSnapshotPauseOptions = &snapshotPauseModel{Enabled: boolVal(p.Enabled), StartTime: epochVal(p.StartTime), EndTime: epochVal(p.EndTime), State: strVal(p.State)}
	}
	m.AutoTuneOptions = nil
	if w := c.AutoTuneOptions; w != nil {
		a := w.Options
		m.AutoTuneOptions = &autoTuneOptionsModel{
			DesiredState: strVal(a.DesiredState), RollbackOnDisable: strVal(a.RollbackOnDisable), UseOffPeakWindow: boolVal(a.UseOffPeakWindow),
			MaintenanceSchedules: []maintenanceScheduleModel{},
		}
		for _, s := range a.MaintenanceSchedules {
			ms := maintenanceScheduleModel{CronExpressionForRecurrence: strVal(s.CronExpressionForRecurrence), StartAt: epochVal(s.StartAt)}
			if d := s.Duration; d != nil {
				ms.Duration = &durationModel{Unit: strVal(d.Unit), Value: int64Val(d.Value)}
			}
			m.AutoTuneOptions.MaintenanceSchedules = append(m.AutoTuneOptions.MaintenanceSchedules, ms)
		}
	}
	m.ClusterConfig = nil
	if w := c.ClusterConfig; w != nil {
		m.ClusterConfig = flattenClusterConfig(&w.Options)
	}
	m.UserPoolAuthOptions = nil
	if w := c.UserPoolAuthOptions; w != nil {
		u := w.Options
		m.UserPoolAuthOptions = &userPoolAuthOptionsModel{Enabled: boolVal(u.Enabled), IdentityPoolID: strVal(u.IdentityPoolId), RoleARN: strVal(u.RoleArn), UserPoolID: strVal(u.UserPoolId)}
	}
	m.DeploymentStrategyOptions = nil
	if w := c.DeploymentStrategyOptions; w != nil {
		m.DeploymentStrategyOptions = &deploymentStrategyModel{DeploymentStrategy: strVal(w.Options.DeploymentStrategy)}
	}
	m.DomainEndpointOptions = nil
	if w := c.DomainEndpointOptions; w != nil {
		d := w.Options
		m.DomainEndpointOptions = &domainEndpointOptionsModel{
			CustomEndpoint: strVal(d.CustomEndpoint), CustomEndpointCertificateARN: strVal(d.CustomEndpointCertificateArn),
			CustomEndpointEnabled: boolVal(d.CustomEndpointEnabled), EnforceHTTPS: boolVal(d.EnforceHTTPS), TLSSecurityPolicy: strVal(d.TLSSecurityPolicy),
		}
	}
	m.BlockVolumeOptions = nil
	if w := c.BlockVolumeOptions; w != nil {
		b := w.Options
		m.BlockVolumeOptions = &blockVolumeOptionsModel{
			BlockVolumeEnabled: boolVal(b.BlockVolumeEnabled), Iops: int64Val(b.Iops), Throughput: int64Val(b.Throughput),
			VolumeSize: int64Val(b.VolumeSize), VolumeType: strVal(b.VolumeType),
		}
	}
	m.EncryptionAtRestOptions = nil
	if w := c.EncryptionAtRestOptions; w != nil {
		m.EncryptionAtRestOptions = &encryptionAtRestModel{Enabled: boolVal(w.Options.Enabled), KmsKeyID: strVal(w.Options.KmsKeyId)}
	}
	m.EngineMode = wrappedString(c.EngineMode)
	m.EngineVersion = wrappedString(c.EngineVersion)
	m.WorkforceIdentityOptions = nil
	if w := c.WorkforceIdentityOptions; w != nil {
		o := w.Options
		m.WorkforceIdentityOptions = &workforceIdentityOptionsModel{
			EnabledAPIAccess: boolVal(o.EnabledAPIAccess), WorkforceIdentityInstanceARN: strVal(o.WorkforceIdentityInstanceARN),
			WorkforceIdentityInstanceRegion: strVal(o.WorkforceIdentityInstanceRegion), RolesKey: strVal(o.RolesKey), SubjectKey: strVal(o.SubjectKey),
			WorkforceIdentityApplicationARN: strVal(o.WorkforceIdentityApplicationARN), IdentityStoreID: strVal(o.IdentityStoreId),
		}
	}
	m.IPAddressType = wrappedString(c.IPAddressType)
	m.LogPublishingOptions = nil
	if w := c.LogPublishingOptions; w != nil {
		m.LogPublishingOptions = map[string]logPublishingModel{}
		for k, v := range w.Options {
			m.LogPublishingOptions[k] = logPublishingModel{LogsLogGroupARN: strVal(v.LogsLogGroupArn), Enabled: boolVal(v.Enabled)}
		}
	}
	m.NodeToNodeEncryptionOptions = nil
	if w := c.NodeToNodeEncryptionOptions; w != nil {
		m.NodeToNodeEncryptionOptions = &enabledModel{Enabled: boolVal(w.Options.Enabled)}
	}
	m.OffPeakWindowOptions = nil
	if w := c.OffPeakWindowOptions; w != nil {
		o := w.Options
		m.OffPeakWindowOptions = &offPeakWindowOptionsModel{Enabled: boolVal(o.Enabled)}
		if pw := o.OffPeakWindow; pw != nil {
			m.OffPeakWindowOptions.OffPeakWindow = &offPeakWindowModel{}
			if s := pw.WindowStartTime; s != nil {
				m.OffPeakWindowOptions.OffPeakWindow.WindowStartTime = &windowStartTimeModel{Hours: int64Val(s.Hours), Minutes: int64Val(s.Minutes)}
			}
		}
	}
	m.SnapshotOptions = nil
	if w := c.SnapshotOptions; w != nil {
		m.SnapshotOptions = &snapshotOptionsModel{AutomatedSnapshotStartHour: int64Val(w.Options.AutomatedSnapshotStartHour)}
	}
	m.SoftwareUpdateOptions = nil
	if w := c.SoftwareUpdateOptions; w != nil {
		s := w.Options
		m.SoftwareUpdateOptions = &softwareUpdateOptionsModel{
			AutoSoftwareUpdateEnabled: boolVal(s.AutoSoftwareUpdateEnabled), UseLatestServiceSoftwareForBlueGreen: boolVal(s.UseLatestServiceSoftwareForBlueGreen),
		}
	}
	m.UseCase = wrappedString(c.UseCase)
	m.VPCOptions = nil
	if w := c.VPCOptions; w != nil {
		v := w.Options
		m.VPCOptions = &vpcOptionsModel{
			EgressEnabled: boolVal(v.EgressEnabled), SecurityGroupIDs: stringSet(v.SecurityGroupIds), SubnetIDs: stringSet(v.SubnetIds),
			AvailabilityZones: stringSet(v.AvailabilityZones), VPCID: strVal(v.VPCId),
		}
	}
}

func wrappedString(w *sc.Wrapped[string]) types.String {
	if w == nil {
		return types.StringNull()
	}
	return types.StringValue(w.Options)
}

func flattenAdvancedSecurity(w *sc.Wrapped[sc.AdvancedSecurityOptions], prior *advancedSecurityOptionsModel) *advancedSecurityOptionsModel {
	if w == nil {
		return nil
	}
	a := w.Options
	out := &advancedSecurityOptionsModel{
		AnonymousAuthDisableDate: epochVal(a.AnonymousAuthDisableDate), AnonymousAuthEnabled: boolVal(a.AnonymousAuthEnabled),
		Enabled: boolVal(a.Enabled), InternalUserDatabaseEnabled: boolVal(a.InternalUserDatabaseEnabled),
	}
	if f := a.IdentityFederationOptions; f != nil {
		out.IdentityFederationOptions = &identityFederationOptionsModel{Enabled: boolVal(f.Enabled), RolesKey: strVal(f.RolesKey), SubjectKey: strVal(f.SubjectKey)}
	}
	if j := a.JWTOptions; j != nil {
		out.JWTOptions = &jwtOptionsModel{Enabled: boolVal(j.Enabled), JwksURL: strVal(j.JwksUrl), PublicKey: strVal(j.PublicKey), RolesKey: strVal(j.RolesKey), SubjectKey: strVal(j.SubjectKey)}
	}
	if prior != nil {
		out.MasterUserOptions = prior.MasterUserOptions
	}
	if s := a.SAMLOptions; s != nil {
		out.SAMLOptions = &samlOptionsModel{
			Enabled: boolVal(s.Enabled), RolesKey: strVal(s.RolesKey), SessionTimeoutMinutes: int64Val(s.SessionTimeoutMinutes), SubjectKey: strVal(s.SubjectKey),
			MasterBackendRole: types.StringNull(), MasterUserName: types.StringNull(),
		}
		if i := s.Idp; i != nil {
			out.SAMLOptions.Idp = &samlIdpModel{EntityID: strVal(i.EntityId), MetadataContent: strVal(i.MetadataContent)}
		}
		if prior != nil && prior.SAMLOptions != nil {
			out.SAMLOptions.MasterBackendRole = prior.SAMLOptions.MasterBackendRole
			out.SAMLOptions.MasterUserName = prior.SAMLOptions.MasterUserName
		}
	}
	return out
}

func flattenClusterConfig(c *sc.ClusterConfig) *clusterConfigModel {
	out := &clusterConfigModel{
		DedicatedMasterCount: int64Val(c.DedicatedMasterCount), DedicatedMasterEnabled: boolVal(c.DedicatedMasterEnabled),
		DedicatedMasterType: strVal(c.DedicatedMasterType), InstanceCount: int64Val(c.InstanceCount), InstanceType: strVal(c.InstanceType),
		MultiAZWithStandbyEnabled: boolVal(c.MultiAZWithStandbyEnabled), WarmCount: int64Val(c.WarmCount), WarmEnabled: boolVal(c.WarmEnabled),
		WarmType: strVal(c.WarmType), ZoneAwarenessEnabled: boolVal(c.ZoneAwarenessEnabled), NodeOptions: []nodeOptionModel{},
	}
	if cs := c.ColdStorageOptions; cs != nil {
		out.ColdStorageOptions = &enabledModel{Enabled: boolVal(cs.Enabled)}
	}
	for _, n := range c.NodeOptions {
		no := nodeOptionModel{NodeType: strVal(n.NodeType)}
		if nc := n.NodeConfig; nc != nil {
			no.NodeConfig = &nodeConfigModel{Count: int64Val(nc.Count), Enabled: boolVal(nc.Enabled), Type: strVal(nc.Type)}
		}
		out.NodeOptions = append(out.NodeOptions, no)
	}
	if z := c.ZoneAwarenessConfig; z != nil {
		out.ZoneAwarenessConfig = &zoneAwarenessConfigModel{AvailabilityZoneCount: int64Val(z.AvailabilityZoneCount)}
	}
	return out
}
