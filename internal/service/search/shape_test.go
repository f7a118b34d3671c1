package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// resourceSchema is cloud_search_domain_config's schema.
func resourceSchema(t *testing.T) resource.SchemaResponse {
	t.Helper()
	var sr resource.SchemaResponse
	NewDomainConfigResource().Schema(context.Background(), resource.SchemaRequest{}, &sr)
	if sr.Diagnostics.HasError() {
		t.Fatal(sr.Diagnostics)
	}
	return sr
}

// The shape's Terraform types are the schema's: the values it reads from
// an answer (and the nulls of what the answer leaves out) fit the
// schema's types; a mismatch would only show when Terraform reads a value.
func TestShapeTypesAreTheSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sr := resourceSchema(t)
	if diags := sr.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatal(diags)
	}
	empty, err := shape.Read(&searchclient.DomainConfig{}, tftypes.Value{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := shape.Read(decodeAnswer(t), tftypes.Value{})
	if err != nil {
		t.Fatal(err)
	}
	for name := range shape.ResourceAttributes() {
		at, diags := sr.Schema.TypeAtPath(ctx, path.Root(name))
		if diags.HasError() {
			t.Fatalf("%s: %v", name, diags)
		}
		want := at.TerraformType(ctx)
		for _, got := range []tftypes.Value{empty[name], full[name]} {
			if !want.Equal(got.Type()) {
				t.Errorf("%s: shape type %s, schema type %s", name, got.Type(), want)
			}
		}
	}
}

// answer is a DomainConfig answer holding every field the service returns
// in every section, written from the spec's table.
const answer = `{
"AccessPolicies":{"Options":"{\"Version\":\"2012-10-17\",\"Statement\":[]}","Status":{"State":"Active"}},
"AdvancedOptions":{"Options":{"rest.action.multi.allow_explicit_index":"false","indices.query.bool.max_clause_count":"2048"},"Status":{}},
"AdvancedSecurityOptions":{"Options":{"AnonymousAuthDisableDate":86400.4,"AnonymousAuthEnabled":false,"Enabled":true,"InternalUserDatabaseEnabled":true,
  "IdentityFederationOptions":{"Enabled":true,"RolesKey":"roles","SubjectKey":"sub"},
  "JWTOptions":{"Enabled":true,"JwksUrl":"https://jwks.example","PublicKey":"pk","RolesKey":"r","SubjectKey":"s"},
  "SAMLOptions":{"Enabled":true,"Idp":{"EntityId":"entity-1","MetadataContent":"<xml/>"},"RolesKey":"r","SessionTimeoutMinutes":60,"SubjectKey":"s"}},"Status":{}},
"AIMLOptions":{"Options":{"NaturalLanguageQueryGenerationOptions":{"DesiredState":"ENABLED","CurrentState":"ENABLE_IN_PROGRESS"},"ObjectStoreVectorsEngine":{"Enabled":true},"ServerlessVectorAcceleration":{"Enabled":false}},"Status":{}},
"AutomatedSnapshotPauseOptions":{"Options":{"Enabled":true,"StartTime":1767323045,"EndTime":1767409445,"State":"Scheduled"},"Status":{}},
"AutoTuneOptions":{"Options":{"DesiredState":"ENABLED","MaintenanceSchedules":[{"CronExpressionForRecurrence":"cron(0 0 ? * MON *)","Duration":{"Unit":"HOURS","Value":2},"StartAt":1767323045}],"RollbackOnDisable":"NO_ROLLBACK","UseOffPeakWindow":true},"Status":{"ErrorMessage":""}},
"ClusterConfig":{"Options":{"ColdStorageOptions":{"Enabled":false},"DedicatedMasterCount":3,"DedicatedMasterEnabled":true,"DedicatedMasterType":"m6g.large.search","InstanceCount":6,"InstanceType":"r6g.large.search","MultiAZWithStandbyEnabled":false,
  "NodeOptions":[{"NodeType":"coordinator","NodeConfig":{"Count":2,"Enabled":true,"Type":"m6g.large.search"}}],"WarmCount":2,"WarmEnabled":true,"WarmType":"ultrawarm1.medium.search","ZoneAwarenessConfig":{"AvailabilityZoneCount":3},"ZoneAwarenessEnabled":true},"Status":{}},
"UserPoolAuthOptions":{"Options":{"Enabled":true,"IdentityPoolId":"pool","RoleArn":"arn:cloud:identity::123456789012:role/r","UserPoolId":"up"},"Status":{}},
"DeploymentStrategyOptions":{"Options":{"DeploymentStrategy":"Default"},"Status":{}},
"DomainEndpointOptions":{"Options":{"CustomEndpoint":"search.example","CustomEndpointCertificateArn":"arn:cloud:acm:us-east-1:123456789012:certificate/c","CustomEndpointEnabled":true,"EnforceHTTPS":true,"TLSSecurityPolicy":"Policy-Min-TLS-1-2-2019-07"},"Status":{}},
"BlockVolumeOptions":{"Options":{"BlockVolumeEnabled":true,"Iops":3000,"Throughput":125,"VolumeSize":100,"VolumeType":"gp3"},"Status":{}},
"EncryptionAtRestOptions":{"Options":{"Enabled":true,"KmsKeyId":"key"},"Status":{}},
"EngineMode":{"Options":"GENERAL","Status":{}},
"EngineVersion":{"Options":"OpenSearch_2.19","Status":{}},
"WorkforceIdentityOptions":{"Options":{"EnabledAPIAccess":true,"WorkforceIdentityInstanceARN":"arn:cloud:sso:::instance/i","WorkforceIdentityInstanceRegion":"us-east-1","RolesKey":"r","SubjectKey":"s","WorkforceIdentityApplicationARN":"arn:cloud:sso:::application/a","IdentityStoreId":"store"},"Status":{}},
"IPAddressType":{"Options":"dualstack","Status":{}},
"LogPublishingOptions":{"Options":{"AUDIT_LOGS":{"LogsLogGroupArn":"arn:cloud:logs:us-east-1:123456789012:log-group:audit","Enabled":true}},"Status":{}},
"NodeToNodeEncryptionOptions":{"Options":{"Enabled":true},"Status":{}},
"OffPeakWindowOptions":{"Options":{"Enabled":true,"OffPeakWindow":{"WindowStartTime":{"Hours":0,"Minutes":30}}},"Status":{}},
"SnapshotOptions":{"Options":{"AutomatedSnapshotStartHour":0},"Status":{}},
"SoftwareUpdateOptions":{"Options":{"AutoSoftwareUpdateEnabled":true,"UseLatestServiceSoftwareForBlueGreen":false},"Status":{}},
"UseCase":{"Options":"SEARCH","Status":{}},
"VPCOptions":{"Options":{"EgressEnabled":true,"SecurityGroupIds":["sg-2","sg-1"],"SubnetIds":["subnet-1"],"AvailabilityZones":["us-east-1a"],"VPCId":"vpc-1"},"Status":{}}
}`

// request is what sending every section of answer back builds: the same
// values, in the request's shape (no member the service only returns), with
// the master user kept from the state, and each AdvancedOptions key the
// answer leaves out at the spec's default.
const request = `{
"AccessPolicies":"{\"Version\":\"2012-10-17\",\"Statement\":[]}",
"AdvancedOptions":{"indices.fielddata.cache.size":"unbounded","indices.query.bool.max_clause_count":"2048","rest.action.multi.allow_explicit_index":"false"},
"AdvancedSecurityOptions":{"AnonymousAuthEnabled":false,"Enabled":true,"InternalUserDatabaseEnabled":true,
  "IdentityFederationOptions":{"Enabled":true,"RolesKey":"roles","SubjectKey":"sub"},
  "JWTOptions":{"Enabled":true,"JwksUrl":"https://jwks.example","PublicKey":"pk","RolesKey":"r","SubjectKey":"s"},
  "MasterUserOptions":{"MasterUserName":"admin"},
  "SAMLOptions":{"Enabled":true,"Idp":{"EntityId":"entity-1","MetadataContent":"<xml/>"},"RolesKey":"r","SessionTimeoutMinutes":60,"SubjectKey":"s"}},
"AIMLOptions":{"NaturalLanguageQueryGenerationOptions":{"DesiredState":"ENABLED"},"ObjectStoreVectorsEngine":{"Enabled":true},"ServerlessVectorAcceleration":{"Enabled":false}},
"AutomatedSnapshotPauseOptions":{"Enabled":true,"StartTime":1767323045,"EndTime":1767409445},
"AutoTuneOptions":{"DesiredState":"ENABLED","MaintenanceSchedules":[{"CronExpressionForRecurrence":"cron(0 0 ? * MON *)","Duration":{"Unit":"HOURS","Value":2},"StartAt":1767323045}],"RollbackOnDisable":"NO_ROLLBACK","UseOffPeakWindow":true},
"ClusterConfig":{"ColdStorageOptions":{"Enabled":false},"DedicatedMasterCount":3,"DedicatedMasterEnabled":true,"DedicatedMasterType":"m6g.large.search","InstanceCount":6,"InstanceType":"r6g.large.search","MultiAZWithStandbyEnabled":false,
  "NodeOptions":[{"NodeType":"coordinator","NodeConfig":{"Count":2,"Enabled":true,"Type":"m6g.large.search"}}],"WarmCount":2,"WarmEnabled":true,"WarmType":"ultrawarm1.medium.search","ZoneAwarenessConfig":{"AvailabilityZoneCount":3},"ZoneAwarenessEnabled":true},
"UserPoolAuthOptions":{"Enabled":true,"IdentityPoolId":"pool","RoleArn":"arn:cloud:identity::123456789012:role/r","UserPoolId":"up"},
"DeploymentStrategyOptions":{"DeploymentStrategy":"Default"},
"DomainEndpointOptions":{"CustomEndpoint":"search.example","CustomEndpointCertificateArn":"arn:cloud:acm:us-east-1:123456789012:certificate/c","CustomEndpointEnabled":true,"EnforceHTTPS":true,"TLSSecurityPolicy":"Policy-Min-TLS-1-2-2019-07"},
"BlockVolumeOptions":{"BlockVolumeEnabled":true,"Iops":3000,"Throughput":125,"VolumeSize":100,"VolumeType":"gp3"},
"EncryptionAtRestOptions":{"Enabled":true,"KmsKeyId":"key"},
"EngineMode":"GENERAL",
"WorkforceIdentityOptions":{"EnabledAPIAccess":true,"WorkforceIdentityInstanceARN":"arn:cloud:sso:::instance/i","WorkforceIdentityInstanceRegion":"us-east-1","RolesKey":"r","SubjectKey":"s"},
"IPAddressType":"dualstack",
"LogPublishingOptions":{"AUDIT_LOGS":{"LogsLogGroupArn":"arn:cloud:logs:us-east-1:123456789012:log-group:audit","Enabled":true}},
"NodeToNodeEncryptionOptions":{"Enabled":true},
"OffPeakWindowOptions":{"Enabled":true,"OffPeakWindow":{"WindowStartTime":{"Hours":0,"Minutes":30}}},
"SnapshotOptions":{"AutomatedSnapshotStartHour":0},
"SoftwareUpdateOptions":{"AutoSoftwareUpdateEnabled":true,"UseLatestServiceSoftwareForBlueGreen":false},
"UseCase":"SEARCH",
"VPCOptions":{"EgressEnabled":true,"SecurityGroupIds":["sg-1","sg-2"],"SubnetIds":["subnet-1"]}
}`

func decodeAnswer(t *testing.T) *searchclient.DomainConfig {
	t.Helper()
	var dc searchclient.DomainConfig
	if err := json.Unmarshal([]byte(answer), &dc); err != nil {
		t.Fatal(err)
	}
	return &dc
}

// priorWithMasterUser is a state whose master user the service never
// returns.
func priorWithMasterUser(t *testing.T, sr resource.SchemaResponse) tftypes.Value {
	t.Helper()
	ctx := context.Background()
	st := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	if diags := st.SetAttribute(ctx, path.Root("domain_name"), "demo"); diags.HasError() {
		t.Fatal(diags)
	}
	mu := path.Root("advanced_security_options").AtName("master_user_options").AtName("master_user_name")
	if diags := st.SetAttribute(ctx, mu, "admin"); diags.HasError() {
		t.Fatal(diags)
	}
	return st.Raw
}

// Every field of every section read from an answer and sent back: nothing
// is lost, renamed or retyped on the way, the values the service only
// returns are not sent, and those it never returns come from the state.
func TestSectionsRoundTrip(t *testing.T) {
	t.Parallel()
	sr := resourceSchema(t)
	prior := priorWithMasterUser(t, sr)
	secs, err := shape.Read(decodeAnswer(t), prior)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tfvalue.WithAttributes(prior, secs)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	for name := range shape.ResourceAttributes() {
		all[name] = true
	}
	got, err := shape.Request(raw, all)
	if err != nil {
		t.Fatal(err)
	}
	gotJSON, _ := json.Marshal(got)
	var a, b any
	_ = json.Unmarshal(gotJSON, &a)
	if err := json.Unmarshal([]byte(request), &b); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(b, a); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}

	// The state as a user reads it: names, RFC 3339 times, sets.
	st := tfsdk.State{Schema: sr.Schema, Raw: raw}
	for p, want := range map[string]attr.Value{
		"cluster_config.node_options[0].node_config.count":                     types.Int64Value(2),
		"advanced_security_options.anonymous_auth_disable_date":                customtypes.Time{RFC3339: timetypes.NewRFC3339ValueMust("1970-01-02T00:00:00Z")},
		"automated_snapshot_pause_options.start_time":                          customtypes.Time{RFC3339: timetypes.NewRFC3339ValueMust("2026-01-02T03:04:05Z")},
		"aiml_options.natural_language_query_generation_options.current_state": types.StringValue("ENABLE_IN_PROGRESS"),
		"log_publishing_options[\"AUDIT_LOGS\"].enabled":                       types.BoolValue(true),
		"vpc_options.vpc_id": types.StringValue("vpc-1"),
		"advanced_security_options.master_user_options.master_user_name": types.StringValue("admin"),
	} {
		if got := attrAt(t, st, p); !got.Equal(want) {
			t.Errorf("%s = %s, want %s", p, got, want)
		}
	}
}

