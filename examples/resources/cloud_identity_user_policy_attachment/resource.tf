resource "cloud_identity_user" "example" {
  user_name = "alice"
}

# Lets the user's long-term API keys call the model runtime service.
resource "cloud_identity_user_policy_attachment" "example" {
  user_name  = cloud_identity_user.example.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}
