# Import an attachment as <user_name>/<policy_arn>.
import {
  to = cloud_identity_user_policy_attachment.example
  id = "alice/arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}
