# Runs against the local emulator: `make test-module` starts it and points
# the provider at it with CLOUD_ENDPOINT_URL and the CLOUD_* credentials.

variables {
  name                = "tftest-app"
  path                = "/apps/"
  credential_age_days = 30
  renew_before_days   = 7
}

run "creates_user_policy_and_key" {
  command = apply

  assert {
    condition     = output.user_arn == "arn:cloud:identity::123456789012:user/apps/tftest-app"
    error_message = "The user ARN is not the one the emulator's account and the inputs make."
  }

  assert {
    condition     = cloud_identity_user_policy_attachment.this.user_name == "tftest-app" && cloud_identity_user_policy_attachment.this.policy_arn == "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
    error_message = "The default policy is not attached to the user."
  }

  assert {
    condition     = can(regex("^ACCA[A-Z2-7]{17}$", output.credential_id))
    error_message = "The credential id is not one the service gives."
  }

  assert {
    condition     = cloud_identity_service_specific_credential.this.status == "Active" && cloud_identity_service_specific_credential.this.service_name == "models.cloud.example"
    error_message = "The key is not an active key of the model runtime service."
  }

  assert {
    condition     = timecmp(output.expiration, timeadd(cloud_identity_service_specific_credential.this.create_date, "720h")) == 0
    error_message = "The key does not expire 30 days after it was created."
  }

  assert {
    condition     = output.region == "us-east-1"
    error_message = "The key is not for the provider's region."
  }

  assert {
    condition     = can(regex("^CLOUDK", output.api_key))
    error_message = "The api_key output does not hold the key's value."
  }
}

# A status change updates the key in place: the plan keeps the key's id and
# expiry known (a replacement would make them unknown until apply, and this
# assertion would fail).
run "status_change_plans_in_place" {
  command = plan

  variables {
    status = "Inactive"
  }

  assert {
    condition     = can(regex("^ACCA", output.credential_id)) && output.expiration != null
    error_message = "The plan replaces the key; a status change must update it in place."
  }
}

run "deactivates_in_place" {
  command = apply

  variables {
    status = "Inactive"
  }

  assert {
    condition     = cloud_identity_service_specific_credential.this.status == "Inactive"
    error_message = "The key is not inactive."
  }
}

run "refuses_age_over_service_limit" {
  command = plan

  variables {
    credential_age_days = 36601
  }

  expect_failures = [var.credential_age_days]
}

run "refuses_renewal_not_smaller_than_age" {
  command = plan

  variables {
    credential_age_days = 30
    renew_before_days   = 30
  }

  expect_failures = [var.renew_before_days]
}

run "refuses_bad_status_and_name" {
  command = plan

  variables {
    name   = "no spaces allowed"
    status = "Disabled"
  }

  expect_failures = [var.name, var.status]
}
