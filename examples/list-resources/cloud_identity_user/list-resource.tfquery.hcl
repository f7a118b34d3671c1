# Every user under /apps/, with the whole user for
# terraform query -generate-config-out=generated.tf (Terraform 1.14+).
# Terraform returns at most `limit` results of a list block, 100 when it is
# left out: set it above the number of users.
list "cloud_identity_user" "apps" {
  provider         = cloud
  include_resource = true
  limit            = 1000

  config {
    path_prefix = "/apps/"
  }
}
