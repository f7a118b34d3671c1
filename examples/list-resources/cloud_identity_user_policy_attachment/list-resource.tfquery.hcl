# The policies attached to every user (leave config out), or to one.
# Terraform returns at most `limit` results of a list block, 100 when it is
# left out: set it above the number of attachments.
list "cloud_identity_user_policy_attachment" "alice" {
  provider         = cloud
  include_resource = true
  limit            = 100

  config {
    user_name = "alice"
  }
}
