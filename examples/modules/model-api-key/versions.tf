terraform {
  required_version = ">= 1.11"

  required_providers {
    cloud = {
      source = "cloudlabs/cloud"
    }
  }
}
