package search_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

func TestUpdateDomainConfigLimits(t *testing.T) {
	t.Parallel()
	now := time.Now()
	tooMany := make([]string, 26)
	for i := range tooMany {
		tooMany[i] = "ADV_X"
	}
	cases := []struct {
		name   string
		in     api.UpdateDomainConfigInput
		kind   error
		status int
		words  string
	}{
		{"unknown domain", api.UpdateDomainConfigInput{DomainName: "nope"}, client.ErrNotFound, 409, "Domain not found: nope"},
		{"accepted warnings over 25", api.UpdateDomainConfigInput{AcceptedWarnings: tooMany}, client.ErrValidation, 400, "AcceptedWarnings may list at most 25"},
		{"access policies too long", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": `{"a":"` + strings.Repeat("x", 102400) + `"}`}}, client.ErrValidation, 400, "AccessPolicies must be at most 102400"},
		{"access policies not JSON", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": "allow all"}}, client.ErrValidation, 400, "AccessPolicies must be a JSON policy document"},
		{"advanced option unknown key", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{"foo": "1"}}}, client.ErrValidation, 400, `unsupported key "foo"`},
		{"advanced option bad value", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionAllowExplicitIndex: "yes"}}}, client.ErrValidation, 400, `must be "true" or "false"`},
		{"advanced option clause count", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionMaxClauseCount: "many"}}}, client.ErrValidation, 400, "positive whole number"},
		{"engine mode", api.UpdateDomainConfigInput{Sections: obj{"EngineMode": "FAST"}}, client.ErrValidation, 400, "EngineMode must be one of GENERAL, OPTIMIZED"},
		{"ip address type", api.UpdateDomainConfigInput{Sections: obj{"IPAddressType": "ipv6"}}, client.ErrValidation, 400, "IPAddressType must be one of"},
		{"use case", api.UpdateDomainConfigInput{Sections: obj{"UseCase": "LOGS"}}, client.ErrValidation, 400, "UseCase must be one of"},
		{"dry run mode", api.UpdateDomainConfigInput{DryRun: new(true), DryRunMode: new("Full")}, client.ErrValidation, 400, "DryRunMode must be one of Basic, Verbose"},
		{"log type", api.UpdateDomainConfigInput{Sections: obj{"LogPublishingOptions": obj{"DEBUG_LOGS": obj{"Enabled": true}}}}, client.ErrInvalidType, 409, `unsupported log type "DEBUG_LOGS"`},
		{"instance count over 1000", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceCount": 1001}}}, client.ErrValidation, 400, "ClusterConfig.InstanceCount must be between 1 and 1000, not 1001"},
		{"dedicated master count over 5", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"DedicatedMasterCount": 6}}}, client.ErrValidation, 400, "DedicatedMasterCount must be between 1 and 5, not 6"},
		{"zone count 4", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"ZoneAwarenessConfig": obj{"AvailabilityZoneCount": 4}}}}, client.ErrValidation, 400, "AvailabilityZoneCount must be between 2 and 3, not 4"},
		{"advanced option clause count past int32", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionMaxClauseCount: "2147483648"}}}, client.ErrValidation, 400, "positive whole number up to 2147483647"},
		{"snapshot hour", api.UpdateDomainConfigInput{Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 24}}}, client.ErrValidation, 400, "SnapshotOptions.AutomatedSnapshotStartHour must be between 0 and 23"},
		{"off-peak hours", api.UpdateDomainConfigInput{Sections: obj{"OffPeakWindowOptions": obj{"OffPeakWindow": obj{"WindowStartTime": obj{"Hours": 24}}}}}, client.ErrValidation, 400, "WindowStartTime.Hours must be between 0 and 23"},
		{"off-peak minutes", api.UpdateDomainConfigInput{Sections: obj{"OffPeakWindowOptions": obj{"OffPeakWindow": obj{"WindowStartTime": obj{"Minutes": 60}}}}}, client.ErrValidation, 400, "WindowStartTime.Minutes must be between 0 and 59"},
		{"pause end before start", api.UpdateDomainConfigInput{Sections: obj{"AutomatedSnapshotPauseOptions": obj{"Enabled": true, "StartTime": api.Epoch(now), "EndTime": api.Epoch(now.Add(-time.Hour))}}}, client.ErrValidation, 400, "EndTime must be after StartTime"},
		{"pause over 3 days, basic dry run", api.UpdateDomainConfigInput{DryRun: new(true), Sections: obj{"AutomatedSnapshotPauseOptions": obj{"Enabled": true, "StartTime": api.Epoch(now), "EndTime": api.Epoch(now.Add(73 * time.Hour))}}}, client.ErrValidation, 400, "at most 3 days"},
		{"pause over 3 days, real", api.UpdateDomainConfigInput{AcceptedWarnings: []string{"ADV_SNAPSHOT_PAUSE_NO_RESTORE"}, Sections: obj{"AutomatedSnapshotPauseOptions": obj{"Enabled": true, "StartTime": api.Epoch(now), "EndTime": api.Epoch(now.Add(73 * time.Hour))}}}, client.ErrValidation, 400, "CRIT_SNAPSHOT_PAUSE_TOO_LONG"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			in := tc.in
			if in.DomainName == "" {
				in.DomainName = "demo"
			}
			_, err := env.c.UpdateDomainConfig(ctx(t), &in)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("want %v, got %v", tc.kind, err)
			}
			ae := apiErr(t, err)
			if ae.StatusCode != tc.status || !strings.Contains(ae.Message, tc.words) {
				t.Errorf("got HTTP %d %s %q; want HTTP %d and %q", ae.StatusCode, ae.Code, ae.Message, tc.status, tc.words)
			}
		})
	}
}

