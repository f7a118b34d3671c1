# The user behind a long-term API key of the model runtime service.
resource "cloud_identity_user" "example" {
  user_name = "alice"
  path      = "/model-users/"

  # Detach policies and delete keys (also ones made outside Terraform)
  # before deleting the user.
  force_destroy = true
}