// attrAt reads one attribute of a state by a path written as in HCL.
func attrAt(t *testing.T, st tfsdk.State, p string) attr.Value {
	t.Helper()
	var pp path.Path
	for _, step := range splitPath(p) {
		switch {
		case step.key != "":
			pp = pp.AtMapKey(step.key)
		case step.index >= 0:
			pp = pp.AtListIndex(step.index)
		case len(pp.Steps()) == 0:
			pp = path.Root(step.name)
		default:
			pp = pp.AtName(step.name)
		}
	}
	var v attr.Value
	if diags := st.GetAttribute(context.Background(), pp, &v); diags.HasError() {
		t.Fatalf("%s: %v", p, diags)
	}
	if iv, ok := v.(basetypes.Int64Valuable); ok {
		i, _ := iv.ToInt64Value(context.Background())
		return i
	}
	return v
}

type pathStep struct {
	name, key string
	index     int
}

func splitPath(p string) []pathStep {
	var out []pathStep
	for len(p) > 0 {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			end := 1
			for p[end] != ']' {
				end++
			}
			in := p[1:end]
			if in[0] == '"' {
				out = append(out, pathStep{key: in[1 : len(in)-1], index: -1})
			} else {
				out = append(out, pathStep{index: int(in[0] - '0')})
			}
			p = p[end+1:]
		default:
			end := 0
			for end < len(p) && p[end] != '.' && p[end] != '[' {
				end++
			}
			out = append(out, pathStep{name: p[:end], index: -1})
			p = p[end:]
		}
	}
	return out
}

