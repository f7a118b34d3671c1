package search_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// field is one member of the spec's section table: where it goes in the
// request, the JSON sent, and what ModifyingProperties shows for it.
type field struct {
	path []string
	send string // JSON text
	// shown is the PendingValue; "" means send unquoted.
	shown string
	// active is the domain's value before the change ("" when unset).
	active    string
	valueType string
	// Kinds of field: a write-only one is never returned; an unchanged one
	// is returned but not modified; AutoTuneOptions members have their own
	// shape in the domain status object.
	writeOnly, unchanged, autoTune bool
}

func (f field) name() string { return strings.Join(f.path, ".") }

func (f field) pending() string {
	if f.shown != "" {
		return f.shown
	}
	return strings.Trim(f.send, `"`)
}

func p(path ...string) []string { return path }

// everyField is every field of every configuration section of the spec's
// table, as a domain created with no sections takes it.
func everyField(now time.Time) []field {
	const plain, stringified = "PLAIN_TEXT", "STRINGIFIED_JSON"
	start, end := now.Add(time.Hour).Unix(), now.Add(25*time.Hour).Unix()
	fs := []field{
		{path: p("AccessPolicies"), send: `"{\"Version\":\"2012-10-17\",\"Statement\":[]}"`, shown: `{"Version":"2012-10-17","Statement":[]}`, valueType: stringified},
		{path: p("AdvancedOptions", "rest.action.multi.allow_explicit_index"), send: `"false"`, active: "true", valueType: plain},
		{path: p("AdvancedOptions", "indices.fielddata.cache.size"), send: `"40"`, active: "unbounded", valueType: plain},
		{path: p("AdvancedOptions", "indices.query.bool.max_clause_count"), send: `"2048"`, active: "1024", valueType: plain},
		{path: p("AdvancedSecurityOptions", "AnonymousAuthEnabled"), send: `true`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "InternalUserDatabaseEnabled"), send: `true`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "IdentityFederationOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "IdentityFederationOptions", "RolesKey"), send: `"fed-roles"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "IdentityFederationOptions", "SubjectKey"), send: `"fed-sub"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "JWTOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "JWTOptions", "JwksUrl"), send: `"https://idp.example/jwks"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "JWTOptions", "PublicKey"), send: `"pk-1"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "JWTOptions", "RolesKey"), send: `"jwt-roles"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "JWTOptions", "SubjectKey"), send: `"jwt-sub"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "MasterUserOptions", "MasterUserARN"), send: `"arn:cloud:identity::123456789012:user/admin"`, valueType: plain, writeOnly: true},
		{path: p("AdvancedSecurityOptions", "MasterUserOptions", "MasterUserName"), send: `"admin"`, valueType: plain, writeOnly: true},
		{path: p("AdvancedSecurityOptions", "MasterUserOptions", "MasterUserPassword"), send: `"Sup3r-secret!"`, valueType: plain, writeOnly: true},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "Idp", "EntityId"), send: `"https://idp.example/saml"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "Idp", "MetadataContent"), send: `"<EntityDescriptor/>"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "MasterBackendRole"), send: `"saml-admins"`, valueType: plain, writeOnly: true},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "MasterUserName"), send: `"saml-admin"`, valueType: plain, writeOnly: true},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "RolesKey"), send: `"saml-roles"`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "SessionTimeoutMinutes"), send: `120`, valueType: plain},
		{path: p("AdvancedSecurityOptions", "SAMLOptions", "SubjectKey"), send: `"saml-sub"`, valueType: plain},
		{path: p("AIMLOptions", "NaturalLanguageQueryGenerationOptions", "DesiredState"), send: `"ENABLED"`, valueType: plain},
		{path: p("AIMLOptions", "ObjectStoreVectorsEngine", "Enabled"), send: `true`, valueType: plain},
		{path: p("AIMLOptions", "ServerlessVectorAcceleration", "Enabled"), send: `true`, valueType: plain},
		{path: p("AutomatedSnapshotPauseOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("AutomatedSnapshotPauseOptions", "StartTime"), send: fmt.Sprint(start), valueType: plain},
		{path: p("AutomatedSnapshotPauseOptions", "EndTime"), send: fmt.Sprint(end), valueType: plain},
		{path: p("AutoTuneOptions", "DesiredState"), send: `"ENABLED"`, valueType: plain, autoTune: true},
		{path: p("AutoTuneOptions", "MaintenanceSchedules"),
			send:  fmt.Sprintf(`[{"CronExpressionForRecurrence":"cron(0 3 ? * MON *)","Duration":{"Unit":"HOURS","Value":2},"StartAt":%d}]`, start),
			shown: fmt.Sprintf(`[{"CronExpressionForRecurrence":"cron(0 3 ? * MON *)","Duration":{"Unit":"HOURS","Value":2},"StartAt":%d}]`, start), valueType: stringified, autoTune: true},
		{path: p("AutoTuneOptions", "RollbackOnDisable"), send: `"NO_ROLLBACK"`, valueType: plain, autoTune: true},
		{path: p("AutoTuneOptions", "UseOffPeakWindow"), send: `true`, valueType: plain, autoTune: true},
		{path: p("ClusterConfig", "ColdStorageOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("ClusterConfig", "DedicatedMasterCount"), send: `3`, valueType: plain},
		{path: p("ClusterConfig", "DedicatedMasterEnabled"), send: `true`, valueType: plain},
		{path: p("ClusterConfig", "DedicatedMasterType"), send: `"m6g.large.search"`, valueType: plain},
		{path: p("ClusterConfig", "InstanceCount"), send: `6`, valueType: plain},
		{path: p("ClusterConfig", "InstanceType"), send: `"r6g.large.search"`, valueType: plain},
		{path: p("ClusterConfig", "MultiAZWithStandbyEnabled"), send: `true`, valueType: plain},
		{path: p("ClusterConfig", "NodeOptions"), send: `[{"NodeType":"coordinator","NodeConfig":{"Count":2,"Enabled":true,"Type":"m6g.large.search"}}]`,
			shown: `[{"NodeConfig":{"Count":2,"Enabled":true,"Type":"m6g.large.search"},"NodeType":"coordinator"}]`, valueType: stringified},
		{path: p("ClusterConfig", "WarmCount"), send: `3`, valueType: plain},
		{path: p("ClusterConfig", "WarmEnabled"), send: `true`, valueType: plain},
		{path: p("ClusterConfig", "WarmType"), send: `"ultrawarm1.medium.search"`, valueType: plain},
		{path: p("ClusterConfig", "ZoneAwarenessConfig", "AvailabilityZoneCount"), send: `3`, valueType: plain},
		{path: p("ClusterConfig", "ZoneAwarenessEnabled"), send: `true`, valueType: plain},
		{path: p("UserPoolAuthOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("UserPoolAuthOptions", "IdentityPoolId"), send: `"us-east-1:pool-1"`, valueType: plain},
		{path: p("UserPoolAuthOptions", "RoleArn"), send: `"arn:cloud:identity::123456789012:role/dashboards"`, valueType: plain},
		{path: p("UserPoolAuthOptions", "UserPoolId"), send: `"us-east-1_Pool1"`, valueType: plain},
		{path: p("DeploymentStrategyOptions", "DeploymentStrategy"), send: `"CapacityOptimized"`, valueType: plain},
		{path: p("DomainEndpointOptions", "CustomEndpoint"), send: `"search.example.com"`, valueType: plain},
		{path: p("DomainEndpointOptions", "CustomEndpointCertificateArn"), send: `"arn:cloud:acm:us-east-1:123456789012:certificate/c1"`, valueType: plain},
		{path: p("DomainEndpointOptions", "CustomEndpointEnabled"), send: `true`, valueType: plain},
		{path: p("DomainEndpointOptions", "EnforceHTTPS"), send: `true`, valueType: plain},
		{path: p("DomainEndpointOptions", "TLSSecurityPolicy"), send: `"Policy-Min-TLS-1-2-2019-07"`, valueType: plain},
		{path: p("BlockVolumeOptions", "BlockVolumeEnabled"), send: `true`, valueType: plain},
		{path: p("BlockVolumeOptions", "Iops"), send: `4000`, valueType: plain},
		{path: p("BlockVolumeOptions", "Throughput"), send: `250`, valueType: plain},
		{path: p("BlockVolumeOptions", "VolumeSize"), send: `200`, valueType: plain},
		{path: p("BlockVolumeOptions", "VolumeType"), send: `"gp3"`, valueType: plain},
		{path: p("EncryptionAtRestOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("EncryptionAtRestOptions", "KmsKeyId"), send: `"key-1"`, valueType: plain},
		// EngineMode cannot change after creation: sent as it is.
		{path: p("EngineMode"), send: `"GENERAL"`, valueType: plain, unchanged: true},
		{path: p("WorkforceIdentityOptions", "EnabledAPIAccess"), send: `true`, valueType: plain},
		{path: p("WorkforceIdentityOptions", "WorkforceIdentityInstanceARN"), send: `"arn:cloud:sso:::instance/ssoins-1"`, valueType: plain},
		{path: p("WorkforceIdentityOptions", "WorkforceIdentityInstanceRegion"), send: `"us-east-1"`, valueType: plain},
		{path: p("WorkforceIdentityOptions", "RolesKey"), send: `"wf-roles"`, valueType: plain},
		{path: p("WorkforceIdentityOptions", "SubjectKey"), send: `"wf-sub"`, valueType: plain},
		{path: p("IPAddressType"), send: `"dualstack"`, active: "ipv4", valueType: plain},
		{path: p("NodeToNodeEncryptionOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("OffPeakWindowOptions", "Enabled"), send: `true`, valueType: plain},
		{path: p("OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Hours"), send: `1`, valueType: plain},
		{path: p("OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Minutes"), send: `30`, valueType: plain},
		{path: p("SnapshotOptions", "AutomatedSnapshotStartHour"), send: `5`, active: "0", valueType: plain},
		{path: p("SoftwareUpdateOptions", "AutoSoftwareUpdateEnabled"), send: `true`, valueType: plain},
		{path: p("SoftwareUpdateOptions", "UseLatestServiceSoftwareForBlueGreen"), send: `true`, valueType: plain},
		{path: p("UseCase"), send: `"VECTOR"`, valueType: plain},
		{path: p("VPCOptions", "EgressEnabled"), send: `true`, valueType: plain},
		{path: p("VPCOptions", "SecurityGroupIds"), send: `["sg-1"]`, valueType: stringified},
		{path: p("VPCOptions", "SubnetIds"), send: `["subnet-1","subnet-2"]`, valueType: stringified},
	}
	for _, log := range []string{"INDEX_SLOW_LOGS", "SEARCH_SLOW_LOGS", "ES_APPLICATION_LOGS", "AUDIT_LOGS"} {
		fs = append(fs,
			field{path: p("LogPublishingOptions", log, "LogsLogGroupArn"), send: `"arn:cloud:logs:us-east-1:123456789012:log-group:` + log + `"`, valueType: plain},
			field{path: p("LogPublishingOptions", log, "Enabled"), send: `true`, valueType: plain})
	}
	return fs
}

// requestBody builds a body from fields plus top-level members.
func requestBody(t *testing.T, fs []field, top map[string]any) string {
	t.Helper()
	body := map[string]any{}
	for k, v := range top {
		body[k] = v
	}
	for _, f := range fs {
		m := body
		for _, k := range f.path[:len(f.path)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[f.path[len(f.path)-1]] = json.RawMessage(f.send)
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// expectedModifying is ModifyingProperties as the spec's rules give it for
// fs: sorted by name, write-only ones without values.
func expectedModifying(fs []field) []any {
	var out []any
	for _, f := range fs {
		switch {
		case f.unchanged:
		case f.writeOnly:
			out = append(out, map[string]any{"Name": f.name(), "ValueType": f.valueType})
		default:
			out = append(out, map[string]any{"Name": f.name(), "ActiveValue": f.active, "PendingValue": f.pending(), "ValueType": f.valueType})
		}
	}
	slices.SortFunc(out, func(a, b any) int { return strings.Compare(at(a, "Name").(string), at(b, "Name").(string)) })
	return out
}

// responseOnly are the members the spec adds in responses, with the JSON
// type each must have.
var responseOnly = []struct {
	path []string
	kind string
}{
	{p("AdvancedSecurityOptions", "AnonymousAuthDisableDate"), "number"},
	{p("AIMLOptions", "NaturalLanguageQueryGenerationOptions", "CurrentState"), "string"},
	{p("AutomatedSnapshotPauseOptions", "State"), "string"},
	{p("WorkforceIdentityOptions", "WorkforceIdentityApplicationARN"), "string"},
	{p("WorkforceIdentityOptions", "IdentityStoreId"), "string"},
	{p("VPCOptions", "AvailabilityZones"), "array"},
	{p("VPCOptions", "VPCId"), "string"},
}

func jsonKind(v any) string {
	switch v.(type) {
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	}
	return "absent"
}

// TestEveryFieldRoundTrip posts every field of every section, as a dry run
// and then for real, and reads each back through DescribeDryRunProgress
// (loadDryRunConfig), DescribeDomainConfig and DescribeDomainChangeProgress.
func TestEveryFieldRoundTrip(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if err := env.e.Search.AddDomain(search.DomainSpec{DomainName: "every"}); err != nil {
		t.Fatal(err)
	}
	fs := everyField(env.e.Clock().Now())
	accepted := []any{"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK", "ADV_SNAPSHOT_PAUSE_NO_RESTORE"}
	wantModifying := expectedModifying(fs)

	// The dry run: its answer and its planned configuration.
	answer := env.ok(t, "POST", "every/config", nil, requestBody(t, fs, map[string]any{"DryRun": true, "DryRunMode": "Verbose", "AcceptedWarnings": accepted}))
	if d := cmp.Diff(wantModifying, at(answer, "DomainConfig", "ModifyingProperties")); d != "" {
		t.Errorf("dry run answer's ModifyingProperties (-want +got):\n%s", d)
	}
	if got := at(answer, "DomainConfig", "ClusterConfig"); got != nil {
		t.Errorf("the dry run's DomainConfig shows sections the domain does not have: %v", got)
	}
	id, _ := at(answer, "DryRunProgressStatus", "DryRunId").(string)
	env.e.Clock().Advance(time.Hour)
	dry := env.ok(t, "GET", "every/dryRun", url.Values{"dryRunId": {id}, "loadDryRunConfig": {"true"}}, "")
	if got := at(dry, "DryRunProgressStatus", "DryRunStatus"); got != "completed" {
		t.Fatalf("DryRunStatus %v", got)
	}
	var codes []string
	for _, f := range at(dry, "DryRunProgressStatus", "ValidationFailures").([]any) {
		codes = append(codes, fmt.Sprint(at(f, "Code")))
	}
	if d := cmp.Diff([]string{"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK", "ADV_SNAPSHOT_PAUSE_NO_RESTORE"}, codes); d != "" {
		t.Errorf("validation failures (-want +got):\n%s", d)
	}
	if d := cmp.Diff(accepted, at(dry, "DryRunProgressStatus", "AcceptedWarnings")); d != "" {
		t.Errorf("AcceptedWarnings (-want +got):\n%s", d)
	}
	planned := at(dry, "DryRunConfig")
	if d := cmp.Diff(wantModifying, at(planned, "ModifyingProperties")); d != "" {
		t.Errorf("DryRunConfig.ModifyingProperties (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]any{"ErrorMessage": "", "State": "ENABLED", "UseOffPeakWindow": true}, at(planned, "AutoTuneOptions")); d != "" {
		t.Errorf("DryRunConfig.AutoTuneOptions has the domain status shape (-want +got):\n%s", d)
	}

	// The change itself.
	change := env.ok(t, "POST", "every/config", nil, requestBody(t, fs, map[string]any{"AcceptedWarnings": accepted}))
	changeID, _ := at(change, "DomainConfig", "ChangeProgressDetails", "ChangeId").(string)
	if d := cmp.Diff(wantModifying, at(change, "DomainConfig", "ModifyingProperties")); d != "" {
		t.Errorf("the change's ModifyingProperties (-want +got):\n%s", d)
	}
	progress := env.ok(t, "GET", "every/progress", url.Values{"changeid": {changeID}}, "")
	if d := cmp.Diff(names(wantModifying), names(at(progress, "ChangeProgressStatus", "PendingProperties"))); d != "" {
		t.Errorf("PendingProperties are not the ModifyingProperties names (-want +got):\n%s", d)
	}
	env.e.Clock().Advance(5 * time.Hour) // four blue/green stages of an hour
	progress = env.ok(t, "GET", "every/progress", url.Values{"changeid": {changeID}}, "")
	if d := cmp.Diff(names(wantModifying), names(at(progress, "ChangeProgressStatus", "CompletedProperties"))); d != "" || at(progress, "ChangeProgressStatus", "Status") != "COMPLETED" {
		t.Errorf("%v; CompletedProperties (-want +got):\n%s", at(progress, "ChangeProgressStatus", "Status"), d)
	}
	cfg := at(env.ok(t, "GET", "every/config", nil, ""), "DomainConfig")
	if got := at(cfg, "ModifyingProperties"); got != nil {
		t.Errorf("ModifyingProperties after completion: %v", got)
	}

	for _, f := range fs {
		t.Run(f.name(), func(t *testing.T) {
			want := jsonValue(t, f.send)
			if f.writeOnly {
				want = nil
			}
			section := f.path[0]
			if got := at(cfg, append([]string{section, "Options"}, f.path[1:]...)...); !cmp.Equal(want, got) {
				t.Errorf("DescribeDomainConfig Options: %v, want %v", got, want)
			}
			if state := at(cfg, section, "Status", "State"); state != "Active" {
				t.Errorf("Status.State %v", state)
			}
			if !f.autoTune {
				if got := at(planned, f.path...); !cmp.Equal(want, got) {
					t.Errorf("DryRunConfig: %v, want %v", got, want)
				}
			}
		})
	}
	for _, r := range responseOnly {
		t.Run("response-only "+strings.Join(r.path, "."), func(t *testing.T) {
			if got := jsonKind(at(cfg, append([]string{r.path[0], "Options"}, r.path[1:]...)...)); got != r.kind {
				t.Errorf("DescribeDomainConfig: %s, want a %s", got, r.kind)
			}
			if got := jsonKind(at(planned, r.path...)); got != r.kind {
				t.Errorf("DryRunConfig: %s, want a %s", got, r.kind)
			}
		})
	}
	if got, ok := at(cfg, "AutoTuneOptions", "Status", "ErrorMessage").(string); !ok || got != "" {
		t.Errorf("AutoTuneOptions.Status.ErrorMessage: %#v, want \"\"", at(cfg, "AutoTuneOptions", "Status", "ErrorMessage"))
	}
	if got := at(cfg, "AdvancedSecurityOptions", "Options", "MasterUserOptions"); got != nil {
		t.Errorf("write-only MasterUserOptions returned: %v", got)
	}
	if !env.e.Search.MasterUserPasswordIs("every", "Sup3r-secret!") {
		t.Error("the master user password was not received")
	}
	// The typed snapshot decodes every rendered member (it refuses unknown ones).
	if d, ok := env.e.Search.Domain("every"); !ok || d.AdvancedSecurityOptions.AnonymousAuthDisableDate == nil {
		t.Errorf("Domain snapshot: %+v", d)
	}
}
