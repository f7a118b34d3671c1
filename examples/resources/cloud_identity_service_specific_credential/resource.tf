resource "cloud_identity_user" "example" {
  user_name = "alice"
}

resource "cloud_identity_user_policy_attachment" "example" {
  user_name  = cloud_identity_user.example.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

# A long-term API key for the model runtime service, in the provider's region.
resource "cloud_identity_service_specific_credential" "example" {
  user_name           = cloud_identity_user.example.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 90

  # Plans a replacement (with a warning) once the key is 14 days from expiry.
  renew_before_days = 14

  # "Inactive" deactivates the key in place; "Active" brings it back.
  status = "Active"

  # Change a value to reset the key in place: new value, same id.
  reset_triggers = {
    rotation = "2026-01"
  }

  # Keep the old key working until the new one exists (a user holds at most
  # 2 keys per service).
  lifecycle {
    create_before_destroy = true
  }
}

output "api_key" {
  value     = cloud_identity_service_specific_credential.example.service_api_key_value
  sensitive = true
}
