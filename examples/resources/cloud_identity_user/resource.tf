resource "cloud_identity_user" "example" {
  user_name = "inference-app"
  path      = "/apps/"

  # Detach policies and delete API keys made outside Terraform on destroy.
  force_destroy = true
}
