resource "cloud_identity_user" "example" {
  user_name = "smoke-test"
}

resource "cloud_identity_user_policy_attachment" "example" {
  user_name  = cloud_identity_user.example.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

resource "cloud_identity_service_specific_credential" "example" {
  user_name           = cloud_identity_user.example.user_name
  credential_age_days = 30
}

# Proves after every plan and apply that the new long-term key answers in its
# own region. A check block turns a refusal (such as "Credential should be
# scoped to a valid region") into a warning; each run costs one model call.
check "long_term_key_works" {
  data "cloud_models_converse" "smoke" {
    model_id = "anthropic.claude-v2"
    prompt   = "Reply with OK."
    api_key  = cloud_identity_service_specific_credential.example.service_api_key_value

    depends_on = [cloud_identity_user_policy_attachment.example]
  }

  assert {
    condition     = data.cloud_models_converse.smoke.stop_reason == "end_turn"
    error_message = "The long-term key did not get an answer from the model runtime."
  }
}
