# Policy review of a saved plan of the cloudlabs/cloud provider.
#
# Input: `terraform show -json PLANFILE` (or `tofu show -json`). Every rule
# looks only at resources the plan creates or updates (a replacement is a
# create), so an unchanged resource never blocks an unrelated change.
#
#   opa eval --format pretty -d plan.rego -i plan.json 'data.terraform.plan.deny'
#   conftest test --namespace terraform.plan -p . plan.json
#
# Each message starts with the resource address and says why.
package terraform.plan

# The longest life a long-term API key may be given, in days.
max_key_age_days := 90

# changes are the resource changes that create or update something.
changes contains rc if {
	some rc in input.resource_changes
	some action in rc.change.actions
	action in {"create", "update"}
}

domain_changes contains rc if {
	some rc in changes
	rc.type == "cloud_search_domain_config"
}

# A change the service would deploy blue/green runs for hours on a copy of
# the domain: it belongs in a change window, not in this pipeline.
deny contains msg if {
	some rc in domain_changes
	rc.change.after.dry_run.deployment_type == "blue/green"
	msg := sprintf(
		"%s: the plan's dry run says the change is deployed blue/green; make blue/green changes in a change window",
		[rc.address],
	)
}

# Every validation failure of the plan's dry run must be an Advisory warning
# that the resource accepts in accepted_warnings. Critical failures (and
# severities this policy does not know) are always denied.
deny contains msg if {
	some rc in domain_changes
	some failure in rc.change.after.dry_run.validation_failures
	not accepted(rc, failure)
	# The failure's message is known only after apply (the service rewords
	# it while another change runs); code and severity are in the plan.
	msg := sprintf(
		"%s: the dry run reports %s %s, which accepted_warnings does not accept: %s",
		[rc.address, failure.severity, failure.code, object.get(failure, "message", "(message known after apply)")],
	)
}

accepted(rc, failure) if {
	failure.severity == "Advisory"
	some code in rc.change.after.accepted_warnings
	code == failure.code
}

key_changes contains rc if {
	some rc in changes
	rc.type == "cloud_identity_service_specific_credential"
}

deny contains msg if {
	some rc in key_changes
	age := rc.change.after.credential_age_days
	is_number(age)
	age > max_key_age_days
	msg := sprintf(
		"%s: credential_age_days is %d; long-term API keys may live at most %d days",
		[rc.address, age, max_key_age_days],
	)
}

# A key without credential_age_days never expires.
deny contains msg if {
	some rc in key_changes
	not object.get(rc.change.after_unknown, "credential_age_days", false)
	object.get(rc.change.after, "credential_age_days", null) == null
	msg := sprintf(
		"%s: credential_age_days is not set, so the key never expires; set it to at most %d",
		[rc.address, max_key_age_days],
	)
}

# Warnings: what the plan cannot show, so a person has to look.
warn contains msg if {
	some rc in domain_changes
	object.get(rc.change.after_unknown, "dry_run", false) == true
	msg := sprintf(
		"%s: the plan has no dry run of this change (values known only after apply, or the dry run was unavailable); review it by hand",
		[rc.address],
	)
}

# A Basic dry run reports the deployment type but validates nothing, and
# Off makes no dry run: an empty validation_failures then proves nothing.
warn contains msg if {
	some rc in domain_changes
	rc.change.after.dry_run.mode == "Basic"
	msg := sprintf(
		"%s: the dry run ran in Basic mode, which validates nothing: validation failures are not known; plan with dry_run_mode = \"Verbose\" or review the change by hand",
		[rc.address],
	)
}

warn contains msg if {
	some rc in domain_changes
	rc.change.after.dry_run.mode == "Off"
	msg := sprintf(
		"%s: dry_run_mode is Off, so the plan has no dry run: neither the deployment type nor validation failures are known; review the change by hand",
		[rc.address],
	)
}

warn contains msg if {
	some rc in key_changes
	object.get(rc.change.after_unknown, "credential_age_days", false) == true
	msg := sprintf("%s: credential_age_days is known only after apply; check it is at most %d", [rc.address, max_key_age_days])
}
