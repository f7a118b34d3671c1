# Every search domain of the provider's region. Save as adopt.tfquery.hcl and
# run `terraform query -generate-config-out=domains.tf` (Terraform 1.14+).
list "cloud_search_domain_config" "all" {
  provider = cloud

  # The whole configuration of each domain, for the generated configuration.
  include_resource = true
}
