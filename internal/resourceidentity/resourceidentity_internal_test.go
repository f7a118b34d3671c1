package resourceidentity

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// TestAccount: the policy for an identity's account at each write.
func TestAccount(t *testing.T) {
	t.Parallel()
	known := &conns.Clients{Caller: conns.NewCaller("arn:cloud:identity::123456789012:user/ci", nil, "")}
	failing := &conns.Clients{Caller: conns.NewCaller("", func(context.Context) (string, error) { return "", errors.New("unreachable") }, "")}
	user := func(account string) *Identity {
		return &Identity{Attrs: map[string]string{"user_name": "a"}, Account: account}
	}
	tests := []struct {
		name    string
		clients *conns.Clients
		prior   *Identity
		want    string
		wantSev []diag.Severity
	}{
		{"create", known, nil, "123456789012", nil},
		{"same account", known, user("123456789012"), "123456789012", nil},
		{"another account", known, user("999999999999"), "123456789012", []diag.Severity{diag.SeverityError}},
		{"recorded without account, filled", known, user(""), "123456789012", nil},
		{"lookup failed at a refresh without identity: logged", failing, &Identity{}, "", nil},
		{"lookup failed, prior kept", failing, user("123456789012"), "123456789012", nil},
		{"lookup failed at create", failing, nil, "", []diag.Severity{diag.SeverityWarning}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			got := account(context.Background(), Type{}.caller(tt.clients, false), tt.prior, "user a", &diags)
			if got != tt.want {
				t.Errorf("account = %q, want %q", got, tt.want)
			}
			var sev []diag.Severity
			for _, d := range diags {
				sev = append(sev, d.Severity())
			}
			if len(sev) != len(tt.wantSev) || (len(sev) == 1 && sev[0] != tt.wantSev[0]) {
				t.Errorf("diagnostics %v, want severities %v", diags, tt.wantSev)
			}
		})
	}
}

// TestCallerAccount: the account is the ARN's fifth field, for a user, a
// role session and a root; an ARN without one, or a failed lookup, is an
// error.
func TestCallerAccount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		arn, want, wantErr string
		lookupErr          error
	}{
		{arn: "arn:cloud:identity::123456789012:user/apps/ci", want: "123456789012"},
		{arn: "arn:cloud:sts::210987654321:assumed-role/deploy/ci", want: "210987654321"},
		{arn: "arn:cloud:identity::111122223333:root", want: "111122223333"},
		{arn: "arn:cloud:identity:::user/ci", wantErr: `the caller's ARN "arn:cloud:identity:::user/ci" names no account`},
		{arn: "not-an-arn", wantErr: "names no account"},
		{lookupErr: errors.New("GetCallerIdentity: AccessDenied"), wantErr: "GetCallerIdentity: AccessDenied"},
	}
	for _, tc := range cases {
		t.Run(tc.arn+tc.wantErr, func(t *testing.T) {
			t.Parallel()
			caller := conns.NewCaller("", func(context.Context) (string, error) { return tc.arn, tc.lookupErr }, "")
			got, err := CallerAccount(context.Background(), &conns.Clients{Caller: caller})
			switch {
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one with %q", err, tc.wantErr)
			case tc.wantErr == "" && (err != nil || got != tc.want):
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestRefreshWithoutCall: a type that refreshes without a call learns the
// account at a refresh only when it is known already, and keeps what the
// state has otherwise; its other operations make the call.
func TestRefreshWithoutCall(t *testing.T) {
	t.Parallel()
	lookups := 0
	lookup := func(context.Context) (string, error) {
		lookups++
		return "arn:cloud:identity::123456789012:user/ci", nil
	}
	unknown := &conns.Clients{Caller: conns.NewCaller("", lookup, "")}
	typ := Type{RefreshWithoutCall: true}
	var diags diag.Diagnostics
	if got := account(context.Background(), typ.caller(unknown, true), &Identity{}, "domain a", &diags); got != "" || lookups != 0 || diags.HasError() {
		t.Errorf("refresh with the account unknown: %q after %d lookups (%v), want none and no lookup", got, lookups, diags)
	}
	if got := account(context.Background(), typ.caller(unknown, true), &Identity{Account: "999999999999"}, "domain a", &diags); got != "999999999999" || lookups != 0 {
		t.Errorf("refresh with the account unknown: %q after %d lookups, want the prior account kept and no lookup", got, lookups)
	}
	if got := account(context.Background(), typ.caller(unknown, false), &Identity{}, "domain a", &diags); got != "123456789012" || lookups != 1 {
		t.Errorf("update: %q after %d lookups, want the account from one lookup", got, lookups)
	}
	if got := account(context.Background(), typ.caller(unknown, true), &Identity{}, "domain a", &diags); got != "123456789012" || lookups != 1 {
		t.Errorf("refresh after the lookup: %q after %d lookups, want the known account and no new lookup", got, lookups)
	}
	if diags.HasError() {
		t.Error(diags)
	}
}