func TestPathParametersValidatedBeforeCalling(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	_, err1 := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "Demo"})
	_, err2 := env.c.DescribeDomainConfig(c, "ab")
	_, err3 := env.c.DescribeDomainChangeProgress(c, "demo", "not-an-id")
	_, err4 := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: "1234"})
	_, err5 := env.c.DescribeDomainConfig(c, strings.Repeat("a", 29))
	for i, err := range []error{err1, err2, err3, err4, err5} {
		if err == nil {
			t.Errorf("call %d: want a validation error", i+1)
		}
	}
	if n := len(env.e.Calls()); n != 0 {
		t.Errorf("%d requests reached the emulator; want none", n)
	}
}

// TestUpdateDomainConfigRequestRules: the request rules that a raw body
// reaches (no client in between): exactly 25 accepted warnings pass and 26
// are refused, a code not of a code's form is refused, AccessPolicies of
// the JSON text null is no policy document, a body sent as anything but
// application/json is refused, and a 29-character domain name is refused
// before any domain is looked up. Each is sent as a signed Basic dry run,
// which changes nothing when it passes.
func TestUpdateDomainConfigRequestRules(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	codes := func(n int) string {
		c := make([]string, n)
		for i := range c {
			c[i] = fmt.Sprintf("%q", fmt.Sprintf("ADV_CODE_%02d", i))
		}
		return "[" + strings.Join(c, ",") + "]"
	}
	json := http.Header{"Content-Type": {"application/json"}}
	tests := []struct {
		name, path string
		header     http.Header
		body       string
		status     int
		words      string
	}{
		{"25 accepted warnings", "demo/config", json, `{"DryRun":true,"AcceptedWarnings":` + codes(25) + `}`, 200, ""},
		{"26 accepted warnings", "demo/config", json, `{"DryRun":true,"AcceptedWarnings":` + codes(26) + `}`, 400, "AcceptedWarnings may list at most 25 codes, not 26."},
		{"a code with a space", "demo/config", json, `{"DryRun":true,"AcceptedWarnings":["has space"]}`, 400, "AcceptedWarnings[0] must be a validation code"},
		{"an empty code", "demo/config", json, `{"DryRun":true,"AcceptedWarnings":["ADV_X",""]}`, 400, "AcceptedWarnings[1] must be a validation code"},
		{"access policies null", "demo/config", json, `{"DryRun":true,"AccessPolicies":"null"}`, 400, "AccessPolicies must be a JSON policy document (a JSON object), not null."},
		{"access policies an array", "demo/config", json, `{"DryRun":true,"AccessPolicies":"[]"}`, 400, "not an array"},
		{"access policies empty", "demo/config", json, `{"DryRun":true,"AccessPolicies":""}`, 200, ""},
		{"text/plain", "demo/config", http.Header{"Content-Type": {"text/plain"}}, `{"DryRun":true}`, 400, `Content-Type: application/json, not "text/plain"`},
		{"no content type", "demo/config", nil, `{"DryRun":true}`, 400, `Content-Type: application/json, not ""`},
		{"json with a charset", "demo/config", http.Header{"Content-Type": {"application/json; charset=utf-8"}}, `{"DryRun":true}`, 200, ""},
		{"domain name of 29", strings.Repeat("d", 29) + "/config", json, `{"DryRun":true}`, 400, "must be 3 to 28 characters long, it has 29"},
		{"domain name of 28 (none such)", strings.Repeat("d", 28) + "/config", json, `{"DryRun":true}`, 409, "Domain not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status, out := env.doWith(t, "POST", tc.path, nil, tc.header, tc.body)
			msg, _ := out["message"].(string)
			if status != tc.status || !strings.Contains(msg, tc.words) {
				t.Errorf("HTTP %d %v; want %d and %q", status, out, tc.status, tc.words)
			}
			if tc.status == 400 && out["__type"] != "ValidationException" {
				t.Errorf("type %v, want ValidationException", out["__type"])
			}
		})
	}
}
