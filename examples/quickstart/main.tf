# The quickstart: what `make demo` plans and applies against the emulator.
# Region, credentials and endpoint come from the environment
# (CLOUD_REGION, CLOUD_ACCESS_KEY_ID, CLOUD_SECRET_ACCESS_KEY,
# CLOUD_ENDPOINT_URL), as `make demo` sets them.
terraform {
  required_providers {
    cloud = {
      source = "cloudlabs/cloud"
    }
  }
}

provider "cloud" {}

# The identity-service user that a long-term API key belongs to.
resource "cloud_identity_user" "app" {
  user_name = "quickstart-app"
  path      = "/apps/"
}

output "user_arn" {
  value = cloud_identity_user.app.arn
}
