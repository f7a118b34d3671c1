package models_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/runtime"
)

// Without api_key the converse data source sends the key of the spec's
// CLOUD_BEARER_TOKEN_MODELS. Not parallel: it sets a process variable.
func TestAccConverse_bearerTokenFromEnvironment(t *testing.T) {
	emu := acctest.NewEmulator(t)
	tok, err := modelsclient.GenerateToken(context.Background(), modelsclient.TokenRequest{
		Host: strings.TrimPrefix(emu.URL, "http://"), Region: emu.Region(), ExpiresIn: time.Hour,
		Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(modelsclient.EnvBearerToken, tok.Value)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: emu.ProviderConfig() + `
data "cloud_models_converse" "env" {
  model_id = "test.model-v1"
  prompt   = "hello from the environment"
}
`,
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttrSet("data.cloud_models_converse.env", "text"),
				func(*terraform.State) error {
					if !emu.Runtime.SawTokenHash(runtime.TokenHash(tok.Value)) {
						return fmt.Errorf("the runtime never saw the key of %s", modelsclient.EnvBearerToken)
					}
					return lastUse(emu, runtime.ShortTerm, 200)(nil)
				},
			),
		}},
	})
}
