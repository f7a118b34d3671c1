# Import a key as <user_name>/<service_specific_credential_id>. The key's
# value cannot be read back: service_api_key_value stays null until the key
# is reset (change reset_triggers).
import {
  to = cloud_identity_service_specific_credential.example
  id = "alice/ACCAEXAMPLE234567ABCDE"
}
