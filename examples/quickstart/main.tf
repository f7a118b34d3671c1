# The quickstart: what `make demo` plans and applies against the emulator.
# Region, credentials and endpoint come from the environment
# (CLOUD_REGION, CLOUD_ACCESS_KEY_ID, CLOUD_SECRET_ACCESS_KEY,
# CLOUD_ENDPOINT_URL), as `make demo` sets them.
terraform {
  required_providers {
    cloud = {
      source = "cloudlabs/cloud"
    }
  }
}

provider "cloud" {}

# 1. A long-term API key for the model runtime: the identity-service user
#    behind it, the managed limited-access policy, and a 30-day key.
resource "cloud_identity_user" "app" {
  user_name = "quickstart-app"
  path      = "/apps/"
}

resource "cloud_identity_user_policy_attachment" "app" {
  user_name  = cloud_identity_user.app.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

resource "cloud_identity_service_specific_credential" "app" {
  user_name           = cloud_identity_user.app.user_name
  credential_age_days = 30
}

# 2. A smoke test: the new key gets an answer from the runtime of its region.
check "key_works" {
  data "cloud_models_converse" "smoke" {
    model_id = "demo-model"
    prompt   = "Hello from the quickstart"
    api_key  = cloud_identity_service_specific_credential.app.service_api_key_value

    depends_on = [cloud_identity_user_policy_attachment.app]
  }

  assert {
    condition     = data.cloud_models_converse.smoke.stop_reason == "end_turn"
    error_message = "The new long-term key did not get an answer from the model runtime."
  }
}

# 3. A change to the demo search domain. Before anything is applied, the
#    plan runs a dry run and shows what it found: turning off dedicated
#    master nodes is a blue/green deployment (a new environment is built and
#    the data copied: a warning, or an error with allow_blue_green = false),
#    and it draws the Advisory warning ADV_NO_DEDICATED_MASTERS. An Advisory
#    warning blocks the change unless its code is accepted: remove it from
#    accepted_warnings and the plan fails, naming the code to add.
#    dry_run.modifying_properties shows each property's value now and after.
resource "cloud_search_domain_config" "demo" {
  domain_name = "demo"

  cluster_config = {
    dedicated_master_enabled = false
  }
  snapshot_options = {
    automated_snapshot_start_hour = 3
  }

  # The second code is drawn only outside the domain's off-peak window
  # (make demo sets the emulator's clock inside it).
  accepted_warnings = ["ADV_NO_DEDICATED_MASTERS", "ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK"]
}

output "user_arn" {
  value = cloud_identity_user.app.arn
}

output "key_expires" {
  value = cloud_identity_service_specific_credential.app.expiration_date
}

output "domain_change" {
  value = {
    dry_run_id      = cloud_search_domain_config.demo.dry_run.id
    deployment_type = cloud_search_domain_config.demo.dry_run.deployment_type
    warnings        = [for f in cloud_search_domain_config.demo.dry_run.validation_failures : f.code]
    change_id       = cloud_search_domain_config.demo.change_id
    status          = cloud_search_domain_config.demo.config_change_status
  }
}
