package search

import (
	"context"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// sections are the configuration sections, by attribute name, with the
// function that copies one from the model into a request. Only the fields
// the model holds are copied: a null field is not sent.
var sections = []struct {
	name   string
	expand func(ctx context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput)
}{
	{"access_policies", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if !m.AccessPolicies.IsNull() && !m.AccessPolicies.IsUnknown() {
			s := m.AccessPolicies.ValueString()
			in.AccessPolicies = &s
		}
	}},
	{"advanced_options", func(ctx context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if !m.AdvancedOptions.IsNull() && !m.AdvancedOptions.IsUnknown() {
			out := map[string]string{}
			_ = m.AdvancedOptions.ElementsAs(ctx, &out, false)
			in.AdvancedOptions = out
		}
	}},
	{"advanced_security_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		in.AdvancedSecurityOptions = expandAdvancedSecurity(m.AdvancedSecurityOptions)
	}},
	{"aiml_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		a := m.AIMLOptions
		if a == nil {
			return
		}
		out := &sc.AIMLOptionsInput{}
		if n := a.NaturalLanguageQueryGenerationOptions; n != nil {
			out.NaturalLanguageQueryGenerationOptions = &sc.NaturalLanguageQueryGenerationInput{DesiredState: strPtr(n.DesiredState)}
		}
		if e := a.ObjectStoreVectorsEngine; e != nil {
			out.ObjectStoreVectorsEngine = &sc.ObjectStoreVectorsEngine{Enabled: boolPtr(e.Enabled)}
		}
		if e := a.ServerlessVectorAcceleration; e != nil {
			out.ServerlessVectorAcceleration = &sc.ServerlessVectorAcceleration{Enabled: boolPtr(e.Enabled)}
		}
		in.AIMLOptions = out
	}},
	{"automated_snapshot_pause_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if p := m.AutomatedSnapshotPauseOptions; p != nil {
			in.AutomatedSnapshotPauseOptions = &sc.AutomatedSnapshotPauseInput{Enabled: boolPtr(p.Enabled), StartTime: epochPtr(p.StartTime), EndTime: epochPtr(p.EndTime)}
		}
	}},
	{"auto_tune_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		a := m.AutoTuneOptions
		if a == nil {
			return
		}
		out := &sc.AutoTuneOptions{DesiredState: strPtr(a.DesiredState), RollbackOnDisable: strPtr(a.RollbackOnDisable), UseOffPeakWindow: boolPtr(a.UseOffPeakWindow)}
		for _, s := range a.MaintenanceSchedules {
			ms := sc.AutoTuneMaintenanceSchedule{CronExpressionForRecurrence: strPtr(s.CronExpressionForRecurrence), StartAt: epochPtr(s.StartAt)}
			if s.Duration != nil {
				ms.Duration = &sc.Duration{Unit: strPtr(s.Duration.Unit), Value: int64Ptr(s.Duration.Value)}
			}
			out.MaintenanceSchedules = append(out.MaintenanceSchedules, ms)
		}
		in.AutoTuneOptions = out
	}},
	{"cluster_config", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		in.ClusterConfig = expandClusterConfig(m.ClusterConfig)
	}},
	{"user_pool_auth_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if u := m.UserPoolAuthOptions; u != nil {
			in.UserPoolAuthOptions = &sc.UserPoolAuthOptions{Enabled: boolPtr(u.Enabled), IdentityPoolId: strPtr(u.IdentityPoolID), RoleArn: strPtr(u.RoleARN), UserPoolId: strPtr(u.UserPoolID)}
		}
	}},
	{"deployment_strategy_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if d := m.DeploymentStrategyOptions; d != nil {
			in.DeploymentStrategyOptions = &sc.DeploymentStrategyOptions{DeploymentStrategy: strPtr(d.DeploymentStrategy)}
		}
	}},
	{"domain_endpoint_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if d := m.DomainEndpointOptions; d != nil {
			in.DomainEndpointOptions = &sc.DomainEndpointOptions{
				CustomEndpoint: strPtr(d.CustomEndpoint), CustomEndpointCertificateArn: strPtr(d.CustomEndpointCertificateARN),
				CustomEndpointEnabled: boolPtr(d.CustomEndpointEnabled), EnforceHTTPS: boolPtr(d.EnforceHTTPS), TLSSecurityPolicy: strPtr(d.TLSSecurityPolicy),
			}
		}
	}},
	{"block_volume_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if b := m.BlockVolumeOptions; b != nil {
			in.BlockVolumeOptions = &sc.BlockVolumeOptions{
				BlockVolumeEnabled: boolPtr(b.BlockVolumeEnabled), Iops: int64Ptr(b.Iops), Throughput: int64Ptr(b.Throughput),
				VolumeSize: int64Ptr(b.VolumeSize), VolumeType: strPtr(b.VolumeType),
			}
		}
	}},
	{"encryption_at_rest_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if e := m.EncryptionAtRestOptions; e != nil {
			in.EncryptionAtRestOptions = &sc.EncryptionAtRestOptions{Enabled: boolPtr(e.Enabled), KmsKeyId: strPtr(e.KmsKeyID)}
		}
	}},
	{"engine_mode", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		in.EngineMode = strPtr(m.EngineMode)
	}},
	{"workforce_identity_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if w := m.WorkforceIdentityOptions; w != nil {
			in.WorkforceIdentityOptions = &sc.WorkforceIdentityOptionsInput{
				EnabledAPIAccess: boolPtr(w.EnabledAPIAccess), WorkforceIdentityInstanceARN: strPtr(w.WorkforceIdentityInstanceARN),
				WorkforceIdentityInstanceRegion: strPtr(w.WorkforceIdentityInstanceRegion), RolesKey: strPtr(w.RolesKey), SubjectKey: strPtr(w.SubjectKey),
			}
		}
	}},
	{"ip_address_type", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		in.IPAddressType = strPtr(m.IPAddressType)
	}},
	{"log_publishing_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if m.LogPublishingOptions == nil {
			return
		}
		in.LogPublishingOptions = map[string]sc.LogPublishingOption{}
		for k, v := range m.LogPublishingOptions {
			in.LogPublishingOptions[k] = sc.LogPublishingOption{LogsLogGroupArn: strPtr(v.LogsLogGroupARN), Enabled: boolPtr(v.Enabled)}
		}
	}},
	{"node_to_node_encryption_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if e := m.NodeToNodeEncryptionOptions; e != nil {
			in.NodeToNodeEncryptionOptions = &sc.NodeToNodeEncryptionOptions{Enabled: boolPtr(e.Enabled)}
		}
	}},
	{"off_peak_window_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		o := m.OffPeakWindowOptions
		if o == nil {
			return
		}
		out := &sc.OffPeakWindowOptions{Enabled: boolPtr(o.Enabled)}
		if w := o.OffPeakWindow; w != nil {
			out.OffPeakWindow = &sc.OffPeakWindow{}
			if s := w.WindowStartTime; s != nil {
				out.OffPeakWindow.WindowStartTime = &sc.WindowStartTime{Hours: int64Ptr(s.Hours), Minutes: int64Ptr(s.Minutes)}
			}
		}
		in.OffPeakWindowOptions = out
	}},
	{"snapshot_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if s := m.SnapshotOptions; s != nil {
			in.SnapshotOptions = &sc.SnapshotOptions{AutomatedSnapshotStartHour: int64Ptr(s.AutomatedSnapshotStartHour)}
		}
	}},
	{"software_update_options", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if s := m.SoftwareUpdateOptions; s != nil {
			in.SoftwareUpdateOptions = &sc.SoftwareUpdateOptions{
				AutoSoftwareUpdateEnabled: boolPtr(s.AutoSoftwareUpdateEnabled), UseLatestServiceSoftwareForBlueGreen: boolPtr(s.UseLatestServiceSoftwareForBlueGreen),
			}
		}
	}},
	{"use_case", func(_ context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		in.UseCase = strPtr(m.UseCase)
	}},
	{"vpc_options", func(ctx context.Context, m *domainConfigModel, in *sc.UpdateDomainConfigInput) {
		if v := m.VPCOptions; v != nil {
			in.VPCOptions = &sc.VPCOptions{EgressEnabled: boolPtr(v.EgressEnabled), SecurityGroupIds: stringSlice(ctx, v.SecurityGroupIDs), SubnetIds: stringSlice(ctx, v.SubnetIDs)}
		}
	}},
}

