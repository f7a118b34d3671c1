# Credentials and region usually come from the environment:
# CLOUD_REGION, CLOUD_ACCESS_KEY_ID, CLOUD_SECRET_ACCESS_KEY and, for
# temporary credentials, CLOUD_SESSION_TOKEN; or CLOUD_PROFILE for a profile
# of ~/.cloud/credentials; or, in CI, CLOUD_ROLE_ARN with
# CLOUD_WEB_IDENTITY_TOKEN_FILE.
provider "cloud" {
  region = "us-east-1"
}

# terraform query reads what each user holds (and each search domain's
# configuration) this many calls at once: more for a large account on a
# distant region; 10 unless set.
provider "cloud" {
  alias            = "adopt"
  region           = "us-east-1"
  list_concurrency = 20
}

# A profile of the shared files, then a role assumed with its credentials.
provider "cloud" {
  alias   = "deploy"
  region  = "us-east-1"
  profile = "platform"

  assume_role {
    role_arn     = "arn:cloud:identity::123456789012:role/deploy"
    session_name = "terraform"
    external_id  = "platform-team"
  }
}

# An OIDC token exchanged for a role's temporary credentials.
provider "cloud" {
  alias  = "ci"
  region = "us-east-1"

  assume_role_with_web_identity {
    role_arn                = "arn:cloud:identity::123456789012:role/ci"
    web_identity_token_file = "/var/run/secrets/oidc/token"
  }
}

# Aimed at the local emulator (`make emulator`): one URL serves every service.
provider "cloud" {
  alias      = "local"
  region     = "us-east-1"
  access_key = "EMULATORACCESSKEY01"
  secret_key = "emulator-secret-access-key-0123456789"
  endpoints = {
    identity = "http://127.0.0.1:8080"
    search   = "http://127.0.0.1:8080"
    models   = "http://127.0.0.1:8080"
    sts      = "http://127.0.0.1:8080"
  }
}
