# A short-term key generated from the provider's credentials: never in plan
# or state, valid for at most 12 hours (or until the session ends).
ephemeral "cloud_models_short_term_api_key" "example" {
  expires_in = "1h"
}

# Passed to another ephemeral resource: a smoke test of the key.
ephemeral "cloud_models_converse" "example" {
  model_id = "anthropic.claude-v2"
  prompt   = "Reply with OK."
  api_key  = ephemeral.cloud_models_short_term_api_key.example.token
}

# Or to another provider's configuration, such as one that calls the model
# runtime with a bearer key:
#
# provider "example" {
#   api_key = ephemeral.cloud_models_short_term_api_key.example.token
# }
