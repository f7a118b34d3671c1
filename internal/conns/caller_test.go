package conns

import (
	"context"
	"errors"
	"testing"
)

func TestPrincipalARN(t *testing.T) {
	for _, tc := range []struct {
		arn, role, want string
	}{
		{"arn:cloud:identity::123456789012:user/alice", "", "arn:cloud:identity::123456789012:user/alice"},
		{"arn:cloud:identity::123456789012:user/team/alice", "", "arn:cloud:identity::123456789012:user/team/alice"},
		{"arn:cloud:sts::123456789012:assumed-role/deploy/ci", "", "arn:cloud:identity::123456789012:role/deploy"},
		// The configured role gives the path the session's ARN leaves out.
		{"arn:cloud:sts::123456789012:assumed-role/deploy/ci", "arn:cloud:identity::123456789012:role/team/deploy", "arn:cloud:identity::123456789012:role/team/deploy"},
		// A configured role of another name or account is not this one.
		{"arn:cloud:sts::123456789012:assumed-role/deploy/ci", "arn:cloud:identity::123456789012:role/team/other", "arn:cloud:identity::123456789012:role/deploy"},
		{"arn:cloud:sts::123456789012:assumed-role/deploy/ci", "arn:cloud:identity::999999999999:role/deploy", "arn:cloud:identity::123456789012:role/deploy"},
	} {
		got, err := principalARN(tc.arn, tc.role)
		if err != nil || got != tc.want {
			t.Errorf("principalARN(%q, %q) = %q, %v; want %q", tc.arn, tc.role, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "deploy", "arn:cloud:sts::123456789012:assumed-role/deploy"} {
		if got, err := principalARN(bad, ""); err == nil {
			t.Errorf("principalARN(%q) = %q, want an error", bad, got)
		}
	}
}

func TestCallerLooksUpOnce(t *testing.T) {
	calls := 0
	c := NewCaller("", func(context.Context) (string, error) {
		calls++
		return "", errors.New("unreachable")
	}, "")
	for range 3 {
		if _, err := c.PrincipalARN(context.Background()); err == nil {
			t.Fatal("no error from a failed lookup")
		}
	}
	if calls != 1 {
		t.Errorf("lookup made %d times, want 1", calls)
	}
	known := NewCaller("arn:cloud:sts::123456789012:assumed-role/deploy/ci", func(context.Context) (string, error) {
		t.Fatal("lookup of a known ARN")
		return "", nil
	}, "")
	if got, err := known.PrincipalARN(context.Background()); err != nil || got != "arn:cloud:identity::123456789012:role/deploy" {
		t.Errorf("PrincipalARN = %q, %v", got, err)
	}
}
