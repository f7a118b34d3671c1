# Import a user by its name.
import {
  to = cloud_identity_user.example
  id = "alice"
}
