# Every user's Inactive keys for the model runtime service. The results
# never hold a key's value. Terraform returns at most `limit` results of a
# list block, 100 when it is left out: set it above the number of keys.
list "cloud_identity_service_specific_credential" "inactive" {
  provider         = cloud
  include_resource = true
  limit            = 1000

  config {
    service_name = "models.cloud.example"
    status       = "Inactive"
  }
}