// expandRequest builds the request that sends the named sections of m.
func expandRequest(ctx context.Context, m *domainConfigModel, names map[string]bool) *sc.UpdateDomainConfigInput {
	in := &sc.UpdateDomainConfigInput{DomainName: m.DomainName.ValueString()}
	for _, s := range sections {
		if names[s.name] {
			s.expand(ctx, m, in)
		}
	}
	return in
}

func expandAdvancedSecurity(a *advancedSecurityOptionsModel) *sc.AdvancedSecurityOptionsInput {
	if a == nil {
		return nil
	}
	out := &sc.AdvancedSecurityOptionsInput{
		AnonymousAuthEnabled: boolPtr(a.AnonymousAuthEnabled), Enabled: boolPtr(a.Enabled), InternalUserDatabaseEnabled: boolPtr(a.InternalUserDatabaseEnabled),
	}
	if f := a.IdentityFederationOptions; f != nil {
		out.IdentityFederationOptions = &sc.IdentityFederationOptions{Enabled: boolPtr(f.Enabled), RolesKey: strPtr(f.RolesKey), SubjectKey: strPtr(f.SubjectKey)}
	}
	if j := a.JWTOptions; j != nil {
		out.JWTOptions = &sc.JWTOptions{Enabled: boolPtr(j.Enabled), JwksUrl: strPtr(j.JwksURL), PublicKey: strPtr(j.PublicKey), RolesKey: strPtr(j.RolesKey), SubjectKey: strPtr(j.SubjectKey)}
	}
	if mu := a.MasterUserOptions; mu != nil {
		out.MasterUserOptions = &sc.MasterUserOptions{MasterUserARN: strPtr(mu.MasterUserARN), MasterUserName: strPtr(mu.MasterUserName), MasterUserPassword: strPtr(mu.MasterUserPassword)}
	}
	if s := a.SAMLOptions; s != nil {
		out.SAMLOptions = &sc.SAMLOptionsInput{
			Enabled: boolPtr(s.Enabled), MasterBackendRole: strPtr(s.MasterBackendRole), MasterUserName: strPtr(s.MasterUserName),
			RolesKey: strPtr(s.RolesKey), SessionTimeoutMinutes: int64Ptr(s.SessionTimeoutMinutes), SubjectKey: strPtr(s.SubjectKey),
		}
		if i := s.Idp; i != nil {
			out.SAMLOptions.Idp = &sc.SAMLIdp{EntityId: strPtr(i.EntityID), MetadataContent: strPtr(i.MetadataContent)}
		}
	}
	return out
}

