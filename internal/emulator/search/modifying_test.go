package search_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// acceptAll lists every Advisory code, so that a real change is not
// blocked in tests of what it modifies.
const acceptAll = `"AcceptedWarnings":["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK","ADV_DUALSTACK_RECOMMENDED","ADV_FIELDDATA_CACHE_UNBOUNDED","ADV_NO_DEDICATED_MASTERS","ADV_SNAPSHOT_PAUSE_NO_RESTORE"]`

func prop(name, active, pending, valueType string) map[string]any {
	return map[string]any{"Name": name, "ActiveValue": active, "PendingValue": pending, "ValueType": valueType}
}

const demoPolicy = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"CLOUD":"arn:cloud:identity::123456789012:root"},"Action":"search:*","Resource":"arn:cloud:search:us-east-1:123456789012:domain/demo/*"}]}`

// A dry run reports what it would change, in the same form as a running
// change: the dry run's answer, its DryRunConfig, and then the change's
// DescribeDomainConfig and PendingProperties all name the same list.
func TestDryRunModifyingProperties(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, sections string
		want           []any
		deployment     string
	}{
		{"a string", `"ClusterConfig":{"InstanceType":"r6g.xlarge.search"}`,
			[]any{prop("ClusterConfig.InstanceType", "r6g.large.search", "r6g.xlarge.search", "PLAIN_TEXT")}, "blue/green"},
		{"a number and a boolean", `"ClusterConfig":{"InstanceCount":6,"WarmEnabled":true}`,
			[]any{prop("ClusterConfig.InstanceCount", "3", "6", "PLAIN_TEXT"), prop("ClusterConfig.WarmEnabled", "false", "true", "PLAIN_TEXT")}, "blue/green"},
		{"leaves of a section the domain lacks", `"AdvancedSecurityOptions":{"Enabled":true,"InternalUserDatabaseEnabled":true}`,
			[]any{prop("AdvancedSecurityOptions.Enabled", "", "true", "PLAIN_TEXT"), prop("AdvancedSecurityOptions.InternalUserDatabaseEnabled", "", "true", "PLAIN_TEXT")}, "blue/green"},
		{"a policy", `"AccessPolicies":"{\"Version\":\"2012-10-17\",\"Statement\":[]}"`,
			[]any{prop("AccessPolicies", demoPolicy, `{"Version":"2012-10-17","Statement":[]}`, "STRINGIFIED_JSON")}, "dynamic"},
		{"an array", `"VPCOptions":{"SubnetIds":["subnet-1"]}`,
			[]any{prop("VPCOptions.SubnetIds", "", `["subnet-1"]`, "STRINGIFIED_JSON")}, "blue/green"},
		{"an advanced option", `"AdvancedOptions":{"indices.fielddata.cache.size":"40"}`,
			[]any{prop("AdvancedOptions.indices.fielddata.cache.size", "unbounded", "40", "PLAIN_TEXT")}, "blue/green"},
		{"a log type", `"LogPublishingOptions":{"AUDIT_LOGS":{"Enabled":true}}`,
			[]any{prop("LogPublishingOptions.AUDIT_LOGS.Enabled", "", "true", "PLAIN_TEXT")}, "dynamic"},
		{"write-only values are never shown", `"AdvancedSecurityOptions":{"MasterUserOptions":{"MasterUserName":"admin","MasterUserPassword":"hunter2-Secret"},"SAMLOptions":{"MasterBackendRole":"admins"}}`,
			[]any{
				map[string]any{"Name": "AdvancedSecurityOptions.MasterUserOptions.MasterUserName", "ValueType": "PLAIN_TEXT"},
				map[string]any{"Name": "AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword", "ValueType": "PLAIN_TEXT"},
				map[string]any{"Name": "AdvancedSecurityOptions.SAMLOptions.MasterBackendRole", "ValueType": "PLAIN_TEXT"},
			}, "dynamic"},
		{"same values", `"ClusterConfig":{"InstanceCount":3},"SnapshotOptions":{"AutomatedSnapshotStartHour":0}`, []any{}, "none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			status, raw := env.do(t, "POST", "demo/config", nil, `{"DryRun":true,"DryRunMode":"Verbose",`+tc.sections+`}`)
			if status != 200 {
				t.Fatalf("dry run: HTTP %d %v", status, raw)
			}
			if d := cmp.Diff(tc.want, at(raw, "DomainConfig", "ModifyingProperties")); d != "" {
				t.Errorf("dry run answer's DomainConfig.ModifyingProperties (-want +got):\n%s", d)
			}
			if got := at(raw, "DryRunResults", "DeploymentType"); got != tc.deployment {
				t.Errorf("DeploymentType %v, want %s", got, tc.deployment)
			}
			id, _ := at(raw, "DryRunProgressStatus", "DryRunId").(string)
			dry := env.ok(t, "GET", "demo/dryRun", url.Values{"dryRunId": {id}, "loadDryRunConfig": {"true"}}, "")
			if d := cmp.Diff(tc.want, at(dry, "DryRunConfig", "ModifyingProperties")); d != "" {
				t.Errorf("DryRunConfig.ModifyingProperties (-want +got):\n%s", d)
			}
			for _, answer := range []map[string]any{raw, dry} {
				if b, _ := json.Marshal(answer); strings.Contains(string(b), "hunter2") {
					t.Errorf("a dry run shows the password: %s", b)
				}
			}

			change := env.ok(t, "POST", "demo/config", nil, `{`+acceptAll+`,`+tc.sections+`}`)
			if len(tc.want) == 0 {
				if got := at(change, "DomainConfig", "ModifyingProperties"); got != nil {
					t.Errorf("a change of nothing modifies %v", got)
				}
				return
			}
			cfg := env.ok(t, "GET", "demo/config", nil, "")
			if d := cmp.Diff(tc.want, at(cfg, "DomainConfig", "ModifyingProperties")); d != "" {
				t.Errorf("the running change's ModifyingProperties (-want +got):\n%s", d)
			}
			progress := env.ok(t, "GET", "demo/progress", nil, "")
			if d := cmp.Diff(names(tc.want), names(at(progress, "ChangeProgressStatus", "PendingProperties"))); d != "" {
				t.Errorf("PendingProperties (-want +got):\n%s", d)
			}
		})
	}
}

// A dry run submitted while a change runs is analysed against the
// configuration that change will leave; a second real change is refused.
func TestDryRunWhileAChangeRuns(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	change := env.ok(t, "POST", "demo/config", nil, `{"ClusterConfig":{"InstanceType":"r6g.xlarge.search"}}`)
	changeID, _ := at(change, "DomainConfig", "ChangeProgressDetails", "ChangeId").(string)
	env.e.Clock().Advance(30 * time.Minute) // in Validation

	status, refused := env.do(t, "POST", "demo/config", nil, `{"SnapshotOptions":{"AutomatedSnapshotStartHour":4}}`)
	if status != 409 || refused["__type"] != "LimitExceededException" ||
		refused["message"] != "A change is already in progress for domain demo (change "+changeID+"); wait for it to complete before submitting another." {
		t.Errorf("second real change: HTTP %d %v", status, refused)
	}

	cases := []struct {
		name, sections string
		want           []any
		deployment     string
		instanceType   string
	}{
		{"on top of the running change", `"ClusterConfig":{"InstanceCount":6}`,
			[]any{prop("ClusterConfig.InstanceCount", "3", "6", "PLAIN_TEXT")}, "blue/green", "r6g.xlarge.search"},
		{"the running change's own values", `"ClusterConfig":{"InstanceType":"r6g.xlarge.search"}`,
			[]any{}, "none", "r6g.xlarge.search"},
		{"undoing the running change", `"ClusterConfig":{"InstanceType":"r6g.large.search"}`,
			[]any{prop("ClusterConfig.InstanceType", "r6g.xlarge.search", "r6g.large.search", "PLAIN_TEXT")}, "blue/green", "r6g.large.search"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			answer := env.ok(t, "POST", "demo/config", nil, `{"DryRun":true,"DryRunMode":"Verbose",`+tc.sections+`}`)
			if d := cmp.Diff(tc.want, at(answer, "DomainConfig", "ModifyingProperties")); d != "" {
				t.Errorf("ModifyingProperties (-want +got):\n%s", d)
			}
			if got := at(answer, "DryRunResults", "DeploymentType"); got != tc.deployment {
				t.Errorf("DeploymentType %v, want %s", got, tc.deployment)
			}
			if msg, _ := at(answer, "DryRunResults", "Message").(string); !strings.Contains(msg, "Change "+changeID+" is in progress") {
				t.Errorf("the message does not say what the analysis starts from: %q", msg)
			}
			// The answer still shows the domain as it is (rule 1).
			if got := at(answer, "DomainConfig", "ClusterConfig", "Options", "InstanceType"); got != "r6g.large.search" {
				t.Errorf("the answer's InstanceType %v, want the active value", got)
			}
			id, _ := at(answer, "DryRunProgressStatus", "DryRunId").(string)
			dry := env.ok(t, "GET", "demo/dryRun", url.Values{"dryRunId": {id}, "loadDryRunConfig": {""}}, "")
			if got := at(dry, "DryRunConfig", "ClusterConfig", "InstanceType"); got != tc.instanceType {
				t.Errorf("DryRunConfig InstanceType %v, want %s", got, tc.instanceType)
			}
		})
	}
	// The running change is untouched by the dry runs.
	cfg := env.ok(t, "GET", "demo/config", nil, "")
	want := []any{prop("ClusterConfig.InstanceType", "r6g.large.search", "r6g.xlarge.search", "PLAIN_TEXT")}
	if d := cmp.Diff(want, at(cfg, "DomainConfig", "ModifyingProperties")); d != "" {
		t.Errorf("the running change's ModifyingProperties (-want +got):\n%s", d)
	}
}

// A client that lost its ChangeId (its process was killed) finds the
// running change through DescribeDomainConfig's ChangeProgressDetails or
// DescribeDomainChangeProgress without changeid, and follows it to the end.
func TestAdoptARunningChange(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if got := env.ok(t, "GET", "demo/progress", nil, ""); !cmp.Equal(got, map[string]any{"ChangeProgressStatus": map[string]any{}}) {
		t.Errorf("never changed: %v", got)
	}
	env.ok(t, "POST", "demo/config", nil, `{"BlockVolumeOptions":{"VolumeSize":200}}`) // the answer is lost
	env.e.Clock().Advance(90 * time.Minute)

	details := at(env.ok(t, "GET", "demo/config", nil, ""), "DomainConfig", "ChangeProgressDetails")
	id, _ := at(details, "ChangeId").(string)
	if len(id) != 36 || at(details, "ConfigChangeStatus") != "ApplyingChanges" {
		t.Fatalf("ChangeProgressDetails %v", details)
	}
	latest := at(env.ok(t, "GET", "demo/progress", nil, ""), "ChangeProgressStatus")
	byID := at(env.ok(t, "GET", "demo/progress", url.Values{"changeid": {id}}, ""), "ChangeProgressStatus")
	if d := cmp.Diff(byID, latest); d != "" || at(latest, "ChangeId") != id {
		t.Errorf("without changeid (-by id +latest):\n%s", d)
	}
	if at(latest, "Status") != "PROCESSING" || at(latest, "ConfigChangeStatus") != "ApplyingChanges" {
		t.Errorf("Status %v ConfigChangeStatus %v", at(latest, "Status"), at(latest, "ConfigChangeStatus"))
	}
	if d := cmp.Diff([]string{"BlockVolumeOptions.VolumeSize"}, names(at(latest, "PendingProperties"))); d != "" {
		t.Errorf("PendingProperties (-want +got):\n%s", d)
	}

	env.e.Clock().Advance(3 * time.Hour)
	done := at(env.ok(t, "GET", "demo/progress", nil, ""), "ChangeProgressStatus")
	if at(done, "ChangeId") != id || at(done, "Status") != "COMPLETED" {
		t.Errorf("after completion: %v %v", at(done, "ChangeId"), at(done, "Status"))
	}
	if d := cmp.Diff([]string{"BlockVolumeOptions.VolumeSize"}, names(at(done, "CompletedProperties"))); d != "" {
		t.Errorf("CompletedProperties (-want +got):\n%s", d)
	}
	if got := at(env.ok(t, "GET", "demo/config", nil, ""), "DomainConfig", "ChangeProgressDetails", "ConfigChangeStatus"); got != "Completed" {
		t.Errorf("ChangeProgressDetails after completion: %v", got)
	}

	// A newer change becomes the most recent one.
	next := env.ok(t, "POST", "demo/config", nil, `{"SnapshotOptions":{"AutomatedSnapshotStartHour":4}}`)
	nextID := at(next, "DomainConfig", "ChangeProgressDetails", "ChangeId")
	if got := at(env.ok(t, "GET", "demo/progress", nil, ""), "ChangeProgressStatus", "ChangeId"); got != nextID || got == id {
		t.Errorf("most recent change %v, want %v", got, nextID)
	}
}
