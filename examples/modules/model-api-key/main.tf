# A user for one application, the policy its key needs, and the key: a
# long-term API key of the model runtime service.

resource "cloud_identity_user" "this" {
  user_name = var.name
  path      = var.path

  # Keys made outside this module must not block its destroy.
  force_destroy = true
}

resource "cloud_identity_user_policy_attachment" "this" {
  user_name  = cloud_identity_user.this.user_name
  policy_arn = var.policy_arn
}

resource "cloud_identity_service_specific_credential" "this" {
  user_name           = cloud_identity_user.this.user_name
  service_name        = "models.cloud.example"
  credential_age_days = var.credential_age_days
  renew_before_days   = var.renew_before_days
  status              = var.status
  reset_triggers      = length(var.reset_triggers) > 0 ? var.reset_triggers : null

  # A key without its policy cannot call anything; create it after.
  depends_on = [cloud_identity_user_policy_attachment.this]

  # A renewal creates the new key before it deletes the old one (a user holds
  # at most 2 keys per service).
  lifecycle {
    create_before_destroy = true
  }
}
