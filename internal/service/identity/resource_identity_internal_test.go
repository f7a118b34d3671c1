package identity

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

func TestIdentityAccount(t *testing.T) {
	t.Parallel()
	known := &conns.Clients{Caller: conns.NewCaller("arn:cloud:identity::123456789012:user/ci", nil, "")}
	failing := &conns.Clients{Caller: conns.NewCaller("", func(context.Context) (string, error) { return "", errors.New("unreachable") }, "")}
	tests := []struct {
		name    string
		clients *conns.Clients
		prior   identityValues
		want    string
		wantSev []diag.Severity
	}{
		{"create", known, nil, "123456789012", nil},
		{"same account", known, identityValues{"user_name": "a", identityAccountID: "123456789012"}, "123456789012", nil},
		{"another account", known, identityValues{"user_name": "a", identityAccountID: "999999999999"}, "123456789012", []diag.Severity{diag.SeverityError}},
		{"recorded without account, filled", known, identityValues{"user_name": "a"}, "123456789012", nil},
		{"lookup failed at a refresh without identity: logged", failing, identityValues{}, "", nil},
		{"lookup failed, prior kept", failing, identityValues{"user_name": "a", identityAccountID: "123456789012"}, "123456789012", nil},
		{"lookup failed at create", failing, nil, "", []diag.Severity{diag.SeverityWarning}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			got := identityAccount(context.Background(), tt.clients, tt.prior, "user a", &diags)
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
