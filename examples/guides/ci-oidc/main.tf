# One provider configuration for CI: GitHub Actions and HCP Terraform both
# hand the job a short-lived OIDC token, which the provider exchanges for
# the role's temporary credentials. No secret is stored anywhere.
terraform {
  required_providers {
    cloud = {
      source  = "cloudlabs/cloud"
      version = "~> 0.1"
    }
  }
}

variable "ci_role_arn" {
  type        = string
  description = "ARN of the role CI assumes, such as arn:cloud:identity::123456789012:role/ci."
}

provider "cloud" {
  region = "us-east-1"

  # The token comes from CLOUD_WEB_IDENTITY_TOKEN_FILE (the GitHub Actions
  # workflow below writes it) or from TFC_WORKLOAD_IDENTITY_TOKEN (HCP
  # Terraform sets it).
  assume_role_with_web_identity {
    role_arn     = var.ci_role_arn
    session_name = "ci"
  }
}
