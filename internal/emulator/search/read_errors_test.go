package search_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// The emulator's own refusals of the GET operations' parameters: each is
// the spec's error with a message that names the parameter, so a client
// that sends a bad one learns which.
func TestReadOperationsRefuseBadParameters(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	for _, tc := range []struct {
		name, path string
		q          url.Values
		body       string
		status     int
		code, msg  string
	}{
		{"dryRunId too short", "demo/dryRun", url.Values{"dryRunId": {"1234"}}, "", 400, "ValidationException", "dryRunId: "},
		{"dryRunId not hexadecimal", "demo/dryRun", url.Values{"dryRunId": {"zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"}}, "", 400, "ValidationException", "dryRunId: "},
		{"changeid not an id", "demo/progress", url.Values{"changeid": {"not-a-change"}}, "", 400, "ValidationException", "changeid: "},
		{"loadDryRunConfig not a flag", "demo/dryRun", url.Values{"loadDryRunConfig": {"maybe"}}, "", 400, "ValidationException", `loadDryRunConfig must be true or false, not "maybe"`},
		{"domain name with upper case (dryRun)", "Demo/dryRun", nil, "", 400, "ValidationException", "DomainName: "},
		{"domain name too short (progress)", "de/progress", nil, "", 400, "ValidationException", "DomainName: "},
		{"unknown dry run", "demo/dryRun", url.Values{"dryRunId": {"00000000-0000-0000-0000-000000000000"}}, "", 409, "ResourceNotFoundException", "Dry run 00000000-0000-0000-0000-000000000000 not found"},
		{"unknown change", "demo/progress", url.Values{"changeid": {"00000000-0000-0000-0000-000000000000"}}, "", 409, "ResourceNotFoundException", "Change 00000000-0000-0000-0000-000000000000 not found"},
		// BaseException: the GET operations take no body.
		{"a body on DescribeDryRunProgress", "demo/dryRun", nil, `{"DryRunId":"x"}`, 400, "BaseException", "DescribeDryRunProgress takes no request body"},
		{"a body on DescribeDomainChangeProgress", "demo/progress", nil, `{"ChangeId":"x"}`, 400, "BaseException", "DescribeDomainChangeProgress takes no request body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := env.do(t, http.MethodGet, tc.path, tc.q, tc.body)
			typ, _ := out["__type"].(string)
			msg, _ := out["message"].(string)
			if status != tc.status || typ != tc.code || !strings.Contains(msg, tc.msg) {
				t.Errorf("HTTP %d %s %q; want HTTP %d %s saying %q", status, typ, msg, tc.status, tc.code, tc.msg)
			}
		})
	}
}

// BaseException, which the spec lists for both progress operations, is
// decoded by the client as client.ErrBase, from the emulator's own
// condition and from an injected fault.
func TestBaseExceptionThroughTheClient(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	for _, op := range []string{"DescribeDryRunProgress", "DescribeDomainChangeProgress"} {
		if err := env.e.InjectFault(emulator.Fault{Service: "search", Operation: op, Kind: emulator.FaultError, Status: 400, Code: "BaseException"}); err != nil {
			t.Fatal(err)
		}
	}
	_, errDry := env.c.DescribeDryRunProgress(ctx(t), api.DescribeDryRunProgressInput{DomainName: "demo"})
	_, errChange := env.c.DescribeDomainChangeProgress(ctx(t), "demo", "")
	for op, err := range map[string]error{"DescribeDryRunProgress": errDry, "DescribeDomainChangeProgress": errChange} {
		var apiErr *client.APIError
		if !errors.Is(err, client.ErrBase) || !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Code != "BaseException" {
			t.Errorf("%s: %v (%T), want a 400 BaseException decoded as client.ErrBase", op, err, err)
		}
	}
	// Without the fault the same calls succeed.
	if _, err := env.c.DescribeDomainChangeProgress(ctx(t), "demo", ""); err != nil {
		t.Errorf("after the fault: %v", err)
	}
}

// A fault's code must come with an error fault and a 4xx or 5xx status.
func TestFaultCodeRules(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	for _, f := range []emulator.Fault{
		{Kind: emulator.FaultThrottle, Code: "BaseException"},
		{Kind: emulator.FaultError, Status: 302, Code: "BaseException"},
		{Kind: emulator.FaultError, Status: 400},
	} {
		if err := env.e.InjectFault(f); err == nil {
			t.Errorf("fault %+v accepted", f)
		}
	}
}
