# The policies attached to every user (leave config out), or to one.
list "cloud_identity_user_policy_attachment" "alice" {
  provider         = cloud
  include_resource = true

  config {
    user_name = "alice"
  }
}