// A running change's pending values are laid over the active ones, down to
// nested fields and map keys; a secret or a name this provider does not
// know is left alone.
func TestWithPending(t *testing.T) {
	t.Parallel()
	sr := resourceSchema(t)
	prior := priorWithMasterUser(t, sr)
	secs, err := shape.Read(decodeAnswer(t), prior)
	if err != nil {
		t.Fatal(err)
	}
	shape.WithPending(secs, []searchclient.ModifyingProperty{
		{Name: new("ClusterConfig.InstanceType"), PendingValue: new("r6g.xlarge.search"), ValueType: new("PLAIN_TEXT")},
		{Name: new("ClusterConfig.InstanceCount"), PendingValue: new("9"), ValueType: new("PLAIN_TEXT")},
		{Name: new("ClusterConfig.ZoneAwarenessConfig"), PendingValue: new(`{"AvailabilityZoneCount":2}`), ValueType: new("STRINGIFIED_JSON")},
		{Name: new("SnapshotOptions.AutomatedSnapshotStartHour"), PendingValue: new("3"), ValueType: new("PLAIN_TEXT")},
		{Name: new("LogPublishingOptions.AUDIT_LOGS.Enabled"), PendingValue: new("false"), ValueType: new("PLAIN_TEXT")},
		{Name: new("AccessPolicies"), PendingValue: new(`{"Version":"2012-10-17"}`), ValueType: new("STRINGIFIED_JSON")},
		// A map key with dots: the rest of the name.
		{Name: new("AdvancedOptions.indices.fielddata.cache.size"), PendingValue: new("50"), ValueType: new("PLAIN_TEXT")},
		{Name: new("AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword"), PendingValue: new("secret-value"), ValueType: new("PLAIN_TEXT")},
		{Name: new("NoSuchSection.X"), PendingValue: new("1")},
	})
	raw, err := tfvalue.WithAttributes(prior, secs)
	if err != nil {
		t.Fatal(err)
	}
	st := tfsdk.State{Schema: sr.Schema, Raw: raw}
	for p, want := range map[string]attr.Value{
		"cluster_config.instance_type":                                       types.StringValue("r6g.xlarge.search"),
		"cluster_config.instance_count":                                      types.Int64Value(9),
		"cluster_config.zone_awareness_config.availability_zone_count":       types.Int64Value(2),
		"cluster_config.dedicated_master_count":                              types.Int64Value(3),
		"snapshot_options.automated_snapshot_start_hour":                     types.Int64Value(3),
		"log_publishing_options[\"AUDIT_LOGS\"].enabled":                     types.BoolValue(false),
		"advanced_options[\"indices.fielddata.cache.size\"]":                 types.StringValue("50"),
		"advanced_security_options.master_user_options.master_user_password": types.StringNull(),
	} {
		if got := attrAt(t, st, p); !got.Equal(want) {
			t.Errorf("%s = %s, want %s", p, got, want)
		}
	}
	policy, _ := attrAt(t, st, "access_policies").(basetypes.StringValuable).ToStringValue(context.Background())
	if policy.ValueString() != `{"Version":"2012-10-17"}` {
		t.Errorf("access_policies = %s", policy)
	}
}

