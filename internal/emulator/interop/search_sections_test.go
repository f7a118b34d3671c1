package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/opensearch"
	"github.com/aws/aws-sdk-go-v2/service/opensearch/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// Every configuration section the SDK's UpdateDomainConfigInput has, sent
// with every member set, applied (dry-run first, its advisory warnings
// accepted), and read back with DescribeDomainConfig: each member sent
// comes back as it was sent, decoded by the SDK. Write-only members
// (MasterUserOptions, SAML's MasterBackendRole and MasterUserName) are not
// returned; the emulator's state is checked for the password instead.
// EngineMode and UseCase are not in the SDK's model: they are added to the
// body (withMembers) and read from the raw answer.
func TestSearchSDK_sectionsRoundTrip(t *testing.T) {
	t.Parallel()
	// The time every subtest sets the emulator's clock to: the dates
	// below are checked against it.
	now := offPeak
	const password = "Interop-Passw0rd!"
	sections := []struct {
		name  string
		in    opensearch.UpdateDomainConfigInput
		extra map[string]any
		// sent and read are the section as sent and as DescribeDomainConfig
		// decodes it.
		sent any
		read func(*types.DomainConfig) any
	}{
		{name: "AccessPolicies", in: opensearch.UpdateDomainConfigInput{AccessPolicies: aws.String(
			`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"CLOUD":"arn:cloud:identity::123456789012:user/reader"},"Action":"search:ESHttpGet","Resource":"arn:cloud:search:us-east-1:123456789012:domain/demo/*"}]}`)},
			read: func(c *types.DomainConfig) any { return c.AccessPolicies.Options }},
		{name: "AdvancedOptions", in: opensearch.UpdateDomainConfigInput{AdvancedOptions: map[string]string{
			"indices.query.bool.max_clause_count": "2048", "indices.fielddata.cache.size": "40", "rest.action.multi.allow_explicit_index": "false"}},
			read: func(c *types.DomainConfig) any { return c.AdvancedOptions.Options }},
		{name: "AdvancedSecurityOptions", in: opensearch.UpdateDomainConfigInput{AdvancedSecurityOptions: &types.AdvancedSecurityOptionsInput{
			Enabled: aws.Bool(true), InternalUserDatabaseEnabled: aws.Bool(true), AnonymousAuthEnabled: aws.Bool(true),
			MasterUserOptions:    &types.MasterUserOptions{MasterUserName: aws.String("admin"), MasterUserPassword: aws.String(password)},
			IAMFederationOptions: &types.IAMFederationOptionsInput{Enabled: aws.Bool(true), RolesKey: aws.String("roles"), SubjectKey: aws.String("sub")},
			JWTOptions:           &types.JWTOptionsInput{Enabled: aws.Bool(true), JwksUrl: aws.String("https://idp.example.com/.well-known/jwks.json"), RolesKey: aws.String("groups"), SubjectKey: aws.String("email")},
			SAMLOptions: &types.SAMLOptionsInput{Enabled: aws.Bool(true), Idp: &types.SAMLIdp{EntityId: aws.String("https://idp.example.com/saml"), MetadataContent: aws.String("<EntityDescriptor entityID=\"https://idp.example.com/saml\"/>")},
				MasterBackendRole: aws.String("admins"), MasterUserName: aws.String("saml-admin"), RolesKey: aws.String("Role"), SessionTimeoutMinutes: aws.Int32(120), SubjectKey: aws.String("NameID")},
		}},
			sent: &types.AdvancedSecurityOptionsInput{
				Enabled: aws.Bool(true), InternalUserDatabaseEnabled: aws.Bool(true), AnonymousAuthEnabled: aws.Bool(true),
				IAMFederationOptions: &types.IAMFederationOptionsInput{Enabled: aws.Bool(true), RolesKey: aws.String("roles"), SubjectKey: aws.String("sub")},
				JWTOptions:           &types.JWTOptionsInput{Enabled: aws.Bool(true), JwksUrl: aws.String("https://idp.example.com/.well-known/jwks.json"), RolesKey: aws.String("groups"), SubjectKey: aws.String("email")},
				SAMLOptions: &types.SAMLOptionsInput{Enabled: aws.Bool(true), Idp: &types.SAMLIdp{EntityId: aws.String("https://idp.example.com/saml"), MetadataContent: aws.String("<EntityDescriptor entityID=\"https://idp.example.com/saml\"/>")},
					RolesKey: aws.String("Role"), SessionTimeoutMinutes: aws.Int32(120), SubjectKey: aws.String("NameID")},
			},
			read: func(c *types.DomainConfig) any { return c.AdvancedSecurityOptions.Options }},
		{name: "AIMLOptions", in: opensearch.UpdateDomainConfigInput{AIMLOptions: &types.AIMLOptionsInput{
			NaturalLanguageQueryGenerationOptions: &types.NaturalLanguageQueryGenerationOptionsInput{DesiredState: types.NaturalLanguageQueryGenerationDesiredStateEnabled},
			S3VectorsEngine:                       &types.S3VectorsEngine{Enabled: aws.Bool(true)},
			ServerlessVectorAcceleration:          &types.ServerlessVectorAcceleration{Enabled: aws.Bool(true)},
		}}, read: func(c *types.DomainConfig) any { return c.AIMLOptions.Options }},
		{name: "AutomatedSnapshotPauseOptions", in: opensearch.UpdateDomainConfigInput{AutomatedSnapshotPauseOptions: &types.AutomatedSnapshotPauseRequestOptions{
			Enabled: aws.Bool(true), StartTime: aws.Time(now.Add(time.Hour)), EndTime: aws.Time(now.Add(49 * time.Hour)),
		}}, read: func(c *types.DomainConfig) any { return c.AutomatedSnapshotPauseOptions.Options }},
		{name: "AutoTuneOptions", in: opensearch.UpdateDomainConfigInput{AutoTuneOptions: &types.AutoTuneOptions{
			DesiredState: types.AutoTuneDesiredStateEnabled, RollbackOnDisable: types.RollbackOnDisableNoRollback, UseOffPeakWindow: aws.Bool(false),
			MaintenanceSchedules: []types.AutoTuneMaintenanceSchedule{{
				CronExpressionForRecurrence: aws.String("cron(0 3 ? * MON *)"), StartAt: aws.Time(now.Add(24 * time.Hour)),
				Duration: &types.Duration{Unit: types.TimeUnitHours, Value: aws.Int64(2)},
			}},
		}}, read: func(c *types.DomainConfig) any { return c.AutoTuneOptions.Options }},
		{name: "ClusterConfig", in: opensearch.UpdateDomainConfigInput{ClusterConfig: &types.ClusterConfig{
			InstanceType: "r6g.xlarge.search", InstanceCount: aws.Int32(6),
			DedicatedMasterEnabled: aws.Bool(true), DedicatedMasterCount: aws.Int32(5), DedicatedMasterType: "m6g.xlarge.search",
			ZoneAwarenessEnabled: aws.Bool(true), ZoneAwarenessConfig: &types.ZoneAwarenessConfig{AvailabilityZoneCount: aws.Int32(3)},
			WarmEnabled: aws.Bool(true), WarmCount: aws.Int32(2), WarmType: "ultrawarm1.medium.search",
			ColdStorageOptions: &types.ColdStorageOptions{Enabled: aws.Bool(true)}, MultiAZWithStandbyEnabled: aws.Bool(false),
			NodeOptions: []types.NodeOption{{NodeType: types.NodeOptionsNodeTypeCoordinator, NodeConfig: &types.NodeConfig{Enabled: aws.Bool(true), Type: "m6g.large.search", Count: aws.Int32(2)}}},
		}}, read: func(c *types.DomainConfig) any { return c.ClusterConfig.Options }},
		{name: "UserPoolAuthOptions (the SDK's CognitoOptions)", in: opensearch.UpdateDomainConfigInput{CognitoOptions: &types.CognitoOptions{
			Enabled: aws.Bool(true), IdentityPoolId: aws.String("us-east-1:11111111-2222-3333-4444-555555555555"),
			RoleArn: aws.String("arn:cloud:identity::123456789012:role/UserPoolAccess"), UserPoolId: aws.String("us-east-1_Abcdefghi"),
		}}, read: func(c *types.DomainConfig) any { return c.CognitoOptions.Options }},
		{name: "DeploymentStrategyOptions", in: opensearch.UpdateDomainConfigInput{DeploymentStrategyOptions: &types.DeploymentStrategyOptions{
			DeploymentStrategy: types.DeploymentStrategyCapacityOptimized,
		}}, read: func(c *types.DomainConfig) any { return c.DeploymentStrategyOptions.Options }},
		{name: "DomainEndpointOptions", in: opensearch.UpdateDomainConfigInput{DomainEndpointOptions: &types.DomainEndpointOptions{
			CustomEndpoint: aws.String("search.example.com"), CustomEndpointEnabled: aws.Bool(true),
			CustomEndpointCertificateArn: aws.String("arn:cloud:certificates:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555"),
			EnforceHTTPS:                 aws.Bool(true), TLSSecurityPolicy: types.TLSSecurityPolicyPolicyMinTls12Pfs202310,
		}}, read: func(c *types.DomainConfig) any { return c.DomainEndpointOptions.Options }},
		{name: "BlockVolumeOptions (the SDK's EBSOptions)", in: opensearch.UpdateDomainConfigInput{EBSOptions: &types.EBSOptions{
			EBSEnabled: aws.Bool(true), VolumeType: types.VolumeTypeGp3, VolumeSize: aws.Int32(200), Iops: aws.Int32(4000), Throughput: aws.Int32(250),
		}}, read: func(c *types.DomainConfig) any { return c.EBSOptions.Options }},
		{name: "EncryptionAtRestOptions", in: opensearch.UpdateDomainConfigInput{EncryptionAtRestOptions: &types.EncryptionAtRestOptions{
			Enabled: aws.Bool(true), KmsKeyId: aws.String("arn:cloud:kms:us-east-1:123456789012:key/11111111-2222-3333-4444-555555555555"),
		}}, read: func(c *types.DomainConfig) any { return c.EncryptionAtRestOptions.Options }},
		{name: "IPAddressType", in: opensearch.UpdateDomainConfigInput{IPAddressType: types.IPAddressTypeDualstack},
			sent: types.IPAddressTypeDualstack, read: func(c *types.DomainConfig) any { return c.IPAddressType.Options }},
		{name: "WorkforceIdentityOptions (the SDK's IdentityCenterOptions)", in: opensearch.UpdateDomainConfigInput{IdentityCenterOptions: &types.IdentityCenterOptionsInput{
			EnabledAPIAccess: aws.Bool(true), IdentityCenterInstanceARN: aws.String("arn:cloud:workforce::123456789012:instance/wfi-1234567890abcdef"),
			IdentityCenterInstanceRegion: aws.String("us-east-1"), RolesKey: types.RolesKeyIdCOptionGroupId, SubjectKey: types.SubjectKeyIdCOptionUserId,
		}}, read: func(c *types.DomainConfig) any { return c.IdentityCenterOptions.Options }},
		{name: "LogPublishingOptions", in: opensearch.UpdateDomainConfigInput{LogPublishingOptions: map[string]types.LogPublishingOption{
			"SEARCH_SLOW_LOGS":    {Enabled: aws.Bool(true), CloudWatchLogsLogGroupArn: aws.String("arn:cloud:logs:us-east-1:123456789012:log-group:/search/demo/slow")},
			"ES_APPLICATION_LOGS": {Enabled: aws.Bool(false), CloudWatchLogsLogGroupArn: aws.String("arn:cloud:logs:us-east-1:123456789012:log-group:/search/demo/app")},
		}}, read: func(c *types.DomainConfig) any { return c.LogPublishingOptions.Options }},
		{name: "NodeToNodeEncryptionOptions", in: opensearch.UpdateDomainConfigInput{NodeToNodeEncryptionOptions: &types.NodeToNodeEncryptionOptions{Enabled: aws.Bool(true)}},
			read: func(c *types.DomainConfig) any { return c.NodeToNodeEncryptionOptions.Options }},
		{name: "OffPeakWindowOptions", in: opensearch.UpdateDomainConfigInput{OffPeakWindowOptions: &types.OffPeakWindowOptions{
			Enabled: aws.Bool(true), OffPeakWindow: &types.OffPeakWindow{WindowStartTime: &types.WindowStartTime{Hours: 22, Minutes: 30}},
		}}, read: func(c *types.DomainConfig) any { return c.OffPeakWindowOptions.Options }},
		{name: "SnapshotOptions", in: opensearch.UpdateDomainConfigInput{SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(5)}},
			read: func(c *types.DomainConfig) any { return c.SnapshotOptions.Options }},
		{name: "SoftwareUpdateOptions", in: opensearch.UpdateDomainConfigInput{SoftwareUpdateOptions: &types.SoftwareUpdateOptions{
			AutoSoftwareUpdateEnabled: aws.Bool(true), UseLatestServiceSoftwareForBlueGreen: aws.Bool(true),
		}}, read: func(c *types.DomainConfig) any { return c.SoftwareUpdateOptions.Options }},
		{name: "VPCOptions", in: opensearch.UpdateDomainConfigInput{VPCOptions: &types.VPCOptions{
			SubnetIds: []string{"subnet-0a1b2c3d", "subnet-1a2b3c4d", "subnet-2a3b4c5d"}, SecurityGroupIds: []string{"sg-0a1b2c3d"}, EgressEnabled: aws.Bool(true),
		}}, read: func(c *types.DomainConfig) any { return c.VPCOptions.Options }},
		{name: "EngineMode and UseCase (not in the SDK's model)", extra: map[string]any{"EngineMode": "GENERAL", "UseCase": "VECTOR"}},
	}
	// Every field of the SDK's input but the request's own is a section,
	// and each needs a case: a section the SDK adds fails here until one is
	// written.
	covered := map[string]bool{}
	for _, sec := range sections {
		if sec.extra == nil {
			name, _ := onlySection(t, &sec.in)
			covered[name] = true
		}
	}
	notSections := []string{"DomainName", "DryRun", "DryRunMode"}
	for f := range reflect.TypeFor[opensearch.UpdateDomainConfigInput]().Fields() {
		if f.IsExported() && !slices.Contains(notSections, f.Name) && !covered[f.Name] {
			t.Errorf("UpdateDomainConfigInput.%s: no case sends it", f.Name)
		}
	}
	for _, sec := range sections {
		t.Run(sec.name, func(t *testing.T) {
			s := start(t)
			s.setClock(t, now)
			if err := s.Search.SetPace(search.Pace{}); err != nil {
				t.Fatal(err)
			}
			c := s.search()
			ctx := context.Background()
			in := sec.in
			in.DomainName = aws.String(domain)
			dry := in
			dry.DryRun, dry.DryRunMode = aws.Bool(true), types.DryRunModeVerbose
			out, err := c.UpdateDomainConfig(ctx, &dry, withMembers(sec.extra))
			if err != nil {
				t.Fatalf("Verbose dry run: %v", err)
			}
			accepted := advisoryCodes(t, s, out.DryRunProgressStatus.ValidationFailures)
			extra := map[string]any{"AcceptedWarnings": accepted}
			for k, v := range sec.extra {
				extra[k] = v
			}
			if _, err := c.UpdateDomainConfig(ctx, &in, withMembers(extra)); err != nil {
				t.Fatalf("UpdateDomainConfig with %v accepted: %v", accepted, err)
			}
			got, err := c.DescribeDomainConfig(ctx, &opensearch.DescribeDomainConfigInput{DomainName: aws.String(domain)})
			if err != nil {
				t.Fatalf("DescribeDomainConfig: %v", err)
			}
			_, raw, _ := s.rec.last()
			if sec.extra != nil {
				var rawCfg struct {
					DomainConfig map[string]struct{ Options any }
				}
				if err := json.Unmarshal([]byte(raw), &rawCfg); err != nil {
					t.Fatal(err)
				}
				for k, v := range sec.extra {
					if o := rawCfg.DomainConfig[k].Options; o != v {
						t.Errorf("%s: the raw DescribeDomainConfig answer has %v, want %v", k, o, v)
					}
				}
				return
			}
			sent := sec.sent
			if sent == nil {
				_, sent = onlySection(t, &sec.in)
			}
			if diff := notIn(t, sent, sec.read(got.DomainConfig)); diff != "" {
				t.Errorf("read back differs from what was sent:\n%s\nraw answer: %s", diff, raw)
			}
			if in.AdvancedSecurityOptions != nil && !s.Search.MasterUserPasswordIs(domain, password) {
				t.Errorf("the emulator does not hold the master user password sent")
			}
		})
	}
}

