# Import by identity (Terraform 1.12+). region and account_id are optional:
# they default to the provider's region and account, and another region or
# account is an error.
import {
  to = cloud_search_domain_config.example
  identity = {
    domain_name = "demo"
    region      = "us-east-1"
    account_id  = "123456789012"
  }
}
