package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

func TestAccProvider_badConfiguration(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	creds := fmt.Sprintf("access_key = %q\n  secret_key = %q", emu.AccessKeyID(), emu.SecretAccessKey())
	endpoints := fmt.Sprintf("endpoints = { identity = %q }", emu.URL)
	cases := []struct {
		name   string
		config string
		env    map[string]string
		want   string
	}{
		{"missing region", creds + "\n" + endpoints, nil, `Missing Region.*Set region in the provider block or the CLOUD_REGION`},
		{"invalid region", `region = "Mars"` + "\n" + creds, nil, `Attribute region must be a region name such as us-east-1`},
		{"invalid region from env", creds, map[string]string{"CLOUD_REGION": "moon_base"}, `The region "moon_base" \(from CLOUD_REGION\) is not a region name`},
		{"missing access key", `region = "us-east-1"` + "\n" + endpoints, nil, `No Credentials Found.*CLOUD_ACCESS_KEY_ID`},
		{"missing secret key", fmt.Sprintf("region = \"us-east-1\"\n  access_key = %q", emu.AccessKeyID()), nil, `Missing Secret Key.*CLOUD_SECRET_ACCESS_KEY`},
		{"endpoint not a URL", `region = "us-east-1"` + "\n" + creds + "\n" + `endpoints = { search = "127.0.0.1:8080" }`, nil, `Invalid Endpoint.*must start with http:// or https://`},
		{"endpoint from env not a URL", `region = "us-east-1"` + "\n" + creds, map[string]string{"CLOUD_ENDPOINT_URL": "ftp://x"}, `\(from CLOUD_ENDPOINT_URL\) must start with http://`},
		{"max_retries out of range", `region = "us-east-1"` + "\n" + creds + "\n  max_retries = 99", nil, `Attribute max_retries value must be between 0 and 25`},
		{"list_concurrency zero", `region = "us-east-1"` + "\n" + creds + "\n  list_concurrency = 0", nil, `Attribute list_concurrency value must be between 1 and 100`},
		{"list_concurrency too high", `region = "us-east-1"` + "\n" + creds + "\n  list_concurrency = 500", nil, `Attribute list_concurrency value must be between 1 and 100`},
		{"http_timeout not a duration", `region = "us-east-1"` + "\n" + creds + "\n  http_timeout = \"soon\"", nil, `Invalid HTTP Timeout.*"soon" is not a duration`},
		{"http_timeout too long", `region = "us-east-1"` + "\n" + creds + "\n  http_timeout = \"2h\"", nil, `Invalid HTTP Timeout.*must be between 1ms and 1h`},
		{"apply_principal_arn not a principal", `region = "us-east-1"` + "\n" + creds + "\n  apply_principal_arn = \"arn:cloud:sts::123456789012:assumed-role/apply/ci\"", nil, `Attribute apply_principal_arn must be the ARN of an identity-service user or role`},
		{"apply principal from env not a principal", `region = "us-east-1"` + "\n" + creds + "\n  " + endpoints, map[string]string{"CLOUD_APPLY_PRINCIPAL_ARN": "terraform-apply"}, `Invalid Apply Principal.*CLOUD_APPLY_PRINCIPAL_ARN = "terraform-apply" is not the ARN`},
		{"wrong secret", fmt.Sprintf("region = \"us-east-1\"\n  access_key = %q\n  secret_key = \"wrong\"\n  %s", emu.AccessKeyID(), endpoints), nil, `SignatureDoesNotMatch.*does not match the signature you provided`},
		{"unknown access key", "region = \"us-east-1\"\n  access_key = \"NOSUCHACCESSKEY0001\"\n  secret_key = \"x\"\n  " + endpoints, nil, `InvalidClientTokenId.*security token included in the request is invalid`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { acctest.PreCheck(t) },
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      "provider \"cloud\" {\n  " + tc.config + "\n}\n" + userResource,
					ExpectError: acctest.ErrorRe(tc.want),
				}},
			})
		})
	}
}

// The environment alone configures the provider, CLOUD_ENDPOINT_URL
// aiming every service at one URL.
func TestAccProvider_environment(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	t.Setenv("CLOUD_REGION", "us-east-1")
	t.Setenv("CLOUD_ACCESS_KEY_ID", emu.AccessKeyID())
	t.Setenv("CLOUD_SECRET_ACCESS_KEY", emu.SecretAccessKey())
	t.Setenv("CLOUD_ENDPOINT_URL", emu.URL)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `provider "cloud" {}` + userResource,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("arn"), knownvalue.StringExact("arn:cloud:identity::123456789012:user/provider-test")),
			},
		}},
	})
}
