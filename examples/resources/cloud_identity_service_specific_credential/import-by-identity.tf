# Import a key by its identity (Terraform 1.12+). account_id and region may
# be left out: they default to the provider's account and region.
import {
  to = cloud_identity_service_specific_credential.example
  identity = {
    user_name                      = "alice"
    service_specific_credential_id = "ACCAEXAMPLE234567ABCDE"
  }
}
