package search

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

func TestDsEpochString(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   *sc.EpochSeconds
		want *string
	}{
		{"nil stays nil", nil, nil},
		{"whole seconds", ptr(sc.EpochSeconds(1700000000)), ptr("2023-11-14T22:13:20Z")},
		{"milliseconds round to the second", ptr(sc.EpochSeconds(1700000000.6)), ptr("2023-11-14T22:13:21Z")},
		{"epoch", ptr(sc.EpochSeconds(0)), ptr("1970-01-01T00:00:00Z")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if d := cmp.Diff(tc.want, dsEpochString(tc.in)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestFlattenPlannedDomain(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   *sc.DomainStatus
		want *plannedDomainModel
	}{
		{"not loaded", nil, nil},
		{"empty answer keeps every field null", &sc.DomainStatus{}, &plannedDomainModel{}},
		{
			"sections renamed and timestamps as RFC 3339",
			&sc.DomainStatus{
				DomainName:             ptr("demo"),
				Endpoints:              map[string]string{"vpc": "vpc-demo.example"},
				ServiceSoftwareOptions: &sc.ServiceSoftwareOptions{AutomatedUpdateDate: ptr(sc.EpochSeconds(0)), UpdateAvailable: ptr(false)},
				ModifyingProperties:    []sc.ModifyingProperty{{Name: ptr("ClusterConfig.InstanceType"), ValueType: ptr("PLAIN_TEXT")}},
				ClusterConfig: &sc.ClusterConfig{
					InstanceType:        ptr("r6g.xlarge.search"),
					ColdStorageOptions:  &sc.ColdStorageOptions{Enabled: ptr(false)},
					NodeOptions:         []sc.NodeOption{{NodeType: ptr("coordinator"), NodeConfig: &sc.NodeConfig{Count: ptr(int64(2))}}},
					ZoneAwarenessConfig: &sc.ZoneAwarenessConfig{AvailabilityZoneCount: ptr(int64(3))},
				},
				AdvancedSecurityOptions: &sc.AdvancedSecurityOptions{
					AnonymousAuthDisableDate: ptr(sc.EpochSeconds(86400)),
					SAMLOptions:              &sc.SAMLOptions{Idp: &sc.SAMLIdp{EntityId: ptr("idp")}},
				},
				AIMLOptions:                   &sc.AIMLOptions{ObjectStoreVectorsEngine: &sc.ObjectStoreVectorsEngine{Enabled: ptr(true)}},
				AutomatedSnapshotPauseOptions: &sc.AutomatedSnapshotPauseOptions{StartTime: ptr(sc.EpochSeconds(60)), State: ptr("Scheduled")},
				LogPublishingOptions:          map[string]sc.LogPublishingOption{"AUDIT_LOGS": {Enabled: ptr(true)}},
				OffPeakWindowOptions:          &sc.OffPeakWindowOptions{Enabled: ptr(true), OffPeakWindow: &sc.OffPeakWindow{WindowStartTime: &sc.WindowStartTime{Hours: ptr(int64(0))}}},
				VPCOptions:                    &sc.VPCDerivedInfo{SubnetIds: []string{"subnet-1"}, VPCId: ptr("vpc-1")},
				EncryptionAtRestOptions:       &sc.EncryptionAtRestOptions{KmsKeyId: ptr("key")},
			},
			&plannedDomainModel{
				DomainName:             ptr("demo"),
				Endpoints:              map[string]string{"vpc": "vpc-demo.example"},
				ServiceSoftwareOptions: &plannedServiceSoftware{AutomatedUpdateDate: ptr("1970-01-01T00:00:00Z"), UpdateAvailable: ptr(false)},
				ModifyingProperties:    []plannedModifyingProperty{{Name: ptr("ClusterConfig.InstanceType"), ValueType: ptr("PLAIN_TEXT")}},
				ClusterConfig: &plannedClusterConfig{
					InstanceType:        ptr("r6g.xlarge.search"),
					ColdStorageOptions:  &plannedEnabled{Enabled: ptr(false)},
					NodeOptions:         []plannedNodeOption{{NodeType: ptr("coordinator"), NodeConfig: &plannedNodeConfig{Count: ptr(int64(2))}}},
					ZoneAwarenessConfig: &plannedZoneAwareness{AvailabilityZoneCount: ptr(int64(3))},
				},
				AdvancedSecurityOptions: &plannedAdvancedSecurity{
					AnonymousAuthDisableDate: ptr("1970-01-02T00:00:00Z"),
					SAMLOptions:              &plannedSAML{Idp: &plannedSAMLIdp{EntityID: ptr("idp")}},
				},
				AIMLOptions:                   &plannedAIML{ObjectStoreVectorsEngine: &plannedEnabled{Enabled: ptr(true)}},
				AutomatedSnapshotPauseOptions: &plannedSnapshotPause{StartTime: ptr("1970-01-01T00:01:00Z"), State: ptr("Scheduled")},
				LogPublishingOptions:          map[string]plannedLogPublishing{"AUDIT_LOGS": {Enabled: ptr(true)}},
				OffPeakWindowOptions:          &plannedOffPeakWindowOptions{Enabled: ptr(true), OffPeakWindow: &plannedOffPeakWindow{WindowStartTime: &plannedWindowStartTime{Hours: ptr(int64(0))}}},
				VPCOptions:                    &plannedVPC{SubnetIDs: []string{"subnet-1"}, VPCID: ptr("vpc-1")},
				EncryptionAtRestOptions:       &plannedEncryptionAtRest{KmsKeyID: ptr("key")},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if d := cmp.Diff(tc.want, flattenPlannedDomain(tc.in)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestFlattenChangeProgress(t *testing.T) {
	t.Parallel()
	id := "11111111-2222-4333-8444-555555555555"
	cases := []struct {
		name    string
		inputID types.String
		in      *sc.ChangeProgressStatus
		want    changeProgressDataSourceModel
	}{
		{
			"never changed: null scalars, empty lists",
			types.StringNull(),
			&sc.ChangeProgressStatus{},
			changeProgressDataSourceModel{
				ChangeID: types.StringNull(), AcceptedWarnings: []string{}, ChangeProgressStages: []changeProgressStageModel{},
				CompletedProperties: []string{}, PendingProperties: []string{}, ValidationFailures: []validationFailureModel{},
			},
		},
		{
			"most recent change names its id",
			types.StringNull(),
			&sc.ChangeProgressStatus{
				ChangeId: ptr(id), Status: ptr("PROCESSING"), StartTime: ptr(sc.EpochSeconds(0)), TotalNumberOfStages: ptr(int64(2)),
				ChangeProgressStages: []sc.ChangeProgressStage{{Name: ptr("Validation"), Status: ptr("COMPLETED"), LastUpdated: ptr(sc.EpochSeconds(60))}, {Name: ptr("ApplyingDynamicChanges"), Status: ptr("PENDING")}},
				PendingProperties:    []string{"SnapshotOptions.AutomatedSnapshotStartHour"},
				ValidationFailures:   []sc.ValidationFailure{{Code: ptr("ADV_X"), Severity: ptr("Advisory")}},
			},
			changeProgressDataSourceModel{
				ChangeID: types.StringValue(id), Status: ptr("PROCESSING"), StartTime: ptr("1970-01-01T00:00:00Z"), TotalNumberOfStages: ptr(int64(2)),
				AcceptedWarnings: []string{}, CompletedProperties: []string{},
				ChangeProgressStages: []changeProgressStageModel{{Name: ptr("Validation"), Status: ptr("COMPLETED"), LastUpdated: ptr("1970-01-01T00:01:00Z")}, {Name: ptr("ApplyingDynamicChanges"), Status: ptr("PENDING")}},
				PendingProperties:    []string{"SnapshotOptions.AutomatedSnapshotStartHour"},
				ValidationFailures:   []validationFailureModel{{Code: ptr("ADV_X"), Severity: ptr("Advisory")}},
			},
		},
		{
			"configured id is kept",
			types.StringValue(id),
			&sc.ChangeProgressStatus{ChangeId: ptr(id)},
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

// The models must fit the schemas: a mismatch only shows when Terraform
// reads the data source, so set a full model into an empty state here.
func TestDataSourceModelsFitSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	full := &sc.DescribeDryRunProgressOutput{
		DryRunProgressStatus: &sc.DryRunProgressStatus{DryRunStatus: ptr("completed"), ValidationFailures: []sc.ValidationFailure{{Code: ptr("C")}}},
		DryRunResults:        &sc.DryRunResults{DeploymentType: ptr("dynamic")},
		DryRunConfig: &sc.DomainStatus{
			ClusterConfig:        &sc.ClusterConfig{NodeOptions: []sc.NodeOption{{NodeConfig: &sc.NodeConfig{}}}},
			LogPublishingOptions: map[string]sc.LogPublishingOption{"AUDIT_LOGS": {}},
			VPCOptions:           &sc.VPCDerivedInfo{SubnetIds: []string{"s"}},
		},
	}
	cases := []struct {
		name  string
		ds    datasource.DataSource
		model any
	}{
		{"dry run", NewDryRunDataSource(), func() any {
			// Timeouts comes from the configuration; here it is null.
			m := &dryRunDataSourceModel{Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"read": types.StringType})}}
			flattenDryRunOutput(full, m)
			return m
		}()},
		{"change progress", NewChangeProgressDataSource(), func() any {
			m := &changeProgressDataSourceModel{}
			flattenChangeProgress(&sc.ChangeProgressStatus{ChangeProgressStages: []sc.ChangeProgressStage{{}}}, m)
			return m
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var sr datasource.SchemaResponse
			tc.ds.Schema(ctx, datasource.SchemaRequest{}, &sr)
			if sr.Diagnostics.HasError() {
				t.Fatalf("schema: %v", sr.Diagnostics)
			}
			if diags := sr.Schema.ValidateImplementation(ctx); diags.HasError() {
				t.Fatalf("schema: %v", diags)
			}
			st := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
			if diags := st.Set(ctx, tc.model); diags.HasError() {
				t.Fatalf("model does not fit the schema: %v", diags)
			}
		})
	}
}
