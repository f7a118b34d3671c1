# Two roles: pull requests plan under a role that may only read, and the
# apply job applies the saved plan under a role that may write. Each job
# sets, in its environment:
#   CLOUD_ROLE_ARN                 its own role (the plan role or the apply role)
#   CLOUD_WEB_IDENTITY_TOKEN_FILE  its OIDC token
#   CLOUD_APPLY_PRINCIPAL_ARN      the apply role, in both jobs
# The roles come from the environment, not from variables: a saved plan
# keeps the variables it was made with, so a role variable would make the
# apply job assume the plan role.
terraform {
  required_providers {
    cloud = {
      source  = "cloudlabs/cloud"
      version = "~> 0.1"
    }
  }
}

provider "cloud" {
  region = "us-east-1"
}
