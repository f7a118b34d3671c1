# The plan of a cloud_search_domain_config change names its dry run in a
# warning ("dry run <id>"); after apply the resource's dry_run.id holds it.
variable "dry_run_id" {
  type        = string
  description = "Id of the dry run named in the plan's warning."
}

# The planned configuration of that dry run, read the way
# cloud_search_domain_config writes it.
data "cloud_search_domain_dry_run" "planned" {
  domain_name         = "demo"
  dry_run_id          = var.dry_run_id
  load_dry_run_config = true

  # Wait while the dry run is pending or in progress, up to timeouts.read.
  wait_for_completion = true
  timeouts {
    read = "2m"
  }
}

output "deployment_type" {
  value = data.cloud_search_domain_dry_run.planned.deployment_type
}

output "blocking_findings" {
  value = [
    for f in data.cloud_search_domain_dry_run.planned.validation_failures : f.code
    if f.severity != "Advisory"
  ]
}

output "planned_instance_type" {
  value = data.cloud_search_domain_dry_run.planned.dry_run_config.cluster_config.instance_type
}
