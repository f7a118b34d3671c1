# Import a user by its name.
terraform import cloud_identity_user.example alice
