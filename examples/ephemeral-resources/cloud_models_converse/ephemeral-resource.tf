# A model call whose answer is never written to the plan or the state: a
# smoke test of a key that is itself ephemeral, run at every plan and apply.
# Its attributes (text, stop_reason, token counts) may feed other ephemeral
# resources, provider configurations or write-only arguments.
ephemeral "cloud_models_short_term_api_key" "smoke" {
  expires_in = "15m"
}

ephemeral "cloud_models_converse" "smoke" {
  model_id = "anthropic.claude-v2"
  prompt   = "Reply with OK."
  api_key  = ephemeral.cloud_models_short_term_api_key.smoke.token
}
