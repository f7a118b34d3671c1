terraform {
  required_version = ">= 1.11"

  required_providers {
    cloud = {
      source = "cloudlabs/cloud"
      # 0.1 brought every argument this module uses; a minor release adds
      # features without breaking them.
      version = ">= 0.1, < 1.0"
    }
  }
}
