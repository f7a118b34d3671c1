# Credentials and region usually come from the environment:
# CLOUD_REGION, CLOUD_ACCESS_KEY_ID, CLOUD_SECRET_ACCESS_KEY and, for
# temporary credentials, CLOUD_SESSION_TOKEN.
provider "cloud" {
  region = "us-east-1"
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
  }
}
