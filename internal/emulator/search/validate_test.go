package search_test

import (
	"encoding/json"
	"errors"
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
		{"access policies too long", api.UpdateDomainConfigInput{AccessPolicies: ptr(`{"a":"` + strings.Repeat("x", 102400) + `"}`)}, client.ErrValidation, 400, "AccessPolicies must be at most 102400"},
		{"access policies not JSON", api.UpdateDomainConfigInput{AccessPolicies: ptr("allow all")}, client.ErrValidation, 400, "AccessPolicies must be a JSON policy document"},
		{"advanced option unknown key", api.UpdateDomainConfigInput{AdvancedOptions: map[string]string{"foo": "1"}}, client.ErrValidation, 400, `unsupported key "foo"`},
		{"advanced option bad value", api.UpdateDomainConfigInput{AdvancedOptions: map[string]string{api.AdvancedOptionAllowExplicitIndex: "yes"}}, client.ErrValidation, 400, `must be "true" or "false"`},
		{"advanced option clause count", api.UpdateDomainConfigInput{AdvancedOptions: map[string]string{api.AdvancedOptionMaxClauseCount: "many"}}, client.ErrValidation, 400, "positive whole number"},
		{"engine mode", api.UpdateDomainConfigInput{EngineMode: ptr("FAST")}, client.ErrValidation, 400, "EngineMode must be one of GENERAL, OPTIMIZED"},
		{"ip address type", api.UpdateDomainConfigInput{IPAddressType: ptr("ipv6")}, client.ErrValidation, 400, "IPAddressType must be one of"},
		{"use case", api.UpdateDomainConfigInput{UseCase: ptr("LOGS")}, client.ErrValidation, 400, "UseCase must be one of"},
		{"dry run mode", api.UpdateDomainConfigInput{DryRun: ptr(true), DryRunMode: ptr("Full")}, client.ErrValidation, 400, "DryRunMode must be one of Basic, Verbose"},
		{"log type", api.UpdateDomainConfigInput{LogPublishingOptions: map[string]api.LogPublishingOption{"DEBUG_LOGS": {Enabled: ptr(true)}}}, client.ErrInvalidType, 409, `unsupported log type "DEBUG_LOGS"`},
		{"snapshot hour", api.UpdateDomainConfigInput{SnapshotOptions: &api.SnapshotOptions{AutomatedSnapshotStartHour: ptr(int64(24))}}, client.ErrValidation, 400, "SnapshotOptions.AutomatedSnapshotStartHour must be between 0 and 23"},
		{"off-peak hours", api.UpdateDomainConfigInput{OffPeakWindowOptions: &api.OffPeakWindowOptions{OffPeakWindow: &api.OffPeakWindow{WindowStartTime: &api.WindowStartTime{Hours: ptr(int64(24))}}}}, client.ErrValidation, 400, "WindowStartTime.Hours must be between 0 and 23"},
		{"off-peak minutes", api.UpdateDomainConfigInput{OffPeakWindowOptions: &api.OffPeakWindowOptions{OffPeakWindow: &api.OffPeakWindow{WindowStartTime: &api.WindowStartTime{Minutes: ptr(int64(60))}}}}, client.ErrValidation, 400, "WindowStartTime.Minutes must be between 0 and 59"},
		{"pause end before start", api.UpdateDomainConfigInput{AutomatedSnapshotPauseOptions: &api.AutomatedSnapshotPauseInput{Enabled: ptr(true), StartTime: ptr(api.Epoch(now)), EndTime: ptr(api.Epoch(now.Add(-time.Hour)))}}, client.ErrValidation, 400, "EndTime must be after StartTime"},
		{"pause over 3 days, basic dry run", api.UpdateDomainConfigInput{DryRun: ptr(true), AutomatedSnapshotPauseOptions: &api.AutomatedSnapshotPauseInput{Enabled: ptr(true), StartTime: ptr(api.Epoch(now)), EndTime: ptr(api.Epoch(now.Add(73 * time.Hour)))}}, client.ErrValidation, 400, "at most 3 days"},
		{"pause over 3 days, real", api.UpdateDomainConfigInput{AcceptedWarnings: []string{"ADV_SNAPSHOT_PAUSE_NO_RESTORE"}, AutomatedSnapshotPauseOptions: &api.AutomatedSnapshotPauseInput{Enabled: ptr(true), StartTime: ptr(api.Epoch(now)), EndTime: ptr(api.Epoch(now.Add(73 * time.Hour)))}}, client.ErrValidation, 400, "CRIT_SNAPSHOT_PAUSE_TOO_LONG"},
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

// Bodies a typed client cannot produce, sent through the shared signed stack.
func TestUpdateDomainConfigRawBodies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		kind       error
		code       string
		words      string
	}{
		{"advanced option not a string", `{"AdvancedOptions":{"indices.query.bool.max_clause_count":2048}}`, client.ErrValidation, "ValidationException", `AdvancedOptions["indices.query.bool.max_clause_count"] must be a string`},
		{"advanced option boolean", `{"AdvancedOptions":{"rest.action.multi.allow_explicit_index":true}}`, client.ErrValidation, "ValidationException", "must be a string"},
		{"wrong type", `{"ClusterConfig":{"InstanceCount":"three"}}`, client.ErrValidation, "ValidationException", "ClusterConfig.InstanceCount"},
		{"unknown member", `{"ClusterConfg":{}}`, client.ErrValidation, "ValidationException", `Unknown member "ClusterConfg"`},
		{"not JSON", `{"ClusterConfig":`, client.ErrBase, "BaseException", "not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			resp, err := env.raw.Do(ctx(t), &client.Request{
				Operation: "UpdateDomainConfig", Method: http.MethodPost,
				Path: "/2021-01-01/search/domain/demo/config", Body: []byte(tc.body),
			})
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Type    string `json:"__type"`
				Message string `json:"message"`
			}
			_ = json.Unmarshal(resp.Body, &body)
			if resp.StatusCode != 400 || body.Type != tc.code || !strings.Contains(body.Message, tc.words) {
				t.Errorf("got HTTP %d %s; want 400 %s %q", resp.StatusCode, resp.Body, tc.code, tc.words)
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
