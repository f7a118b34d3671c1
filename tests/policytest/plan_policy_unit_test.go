package policytest_test

import (
	"encoding/json"
	"testing"
)

// TestPlanPolicy_rules checks, without a CLI, the rules that real plans of
// TestAccPlanPolicy do not reach: what a plan leaves alone or deletes is
// never denied, and what the plan cannot show is a warning.
func TestPlanPolicy_rules(t *testing.T) {
	t.Parallel()
	deny := compilePolicy(t, "data.terraform.plan.deny")
	warn := compilePolicy(t, "data.terraform.plan.warn")
	const (
		oldKey = `{"address": "cloud_identity_service_specific_credential.old", "type": "cloud_identity_service_specific_credential",
			"change": {"actions": ["no-op"], "before": {"credential_age_days": 365}, "after": {"credential_age_days": 365}, "after_unknown": {}}}`
		goneKey = `{"address": "cloud_identity_service_specific_credential.gone", "type": "cloud_identity_service_specific_credential",
			"change": {"actions": ["delete"], "before": {"credential_age_days": 365}, "after": null, "after_unknown": {}}}`
		unknownAge = `{"address": "cloud_identity_service_specific_credential.later", "type": "cloud_identity_service_specific_credential",
			"change": {"actions": ["create"], "before": null, "after": {"user_name": "a"}, "after_unknown": {"credential_age_days": true}}}`
		// A plan from a provider older than 0.1.0, where credential_age_days was optional.
		noAge = `{"address": "cloud_identity_service_specific_credential.forever", "type": "cloud_identity_service_specific_credential",
			"change": {"actions": ["create"], "before": null, "after": {"user_name": "a", "credential_age_days": null}, "after_unknown": {}}}`
		noDryRun = `{"address": "cloud_search_domain_config.later", "type": "cloud_search_domain_config",
			"change": {"actions": ["update"], "before": {}, "after": {"dry_run_mode": "Verbose"}, "after_unknown": {"dry_run": true}}}`
		basic = `{"address": "cloud_search_domain_config.basic", "type": "cloud_search_domain_config",
			"change": {"actions": ["update"], "before": {}, "after": {"dry_run": {"mode": "Basic", "deployment_type": "dynamic", "validation_failures": []}}, "after_unknown": {"dry_run": {"id": true}}}}`
		off = `{"address": "cloud_search_domain_config.off", "type": "cloud_search_domain_config",
			"change": {"actions": ["update"], "before": {}, "after": {"dry_run": {"mode": "Off", "deployment_type": null, "validation_failures": null}}, "after_unknown": {}}}`
		noChange = `{"address": "cloud_search_domain_config.same", "type": "cloud_search_domain_config",
			"change": {"actions": ["update"], "before": {}, "after": {"dry_run": null, "allow_blue_green": false}, "after_unknown": {}}}`
		unknownSeverity = `{"address": "cloud_search_domain_config.odd", "type": "cloud_search_domain_config",
			"change": {"actions": ["update"], "before": {}, "after": {"accepted_warnings": ["NEW_CODE"], "dry_run": {"deployment_type": "dynamic",
			"validation_failures": [{"code": "NEW_CODE", "message": "m", "severity": "Informational"}]}}, "after_unknown": {"dry_run": {"id": true}}}}`
	)
	tests := map[string]struct {
		changes    string
		deny, warn []string
	}{
		"unchanged and deleted keys": {changes: oldKey + "," + goneKey},
		"key age known only after apply": {
			changes: unknownAge,
			warn:    []string{"cloud_identity_service_specific_credential.later: credential_age_days is known only after apply"},
		},
		"key that never expires": {
			changes: noAge,
			deny:    []string{"cloud_identity_service_specific_credential.forever: credential_age_days is not set, so the key never expires; set it to at most 90"},
		},
		"domain change without a dry run": {
			changes: noDryRun,
			warn:    []string{"cloud_search_domain_config.later: the plan has no dry run of this change"},
		},
		"dry runs that validated nothing": {
			changes: basic + "," + off,
			warn: []string{
				"cloud_search_domain_config.basic: the dry run ran in Basic mode, which validates nothing",
				"cloud_search_domain_config.off: dry_run_mode is Off, so the plan has no dry run",
			},
		},
		"an update of settings only has no dry run and no warning": {changes: noChange},
		"a severity the policy does not know": {
			changes: unknownSeverity,
			deny:    []string{"cloud_search_domain_config.odd: the dry run reports Informational NEW_CODE, which accepted_warnings does not accept"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var plan map[string]any
			if err := json.Unmarshal([]byte(`{"resource_changes": [`+tt.changes+`]}`), &plan); err != nil {
				t.Fatal(err)
			}
			expectDenials(t, deny.deny(t, plan), tt.deny...)
			expectDenials(t, warn.deny(t, plan), tt.warn...)
		})
	}
}
