# Import a policy attachment by its identity (Terraform 1.12+).
import {
  to = cloud_identity_user_policy_attachment.example
  identity = {
    user_name  = "alice"
    policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
  }
}
