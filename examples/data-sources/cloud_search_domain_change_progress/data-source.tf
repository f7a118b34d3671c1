# One change, by the id cloud_search_domain_config records in change_id.
variable "change_id" {
  type        = string
  description = "Id of a configuration change of the domain."
}

data "cloud_search_domain_change_progress" "change" {
  domain_name = "demo"
  change_id   = var.change_id
}

output "pending_properties" {
  value = data.cloud_search_domain_change_progress.change.pending_properties
}

# The domain's most recent change (no change_id), in a check that warns,
# without failing the run, while that change is still running. A domain
# that never changed has a null status, which passes.
check "latest_change_done" {
  data "cloud_search_domain_change_progress" "latest" {
    domain_name = "demo"
  }

  assert {
    condition = data.cloud_search_domain_change_progress.latest.status != "PROCESSING"
    error_message = format(
      "Change %s of domain demo is still running (%s), stages left: %s.",
      coalesce(data.cloud_search_domain_change_progress.latest.change_id, "?"),
      coalesce(data.cloud_search_domain_change_progress.latest.config_change_status, "?"),
      join(", ", [
        for s in data.cloud_search_domain_change_progress.latest.change_progress_stages : s.name
        if s.status != "COMPLETED"
      ]),
    )
  }
}
