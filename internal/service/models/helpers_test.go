package models_test

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

const (
	limitedAccess = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
	emulatorAdmin = "arn:cloud:identity::123456789012:user/emulator-admin"
	regionMessage = "Credential should be scoped to a valid region"
)

// denyDoc denies both CallWithBearerToken actions for one token type (and
// allows identity:*, since a principal with policies needs an Allow to
// create keys).
func denyDoc(tokenType string) []byte {
	return []byte(fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"identity:*","Resource":"*"},{"Effect":"Deny","Action":["models:CallWithBearerToken","models-alt:CallWithBearerToken"],"Resource":"*","Condition":{"StringEquals":{"models:bearerTokenType":%q}}}]}`, tokenType))
}

// keyConfig is a user with policies attached and one long-term key whose
// block gets keyExtra; extra is appended.
func keyConfig(providerConfig, user, keyExtra, extra string, policies ...string) string {
	s := providerConfig + fmt.Sprintf(`
resource "cloud_identity_user" "test" {
  user_name = %q
}
`, user)
	for i, p := range policies {
		s += fmt.Sprintf(`
resource "cloud_identity_user_policy_attachment" "p%d" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = %q
}
`, i, p)
	}
	return s + fmt.Sprintf(`
resource "cloud_identity_service_specific_credential" "test" {
  user_name           = cloud_identity_user.test.user_name
  credential_age_days = 30
  %s
}
%s`, keyExtra, extra)
}

// converseData is a cloud_models_converse data source using apiKey, read
// after the policy attachment; extra goes into its block.
func converseData(name, apiKey, extra string) string {
	return converseDataAfter(name, apiKey, extra, "cloud_identity_user_policy_attachment.p0")
}

// converseDataAfter is converseData read after deps.
func converseDataAfter(name, apiKey, extra, deps string) string {
	return fmt.Sprintf(`
data "cloud_models_converse" %q {
  model_id = "test.model-v1"
  prompt   = "hello from %s"
  api_key  = %s
  %s
  depends_on = [%s]
}
`, name, name, apiKey, extra, deps)
}

// shortTerm is a short-term key and an ephemeral converse call with it.
const shortTerm = `
ephemeral "cloud_models_short_term_api_key" "test" {
  expires_in = "1h"
}

ephemeral "cloud_models_converse" "short" {
  model_id = "test.model-v1"
  prompt   = "hello short"
  api_key  = ephemeral.cloud_models_short_term_api_key.test.token
}
`

// lastUse checks the emulator's last runtime call.
func lastUse(emu *acctest.Emulator, tokenType string, status int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		uses := emu.Runtime.Uses()
		for i := len(uses) - 1; i >= 0; i-- {
			if uses[i].TokenType == tokenType {
				if uses[i].Status != status {
					return fmt.Errorf("last %s call: %+v, want status %d", tokenType, uses[i], status)
				}
				return nil
			}
		}
		return fmt.Errorf("no %s call reached the runtime", tokenType)
	}
}

const keyValue = "cloud_identity_service_specific_credential.test.service_api_key_value"
