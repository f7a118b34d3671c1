# Every user's Inactive keys for the model runtime service. The results
# never hold a key's value.
list "cloud_identity_service_specific_credential" "inactive" {
  provider         = cloud
  include_resource = true

  config {
    service_name = "models.cloud.example"
    status       = "Inactive"
  }
}
