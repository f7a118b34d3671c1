package provider_test

import (
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// apply_principal_arn naming a user that does not exist, a principal of
// another account, or a path with "..": each is told apart from a policy
// refusing the key, the last two before any call of the check.
func TestAccProvider_applyPrincipalEdges(t *testing.T) {
	p := newPrincipalPlan(t)
	account := conns.ARNAccount(p.planRole)
	other := "999999999999"
	if other == account {
		other = "111111111111"
	}
	plan := func(principal string) (string, []string) {
		out, made, err := p.plan(applyPrincipal(principal))
		if err == nil {
			t.Errorf("the plan naming %s succeeded:\n%s", principal, out)
		}
		var calls []string
		for _, call := range made {
			calls = append(calls, call.Operation)
		}
		return out, calls
	}
	for _, c := range []struct {
		principal, want string
		noSimulation    bool
	}{
		{"arn:cloud:identity::" + account + ":role/nobody-here", `Apply Principal Not Found`, false},
		{"arn:cloud:identity::" + other + ":role/terraform-apply", "Apply Principal in Another Account", true},
		{"arn:cloud:identity::" + account + ":role/../../user/app", `has the path segment ".."`, true},
	} {
		out, calls := plan(c.principal)
		if !strings.Contains(out, c.want) || strings.Contains(out, "refuses a key") || strings.Contains(out, "credential_age_days") && strings.Contains(out, "shorter") {
			t.Errorf("apply_principal_arn = %s: want %q and no policy refusal:\n%s", c.principal, c.want, out)
		}
		if c.noSimulation && strings.Contains(strings.Join(calls, " "), "SimulatePrincipalPolicy") {
			t.Errorf("apply_principal_arn = %s: the plan simulated (%v), want it refused before", c.principal, calls)
		}
	}
}
