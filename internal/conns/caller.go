package conns

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Caller is the principal whose credentials sign the provider's requests.
// Its ARN comes from Configure's credential check, or, when that check is
// skipped (skip_credentials_validation), from one GetCallerIdentity made
// the first time a type needs it, then kept for the provider instance.
type Caller struct {
	mu     sync.Mutex
	done   bool
	arn    string
	err    error
	lookup func(context.Context) (string, error)
	// roleArn is the role the provider was configured to assume (with its
	// path, which an assumed-role ARN leaves out), if any.
	roleArn string
}

// NewCaller is a Caller whose ARN is arn when it is known already, else
// lookup's answer. roleArn is the configured role's ARN, if any.
func NewCaller(arn string, lookup func(context.Context) (string, error), roleArn string) *Caller {
	return &Caller{arn: arn, done: arn != "", lookup: lookup, roleArn: roleArn}
}

// ARN is the caller's ARN as the token service names it, such as
// arn:cloud:sts::123456789012:assumed-role/deploy/ci for a role session.
// The lookup is made once; its failure is kept too, so that a plan of
// many keys waits for it at most once.
func (c *Caller) ARN(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done {
		c.arn, c.err = c.lookup(ctx)
		c.done = true
	}
	return c.arn, c.err
}

// Known is the caller's ARN when it is known without a call (from
// Configure's credential check, or a lookup already made); ok false when
// finding it would take a GetCallerIdentity or the lookup failed.
func (c *Caller) Known() (arn string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.arn, c.done && c.err == nil && c.arn != ""
}

// PrincipalARN is the ARN the identity service evaluates policies for
// (SimulatePrincipalPolicy's PolicySourceArn): the caller's own ARN, or for
// a role session (arn:cloud:sts::A:assumed-role/R/S) the role's,
// arn:cloud:identity::A:role/R, with the configured role's path when the
// provider assumed that role.
func (c *Caller) PrincipalARN(ctx context.Context) (string, error) {
	arn, err := c.ARN(ctx)
	if err != nil {
		return "", err
	}
	return principalARN(arn, c.roleArn)
}

func principalARN(arn, roleArn string) (string, error) {
	parts, ok := arnParts(arn)
	if !ok {
		return "", fmt.Errorf("the caller's ARN %q is not an ARN", arn)
	}
	session, ok := strings.CutPrefix(parts[5], "assumed-role/")
	if parts[2] != "sts" || !ok {
		return arn, nil
	}
	role, _, ok := strings.Cut(session, "/")
	if !ok || role == "" {
		return "", fmt.Errorf("the caller's ARN %q is not an assumed-role ARN such as arn:cloud:sts::123456789012:assumed-role/deploy/ci", arn)
	}
	account := parts[4]
	// A role with a path keeps it out of its sessions' ARNs: the configured
	// role's ARN has it.
	if rp, ok := arnParts(roleArn); ok && rp[4] == account {
		if name, ok := strings.CutPrefix(rp[5], "role/"); ok && name[strings.LastIndex(name, "/")+1:] == role {
			return roleArn, nil
		}
	}
	return fmt.Sprintf("arn:cloud:identity::%s:role/%s", account, role), nil
}

// AccountID is the account the provider runs in: the fifth field of the
// caller's ARN.
func (c *Caller) AccountID(ctx context.Context) (string, error) {
	arn, err := c.ARN(ctx)
	if err != nil {
		return "", err
	}
	account := ARNAccount(arn)
	if account == "" {
		return "", fmt.Errorf("the caller's ARN %q names no account", arn)
	}
	return account, nil
}

// ARNAccount is the account field of an ARN, such as the account of a user
// from its ARN; "" when arn is no ARN or names no account.
func ARNAccount(arn string) string {
	if parts, ok := arnParts(arn); ok {
		return parts[4]
	}
	return ""
}

// arnParts splits an ARN into its six fields, arn:partition:service:
// region:account:resource (the resource may hold colons).
func arnParts(arn string) ([]string, bool) {
	parts := strings.SplitN(arn, ":", 6)
	return parts, len(parts) == 6 && parts[0] == "arn"
}
