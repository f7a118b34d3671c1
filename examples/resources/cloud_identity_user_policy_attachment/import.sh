# Import an attachment as <user_name>/<policy_arn>.
terraform import cloud_identity_user_policy_attachment.example alice/arn:cloud:identity::cloud:policy/ModelsLimitedAccess
