package provider_test

import (
	"strings"
	"testing"
)

// A plan role as contributing/design.md's split roles have it:
// identity:Get*, identity:List* and identity:SimulatePrincipalPolicy,
// nothing else. Planning a new key as
// itself, it is refused, and the error says a plan role can name the apply
// role; with apply_principal_arn naming a role that may create keys, the
// same plan succeeds, checks that role, and writes nothing.
func TestAccProvider_applyPrincipal(t *testing.T) {
	p := newPrincipalPlan(t)
	applyRole := putRoleWith(t, p.emu, "apply", []string{"identity:*"})
	plan := func(extra string) (string, error) {
		out, calls, err := p.plan(extra)
		for _, call := range calls {
			if !reads(call) {
				t.Errorf("the plan wrote: %s %s", call.Service, call.Operation)
			}
		}
		return out, err
	}

	out, err := plan("")
	if err == nil || !strings.Contains(out, "A policy of the principal Terraform runs as ("+p.planRole+") refuses a key") ||
		!strings.Contains(out, "name that role with the provider setting apply_principal_arn (or CLOUD_APPLY_PRINCIPAL_ARN)") {
		t.Errorf("the plan role planning as itself: %v\n%s", err, out)
	}
	out, err = plan(applyPrincipal(applyRole))
	if err != nil || !strings.Contains(out, "1 to add") || strings.Contains(out, "Warning") {
		t.Errorf("the plan role naming the apply role: %v\n%s", err, out)
	}
	var simulated []string
	for _, call := range p.emu.Calls() {
		if call.Operation == "SimulatePrincipalPolicy" {
			simulated = append(simulated, call.Operation)
		}
	}
	if len(simulated) != 1 {
		t.Errorf("the plan naming the apply role simulated %d times, want 1", len(simulated))
	}
	// Named by the environment, the same.
	t.Setenv("CLOUD_APPLY_PRINCIPAL_ARN", applyRole)
	if out, err := plan(""); err != nil || !strings.Contains(out, "1 to add") {
		t.Errorf("the plan role naming the apply role in CLOUD_APPLY_PRINCIPAL_ARN: %v\n%s", err, out)
	}
}
