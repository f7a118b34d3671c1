package search_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Wire mistakes a client can make, sent as raw bodies: each is refused
// with a ValidationException (400) whose message starts with the member's
// path, and nothing is analysed or changed.
func TestUpdateDomainConfigStrictDecoding(t *testing.T) {
	t.Parallel()
	const advHint = `; AdvancedOptions values are strings, such as "%s"`
	cases := []struct {
		name, body string
		message    string
	}{
		// Unknown members, at every depth, matched case-sensitively.
		{"unknown member", `{"ClusterConfg":{}}`, "ClusterConfg: not a member of the UpdateDomainConfig request"},
		{"member in the wrong case", `{"clusterConfig":{"InstanceCount":3}}`, "clusterConfig: not a member of the UpdateDomainConfig request"},
		{"unknown nested member", `{"ClusterConfig":{"InstanceTypes":"r6g.large.search"}}`, "ClusterConfig.InstanceTypes: not a member of ClusterConfig"},
		{"unknown member of a map value", `{"LogPublishingOptions":{"AUDIT_LOGS":{"CloudWatchLogsLogGroupArn":"arn"}}}`, "LogPublishingOptions.AUDIT_LOGS.CloudWatchLogsLogGroupArn: not a member of LogPublishingOptions.AUDIT_LOGS"},
		{"unknown member of an array element", `{"ClusterConfig":{"NodeOptions":[{"NodeType":"coordinator","Count":2}]}}`, "ClusterConfig.NodeOptions[0].Count: not a member of ClusterConfig.NodeOptions[0]"},
		{"the response's wrapper", `{"ClusterConfig":{"Options":{"InstanceCount":3}}}`, "ClusterConfig.Options: a request sends the section's members, not the response's {Options, Status} wrapper"},

		// A member named twice: encoding/json would keep the last one.
		{"duplicate DryRun", `{"DryRun":true,"DryRun":false,"SnapshotOptions":{"AutomatedSnapshotStartHour":5}}`, "DryRun: a member may appear only once in an object"},
		{"duplicate nested member", `{"ClusterConfig":{"InstanceCount":3,"InstanceType":"r6g.large.search","InstanceCount":4}}`, "ClusterConfig.InstanceCount: a member may appear only once in an object"},
		{"duplicate member of an array element", `{"ClusterConfig":{"NodeOptions":[{"NodeType":"coordinator"},{"NodeType":"coordinator","NodeType":"x"}]}}`, "ClusterConfig.NodeOptions[1].NodeType: a member may appear only once in an object"},
		{"duplicate map key", `{"AdvancedOptions":{"override_main_response_version":"true","override_main_response_version":"false"}}`, "AdvancedOptions.override_main_response_version: a member may appear only once in an object"},
		{"an empty name twice, then another member twice", `{"":1,"":2,"DryRun":true,"DryRun":false}`, ": not a member of the UpdateDomainConfig request"},

		// Wrong JSON types.
		{"number as a string", `{"ClusterConfig":{"InstanceCount":"3"}}`, "ClusterConfig.InstanceCount: expected a number, not a string"},
		{"number as a boolean", `{"SnapshotOptions":{"AutomatedSnapshotStartHour":true}}`, "SnapshotOptions.AutomatedSnapshotStartHour: expected a number, not a boolean"},
		{"whole number with a fraction", `{"ClusterConfig":{"InstanceCount":3.5}}`, "ClusterConfig.InstanceCount: expected a whole number, not 3.5"},
		{"whole number beyond int64", `{"ClusterConfig":{"InstanceCount":9223372036854775807}}`, "ClusterConfig.InstanceCount: 9223372036854775807 is out of range"},
		{"whole number beyond 2^53", `{"BlockVolumeOptions":{"VolumeSize":9007199254740993}}`, "BlockVolumeOptions.VolumeSize: 9007199254740993 is out of range"},
		{"boolean as a string", `{"NodeToNodeEncryptionOptions":{"Enabled":"true"}}`, "NodeToNodeEncryptionOptions.Enabled: expected a boolean, not a string"},
		{"DryRun as a string", `{"DryRun":"true"}`, "DryRun: expected a boolean, not a string"},
		{"string as a number", `{"ClusterConfig":{"InstanceType":3}}`, "ClusterConfig.InstanceType: expected a string, not a number"},
		{"policy as an object", `{"AccessPolicies":{"Version":"2012-10-17"}}`, "AccessPolicies: expected a string, not an object"},
		{"section as a string", `{"ClusterConfig":"r6g.large.search"}`, "ClusterConfig: expected an object, not a string"},
		{"map value as a boolean", `{"LogPublishingOptions":{"AUDIT_LOGS":true}}`, "LogPublishingOptions.AUDIT_LOGS: expected an object, not a boolean"},
		{"array as a string", `{"VPCOptions":{"SubnetIds":"subnet-1"}}`, "VPCOptions.SubnetIds: expected an array, not a string"},
		{"array element", `{"AcceptedWarnings":["ADV_X",1]}`, "AcceptedWarnings[1]: expected a string, not a number"},
		{"null array element", `{"VPCOptions":{"SubnetIds":[null]}}`, "VPCOptions.SubnetIds[0]: expected a string, not null"},
		{"advanced option number", `{"AdvancedOptions":{"indices.query.bool.max_clause_count":2048}}`, "AdvancedOptions.indices.query.bool.max_clause_count: expected a string, not a number" + strings.ReplaceAll(advHint, "%s", "2048")},
		{"advanced option boolean", `{"AdvancedOptions":{"rest.action.multi.allow_explicit_index":true}}`, "AdvancedOptions.rest.action.multi.allow_explicit_index: expected a string, not a boolean" + strings.ReplaceAll(advHint, "%s", "true")},
		{"advanced options as an array", `{"AdvancedOptions":["a"]}`, "AdvancedOptions: expected an object, not an array"},

		// Timestamps are numbers of seconds.
		{"pause start as a date string", `{"AutomatedSnapshotPauseOptions":{"Enabled":true,"StartTime":"2030-01-01T00:00:00Z","EndTime":1893542400}}`, "AutomatedSnapshotPauseOptions.StartTime: expected a number (seconds since the epoch), not a string"},
		{"pause end as a string", `{"AutomatedSnapshotPauseOptions":{"EndTime":"1893542400"}}`, "AutomatedSnapshotPauseOptions.EndTime: expected a number (seconds since the epoch), not a string"},
		{"schedule start as a string", `{"AutoTuneOptions":{"MaintenanceSchedules":[{"StartAt":"2030-01-01"}]}}`, "AutoTuneOptions.MaintenanceSchedules[0].StartAt: expected a number (seconds since the epoch), not a string"},

		// Members of the response shape only.
		{"anonymous auth disable date", `{"AdvancedSecurityOptions":{"AnonymousAuthDisableDate":1893542400}}`, "AdvancedSecurityOptions.AnonymousAuthDisableDate: a response-only member; the service sets it, a request cannot"},
		{"current state", `{"AIMLOptions":{"NaturalLanguageQueryGenerationOptions":{"DesiredState":"ENABLED","CurrentState":"ENABLE_COMPLETE"}}}`, "AIMLOptions.NaturalLanguageQueryGenerationOptions.CurrentState: a response-only member; the service sets it, a request cannot"},
		{"snapshot pause state", `{"AutomatedSnapshotPauseOptions":{"State":"Paused"}}`, "AutomatedSnapshotPauseOptions.State: a response-only member; the service sets it, a request cannot"},
		{"workforce application", `{"WorkforceIdentityOptions":{"WorkforceIdentityApplicationARN":"arn"}}`, "WorkforceIdentityOptions.WorkforceIdentityApplicationARN: a response-only member; the service sets it, a request cannot"},
		{"identity store", `{"WorkforceIdentityOptions":{"IdentityStoreId":"d-1"}}`, "WorkforceIdentityOptions.IdentityStoreId: a response-only member; the service sets it, a request cannot"},
		{"vpc id", `{"VPCOptions":{"SubnetIds":["subnet-1"],"VPCId":"vpc-1"}}`, "VPCOptions.VPCId: a response-only member; the service sets it, a request cannot"},
		{"availability zones", `{"VPCOptions":{"AvailabilityZones":["us-east-1a"]}}`, "VPCOptions.AvailabilityZones: a response-only member; the service sets it, a request cannot"},
		{"auto-tune state", `{"AutoTuneOptions":{"State":"ENABLED"}}`, "AutoTuneOptions.State: a response-only member; the service sets it, a request cannot"},
		{"engine version", `{"EngineVersion":"OpenSearch_2.19"}`, "EngineVersion: a response-only member; the service sets it, a request cannot"},
		{"change progress details", `{"ChangeProgressDetails":{"ChangeId":"x"}}`, "ChangeProgressDetails: a response-only member; the service sets it, a request cannot"},

		// A secret in the wrong shape is not repeated.
		{"password as an object", `{"AdvancedSecurityOptions":{"MasterUserOptions":{"MasterUserPassword":{"value":"hunter2-secret"}}}}`, "AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword: expected a string, not an object"},
		{"master user as a string", `{"AdvancedSecurityOptions":{"MasterUserOptions":"admin:hunter2-secret"}}`, "AdvancedSecurityOptions.MasterUserOptions: expected an object, not a string"},

		{"body not an object", `["ClusterConfig"]`, "The request body must be a JSON object."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			before, _ := env.e.Search.Domain("demo")
			for _, dryRun := range []bool{false, true} {
				body := tc.body
				if dryRun && strings.HasPrefix(body, "{") && !strings.Contains(body, `"DryRun"`) {
					body = `{"DryRun":true,"DryRunMode":"Verbose",` + strings.TrimPrefix(body, "{")
				}
				status, out := env.do(t, "POST", "demo/config", nil, body)
				if status != 400 || out["__type"] != "ValidationException" || out["message"] != tc.message {
					t.Errorf("dry run %v: HTTP %d %v\nwant 400 ValidationException %q", dryRun, status, out, tc.message)
				}
				if strings.Contains(tc.body, "hunter2") && strings.Contains(out["message"].(string), "hunter2") {
					t.Errorf("the message repeats the secret: %s", out["message"])
				}
			}
			after, _ := env.e.Search.Domain("demo")
			if d := cmp.Diff(before, after); d != "" {
				t.Errorf("a refused request changed the domain (-before +after):\n%s", d)
			}
			if status, _ := env.do(t, "GET", "demo/dryRun", nil, ""); status != 409 {
				t.Errorf("a refused dry run was recorded (DescribeDryRunProgress HTTP %d)", status)
			}
		})
	}
}

// Malformed JSON is a BaseException; null members are absent members.
func TestUpdateDomainConfigBodySyntax(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	for _, body := range []string{`{"ClusterConfig":`, `{} {}`, `{"a":1,}`} {
		status, out := env.do(t, "POST", "demo/config", nil, body)
		if status != 400 || out["__type"] != "BaseException" || !strings.HasPrefix(out["message"].(string), "The request body is not valid JSON") {
			t.Errorf("%s: HTTP %d %v; want 400 BaseException", body, status, out)
		}
	}
	out := env.ok(t, "POST", "demo/config", nil, `{"DryRun":true,"ClusterConfig":null,"SnapshotOptions":{"AutomatedSnapshotStartHour":null},"AdvancedOptions":{"indices.fielddata.cache.size":null}}`)
	if got := at(out, "DryRunResults", "DeploymentType"); got != "none" {
		t.Errorf("null members changed something: DeploymentType %v", got)
	}
	if got := at(out, "DomainConfig", "ModifyingProperties"); !cmp.Equal(got, []any{}) {
		t.Errorf("ModifyingProperties of an empty change: %#v, want []", got)
	}
}
