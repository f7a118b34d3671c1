# Every user under /apps/, with the whole user for
# terraform query -generate-config-out=generated.tf (Terraform 1.14+).
list "cloud_identity_user" "apps" {
  provider         = cloud
  include_resource = true
  limit            = 1000

  config {
    path_prefix = "/apps/"
  }
}