func TestFlattenChangeProgress(t *testing.T) {
	t.Parallel()
	id := "11111111-2222-4333-8444-555555555555"
	cases := []struct {
		name    string
		inputID types.String
		in      *searchclient.ChangeProgressStatus
		want    changeProgressDataSourceModel
	}{
		{
			"never changed: null scalars, empty lists",
			types.StringNull(),
			&searchclient.ChangeProgressStatus{},
			changeProgressDataSourceModel{
				ChangeID: types.StringNull(), AcceptedWarnings: []string{}, ChangeProgressStages: []changeProgressStageModel{},
				CompletedProperties: []string{}, PendingProperties: []string{}, ValidationFailures: []validationFailureModel{},
			},
		},
		{
			"most recent change names its id",
			types.StringNull(),
			&searchclient.ChangeProgressStatus{
				ChangeId: new(id), Status: new("PROCESSING"), StartTime: new(searchclient.EpochSeconds(0)), TotalNumberOfStages: new(int64(2)),
				ChangeProgressStages: []searchclient.ChangeProgressStage{{Name: new("Validation"), Status: new("COMPLETED"), LastUpdated: new(searchclient.EpochSeconds(60))}, {Name: new("ApplyingDynamicChanges"), Status: new("PENDING")}},
				PendingProperties:    []string{"SnapshotOptions.AutomatedSnapshotStartHour"},
				ValidationFailures:   []searchclient.ValidationFailure{{Code: new("ADV_X"), Severity: new("Advisory")}},
			},
			changeProgressDataSourceModel{
				ChangeID: types.StringValue(id), Status: new("PROCESSING"), StartTime: new("1970-01-01T00:00:00Z"), TotalNumberOfStages: new(int64(2)),
				AcceptedWarnings: []string{}, CompletedProperties: []string{},
				ChangeProgressStages: []changeProgressStageModel{{Name: new("Validation"), Status: new("COMPLETED"), LastUpdated: new("1970-01-01T00:01:00Z")}, {Name: new("ApplyingDynamicChanges"), Status: new("PENDING")}},
				PendingProperties:    []string{"SnapshotOptions.AutomatedSnapshotStartHour"},
				ValidationFailures:   []validationFailureModel{{Code: new("ADV_X"), Severity: new("Advisory")}},
			},
		},
		{
			"configured id is kept",
			types.StringValue(id),
			&searchclient.ChangeProgressStatus{ChangeId: new(id)},
			changeProgressDataSourceModel{
				ChangeID: types.StringValue(id), AcceptedWarnings: []string{}, ChangeProgressStages: []changeProgressStageModel{},
				CompletedProperties: []string{}, PendingProperties: []string{}, ValidationFailures: []validationFailureModel{},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := changeProgressDataSourceModel{ChangeID: tc.inputID}
			flattenChangeProgress(tc.in, &got)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// The data sources' models and the DryRunConfig conversion must fit the
// schemas: a mismatch only shows when Terraform reads the data source.
func TestDataSourcesFitSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var cfg searchclient.DomainStatus
	if err := json.Unmarshal([]byte(`{"DomainName":"demo","Endpoints":{"vpc":"vpc-demo.example"},
		"ServiceSoftwareOptions":{"AutomatedUpdateDate":0,"UpdateAvailable":false},
		"ChangeProgressDetails":{"ChangeId":"11111111-2222-4333-8444-555555555555","StartTime":60},
		"ModifyingProperties":[{"Name":"ClusterConfig.InstanceType","ActiveValue":"a","PendingValue":"b","ValueType":"PLAIN_TEXT"},
			{"Name":"AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword","ActiveValue":"old-Secret-1","PendingValue":"new-Secret-2","ValueType":"PLAIN_TEXT"}],
		"ClusterConfig":{"InstanceType":"r6g.xlarge.search","NodeOptions":[{"NodeType":"coordinator","NodeConfig":{"Count":2}}]},
		"AutoTuneOptions":{"State":"ENABLED","UseOffPeakWindow":true},
		"LogPublishingOptions":{"AUDIT_LOGS":{"Enabled":true}},
		"VPCOptions":{"SubnetIds":["subnet-2","subnet-1"],"VPCId":"vpc-1"}}`), &cfg); err != nil {
		t.Fatal(err)
	}
	full := &searchclient.DescribeDryRunProgressOutput{
		DryRunProgressStatus: &searchclient.DryRunProgressStatus{DryRunStatus: new("completed"), ValidationFailures: []searchclient.ValidationFailure{{Code: new("C")}}},
		DryRunResults:        &searchclient.DryRunResults{DeploymentType: new("dynamic")},
		DryRunConfig:         &cfg,
	}
	var sr datasource.SchemaResponse
	NewDryRunDataSource().Schema(ctx, datasource.SchemaRequest{}, &sr)
	if diags := sr.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatal(diags)
	}
	st := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	m := &dryRunDataSourceModel{
		Timeouts:     timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"read": types.StringType})},
		DryRunConfig: types.ObjectNull(dryRunConfigAttrTypes(ctx, sr.Schema)),
	}
	flattenDryRunOutput(full, m)
	if diags := st.Set(ctx, m); diags.HasError() {
		t.Fatalf("model does not fit the schema: %v", diags)
	}
	v, err := dryRunConfigValue(ctx, dryRunConfigAttrTypes(ctx, sr.Schema), full.DryRunConfig)
	if err != nil {
		t.Fatal(err)
	}
	if diags := st.SetAttribute(ctx, path.Root("dry_run_config"), v); diags.HasError() {
		t.Fatal(diags)
	}
	for p, want := range map[string]attr.Value{
		"dry_run_config.domain_name":                                      types.StringValue("demo"),
		"dry_run_config.service_software_options.automated_update_date":   types.StringValue("1970-01-01T00:00:00Z"),
		"dry_run_config.change_progress_details.start_time":               types.StringValue("1970-01-01T00:01:00Z"),
		"dry_run_config.modifying_properties[0].pending_value":            types.StringValue("b"),
		"dry_run_config.modifying_properties[1].active_value":             types.StringValue("(sensitive value)"),
		"dry_run_config.modifying_properties[1].pending_value":            types.StringValue("(sensitive value)"),
		"dry_run_config.cluster_config.node_options[0].node_config.count": types.Int64Value(2),
		"dry_run_config.auto_tune_options.state":                          types.StringValue("ENABLED"),
		"dry_run_config.log_publishing_options[\"AUDIT_LOGS\"].enabled":   types.BoolValue(true),
		"dry_run_config.vpc_options.subnet_ids[0]":                        types.StringValue("subnet-2"),
		"dry_run_config.cluster_config.instance_count":                    types.Int64Null(),
	} {
		if got := attrAt(t, st, p); !got.Equal(want) {
			t.Errorf("%s = %s, want %s", p, got, want)
		}
	}

	var cr datasource.SchemaResponse
	NewChangeProgressDataSource().Schema(ctx, datasource.SchemaRequest{}, &cr)
	cst := tfsdk.State{Schema: cr.Schema, Raw: tftypes.NewValue(cr.Schema.Type().TerraformType(ctx), nil)}
	cm := &changeProgressDataSourceModel{}
	flattenChangeProgress(&searchclient.ChangeProgressStatus{ChangeProgressStages: []searchclient.ChangeProgressStage{{}}}, cm)
	if diags := cst.Set(ctx, cm); diags.HasError() {
		t.Fatalf("model does not fit the schema: %v", diags)
	}
}