func expandClusterConfig(c *clusterConfigModel) *sc.ClusterConfig {
	if c == nil {
		return nil
	}
	out := &sc.ClusterConfig{
		DedicatedMasterCount: int64Ptr(c.DedicatedMasterCount), DedicatedMasterEnabled: boolPtr(c.DedicatedMasterEnabled),
		DedicatedMasterType: strPtr(c.DedicatedMasterType), InstanceCount: int64Ptr(c.InstanceCount), InstanceType: strPtr(c.InstanceType),
		MultiAZWithStandbyEnabled: boolPtr(c.MultiAZWithStandbyEnabled), WarmCount: int64Ptr(c.WarmCount), WarmEnabled: boolPtr(c.WarmEnabled),
		WarmType: strPtr(c.WarmType), ZoneAwarenessEnabled: boolPtr(c.ZoneAwarenessEnabled),
	}
	if cs := c.ColdStorageOptions; cs != nil {
		out.ColdStorageOptions = &sc.ColdStorageOptions{Enabled: boolPtr(cs.Enabled)}
	}
	for _, n := range c.NodeOptions {
		no := sc.NodeOption{NodeType: strPtr(n.NodeType)}
		if nc := n.NodeConfig; nc != nil {
			no.NodeConfig = &sc.NodeConfig{Count: int64Ptr(nc.Count), Enabled: boolPtr(nc.Enabled), Type: strPtr(nc.Type)}
		}
		out.NodeOptions = append(out.NodeOptions, no)
	}
	if z := c.ZoneAwarenessConfig; z != nil {
		out.ZoneAwarenessConfig = &sc.ZoneAwarenessConfig{AvailabilityZoneCount: int64Ptr(z.AvailabilityZoneCount)}
	}
	return out
}
