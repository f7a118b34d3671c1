# Import a user by its identity (Terraform 1.12+). account_id may be left
# out: it defaults to the account the provider runs in.
import {
  to = cloud_identity_user.example
  identity = {
    user_name = "alice"
  }
}
