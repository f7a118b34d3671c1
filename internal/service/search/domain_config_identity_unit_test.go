package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

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
			got, err := callerAccount(context.Background(), &conns.Clients{Caller: caller})
			switch {
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one with %q", err, tc.wantErr)
			case tc.wantErr == "" && (err != nil || got != tc.want):
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
