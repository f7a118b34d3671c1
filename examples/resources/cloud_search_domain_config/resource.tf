# Manage part of an existing domain's configuration. Only the sections set
# here are managed: sent, refreshed and compared.
resource "cloud_search_domain_config" "example" {
  domain_name = "demo"

  # Dynamic: applied to the running domain.
  snapshot_options = {
    automated_snapshot_start_hour = 3
  }

  advanced_options = {
    "rest.action.multi.allow_explicit_index" = "false"
  }

  # A blue/green change (such as a new instance type) makes the plan warn;
  # with allow_blue_green = false it fails the plan instead.
  allow_blue_green = false

  # Advisory warnings of the dry run fail the plan unless accepted here.
  # (Setting advanced_options without a field-data cache bound draws this one.)
  accepted_warnings = ["ADV_FIELDDATA_CACHE_UNBOUNDED"]

  timeouts = {
    update = "2h"
  }
}

# What the plan's dry run said, for review and for modules.
output "deployment_type" {
  value = cloud_search_domain_config.example.dry_run.deployment_type
}