// onlySection is the name and value of the one section set in in.
func onlySection(t *testing.T, in *opensearch.UpdateDomainConfigInput) (string, any) {
	t.Helper()
	v := reflect.ValueOf(in).Elem()
	var name string
	var found any
	for i := range v.NumField() {
		f := v.Field(i)
		if !v.Type().Field(i).IsExported() || f.IsZero() {
			continue
		}
		if found != nil {
			t.Fatalf("more than one section set in %+v", in)
		}
		name, found = v.Type().Field(i).Name, f.Interface()
	}
	if found == nil {
		t.Fatalf("no section set in %+v", in)
	}
	return name, found
}

// notIn describes each member of sent (as encoding/json shows it) that
// read lacks or holds with another value; "" when there is none.
func notIn(t *testing.T, sent, read any) string {
	t.Helper()
	var a, b any
	for _, p := range []struct {
		v   any
		dst *any
	}{{sent, &a}, {read, &b}} {
		j, err := json.Marshal(p.v)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(j, p.dst); err != nil {
			t.Fatal(err)
		}
	}
	var diffs []string
	subset("", a, b, &diffs)
	return strings.Join(diffs, "\n")
}

func subset(path string, a, b any, diffs *[]string) {
	switch av := a.(type) {
	case nil:
		return
	case string:
		if av == "" { // an enumeration left unset
			return
		}
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: sent %v, read %v", path, a, b))
			return
		}
		for k, x := range av {
			subset(path+"."+k, x, bv[k], diffs)
		}
		return
	case []any:
		bv, ok := b.([]any)
		if !ok || len(bv) != len(av) {
			*diffs = append(*diffs, fmt.Sprintf("%s: sent %v, read %v", path, a, b))
			return
		}
		for i := range av {
			subset(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], diffs)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*diffs = append(*diffs, fmt.Sprintf("%s: sent %v, read %v", path, a, b))
	}
}
