package provider_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	emuidentity "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

const (
	issuer   = "https://token.actions.githubusercontent.com"
	audience = "sts.cloud.example"
	subject  = "repo:acme/infra:ref:refs/heads/main"
)

func userCreated(name string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue("cloud_identity_user.test", tfjsonpath.New("arn"), knownvalue.StringExact("arn:cloud:identity::123456789012:user/"+name)),
	}
}

// putRole makes a role whose sessions may manage identity (identity:* on
// *), as a deploy role's policies would: a role session may do only what
// its role's policies allow.
func putRole(t *testing.T, emu *acctest.Emulator, name string, trust []byte) emuidentity.Role {
	t.Helper()
	role, err := emu.Identity.PutRole(name, trust, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.Identity.AttachPrincipalPolicy(role.Arn, "manage-identity", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"identity:*","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	return role
}

// A profile of a shared credentials file, named in the provider block or by
// CLOUD_PROFILE; a profile that assumes a role through source_profile.
func TestAccProvider_sharedProfile(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	putRole(t, emu, "deploy", trustAdmin(""))
	dir := t.TempDir()
	creds := filepath.Join(dir, "credentials")
	config := filepath.Join(dir, "config")
	write(t, creds, fmt.Sprintf("[dev]\naws_access_key_id = %s\naws_secret_access_key = %s\n", emu.AccessKeyID(), emu.SecretAccessKey()))
	write(t, config, "[profile deployer]\nrole_arn = arn:cloud:identity::123456789012:role/deploy\nsource_profile = dev\n")
	files := fmt.Sprintf("shared_config_files = [%q]\n  shared_credentials_files = [%q]", config, creds)

	t.Run("profile argument", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:            providerWith(emu, `profile = "dev"`+"\n  "+files) + userResource,
			ConfigStateChecks: userCreated("provider-test"),
		})
	})
	t.Run("profile that assumes a role", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{
			Config:            providerWith(emu, `profile = "deployer"`+"\n  "+files) + userResource,
			ConfigStateChecks: userCreated("provider-test"),
			Check:             signedBy(emu, "arn:cloud:identity::123456789012:role/deploy"),
		})
	})
	t.Run("CLOUD_PROFILE and CLOUD_SHARED_CREDENTIALS_FILE", func(t *testing.T) {
		t.Setenv("CLOUD_PROFILE", "dev")
		t.Setenv("CLOUD_SHARED_CREDENTIALS_FILE", creds)
		run(t, resource.TestStep{Config: providerWith(emu, "") + userResource, ConfigStateChecks: userCreated("provider-test")})
	})
	t.Run("default profile of ~/.cloud/credentials", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		write(t, filepath.Join(home, ".cloud", "credentials"), fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n", emu.AccessKeyID(), emu.SecretAccessKey()))
		run(t, resource.TestStep{Config: providerWith(emu, "") + userResource, ConfigStateChecks: userCreated("provider-test")})
	})
	// The order of precedence: profile in the provider block before the
	// environment's keys, the environment's keys before the default profile.
	t.Run("profile argument before CLOUD_ACCESS_KEY_ID", func(t *testing.T) {
		t.Setenv("CLOUD_ACCESS_KEY_ID", "NOSUCHACCESSKEY0001")
		t.Setenv("CLOUD_SECRET_ACCESS_KEY", "wrong")
		run(t, resource.TestStep{
			Config:            providerWith(emu, `profile = "dev"`+"\n  "+files) + userResource,
			ConfigStateChecks: userCreated("provider-test"),
		})
	})
	t.Run("CLOUD_ACCESS_KEY_ID before the default profile", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		write(t, filepath.Join(home, ".cloud", "credentials"), "[default]\naws_access_key_id = NOSUCHACCESSKEY0001\naws_secret_access_key = wrong\n")
		t.Setenv("CLOUD_ACCESS_KEY_ID", emu.AccessKeyID())
		t.Setenv("CLOUD_SECRET_ACCESS_KEY", emu.SecretAccessKey())
		run(t, resource.TestStep{Config: providerWith(emu, "") + userResource, ConfigStateChecks: userCreated("provider-test")})
	})
	t.Run("wrong secret in a profile", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "credentials")
		write(t, bad, fmt.Sprintf("[dev]\naws_access_key_id = %s\naws_secret_access_key = wrong\n", emu.AccessKeyID()))
		run(t, resource.TestStep{
			Config:      providerWith(emu, fmt.Sprintf("profile = \"dev\"\n  shared_credentials_files = [%q]", bad)) + userResource,
			ExpectError: acctest.ErrorRe(`Invalid Credentials.*refused the signature of access key EMULATORACCESSKEY01 \(from profile in the provider block\)`),
		})
	})
	t.Run("missing profile", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      providerWith(emu, `profile = "nosuch"`+"\n  "+files) + userResource,
			ExpectError: acctest.ErrorRe(`Invalid Profile.*profile "nosuch" \(looked in .*config, .*credentials\) is not in any of them`),
		})
	})
}

// assume_role with and without external_id; a role whose trust policy
// needs an external id refuses a request without it or with another one.
func TestAccProvider_assumeRole(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	putRole(t, emu, "deploy", trustAdmin(""))
	putRole(t, emu, "partner", trustAdmin(`,"Condition":{"StringEquals":{"sts:ExternalId":"ext-4711"}}`))
	keys := fmt.Sprintf("access_key = %q\n  secret_key = %q\n", emu.AccessKeyID(), emu.SecretAccessKey())
	role := func(name, extra string) string {
		return providerWith(emu, keys+fmt.Sprintf("  assume_role {\n    role_arn = \"arn:cloud:identity::123456789012:role/%s\"\n    session_name = \"ci-run\"\n%s  }", name, extra)) + userResource
	}
	t.Run("without external_id", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{
			Config: role("deploy", ""), ConfigStateChecks: userCreated("provider-test"),
			Check: signedBy(emu, "arn:cloud:identity::123456789012:role/deploy"),
		})
	})
	t.Run("with external_id", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{
			Config: role("partner", "    external_id = \"ext-4711\"\n    duration = \"30m\"\n"), ConfigStateChecks: userCreated("provider-test"),
			Check: signedBy(emu, "arn:cloud:identity::123456789012:role/partner"),
		})
	})
	t.Run("external_id missing", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      role("partner", ""),
			ExpectError: acctest.ErrorRe(`Role Refused.*assume role arn:cloud:identity::123456789012:role/partner.*not authorized to perform: sts:AssumeRole`),
		})
	})
	t.Run("external_id wrong", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      role("partner", "    external_id = \"ext-0000\"\n"),
			ExpectError: acctest.ErrorRe(`Role Refused.*role/partner.*not authorized to perform: sts:AssumeRole`),
		})
	})
	t.Run("role_arn missing", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      providerWith(emu, keys+"  assume_role {\n    session_name = \"x1\"\n  }") + userResource,
			ExpectError: acctest.ErrorRe(`Attribute "assume_role.role_arn" must be specified when "assume_role" is\s+specified`),
		})
	})
	t.Run("role_arn not a role", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      providerWith(emu, keys+"  assume_role {\n    role_arn = \"arn:cloud:identity::123456789012:user/alice\"\n  }") + userResource,
			ExpectError: acctest.ErrorRe(`assume_role.role_arn must be a role ARN such as arn:cloud:identity::123456789012:role/deploy`),
		})
	})
	t.Run("duration out of range", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      role("deploy", "    duration = \"13h\"\n"),
			ExpectError: acctest.ErrorRe(`Invalid Role Session Duration.*"13h" must be between 15m and 12h`),
		})
	})
}

// Web identity: a token the test signs as the OIDC issuer, through the
// environment (what CI integrations set) and the block; expired,
// wrong-audience and wrongly signed tokens are refused with their cause.
func TestAccProvider_webIdentity(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	issuerKey := newTokenSigner(t)
	providerArn, err := emu.Identity.AddOIDCProvider(issuer, []string{audience}, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{issuerKey.jwk}})
	if err != nil {
		t.Fatal(err)
	}
	trust := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Federated":%q},"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringLike":{"token.actions.githubusercontent.com:sub":"repo:acme/infra:*"},"StringEquals":{"token.actions.githubusercontent.com:aud":%q}}}]}`, providerArn, audience)
	putRole(t, emu, "ci", []byte(trust))
	const roleArn = "arn:cloud:identity::123456789012:role/ci"
	now := emu.Clock().Now()
	tokenFile := func(t *testing.T, tok string) string {
		f := filepath.Join(t.TempDir(), "token")
		write(t, f, tok)
		return f
	}
	block := func(file string) string {
		return providerWith(emu, fmt.Sprintf("  assume_role_with_web_identity {\n    role_arn = %q\n    web_identity_token_file = %q\n  }", roleArn, file)) + userResource
	}

	t.Run("CLOUD_ROLE_ARN and CLOUD_WEB_IDENTITY_TOKEN_FILE", func(t *testing.T) {
		t.Setenv("CLOUD_ROLE_ARN", roleArn)
		t.Setenv("CLOUD_WEB_IDENTITY_TOKEN_FILE", tokenFile(t, issuerKey.token(t, audience, now.Add(time.Hour))))
		emu.ClearCalls()
		run(t, resource.TestStep{Config: providerWith(emu, "") + userResource, ConfigStateChecks: userCreated("provider-test"), Check: signedBy(emu, roleArn)})
	})
	t.Run("block with a token file", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{Config: block(tokenFile(t, issuerKey.token(t, audience, now.Add(time.Hour)))), ConfigStateChecks: userCreated("provider-test"), Check: signedBy(emu, roleArn)})
	})
	t.Run("expired token", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      block(tokenFile(t, issuerKey.token(t, audience, now.Add(-time.Minute)))),
			ExpectError: acctest.ErrorRe(`Web Identity Token Refused.*role arn:cloud:identity::123456789012:role/ci.*because it has expired.*Token expired`),
		})
	})
	t.Run("wrong audience", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      block(tokenFile(t, issuerKey.token(t, "someone-else", now.Add(time.Hour)))),
			ExpectError: acctest.ErrorRe(`Web Identity Token Refused.*Incorrect token audience: someone-else is not an audience of OpenIDConnect provider`),
		})
	})
	t.Run("signed by another key", func(t *testing.T) {
		other := newTokenSigner(t)
		run(t, resource.TestStep{
			Config:      block(tokenFile(t, other.token(t, audience, now.Add(time.Hour)))),
			ExpectError: acctest.ErrorRe(`Web Identity Token Refused.*signature does not verify with the keys of OpenIDConnect provider arn:cloud:identity::123456789012:oidc-provider/token.actions.githubusercontent.com`),
		})
	})
	t.Run("token value conflicts with token file", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      providerWith(emu, fmt.Sprintf("  assume_role_with_web_identity {\n    role_arn = %q\n    web_identity_token = \"abcd\"\n    web_identity_token_file = \"/x\"\n  }", roleArn)) + userResource,
			ExpectError: acctest.ErrorRe(`Invalid Attribute Combination`),
		})
	})
}

// A role whose policy denies CreateServiceSpecificCredential has its key
// refused at plan (the identity service's policy simulation), so nothing,
// not even the user, is created.
func TestAccProvider_roleDeniesKeys(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	role, err := emu.Identity.PutRole("no-keys", trustAdmin(""), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.Identity.AttachPrincipalPolicy(role.Arn, "deny-keys", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"identity:*","Resource":"*"},{"Sid":"NoKeys","Effect":"Deny","Action":"identity:CreateServiceSpecificCredential","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	cfg := providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }", emu.AccessKeyID(), emu.SecretAccessKey(), role.Arn)) + userResource + `
resource "cloud_identity_service_specific_credential" "test" {
  user_name           = cloud_identity_user.test.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
}
`
	run(t, resource.TestStep{
		Config: cfg,
		// Refused at plan, before the user is created, by the identity
		// service's policy simulation for the role.
		ExpectError: acctest.ErrorRe(`Unable to Create Identity Service Specific Credential.*arn:cloud:identity::123456789012:role/no-keys.*explicit deny in Deny statement "NoKeys".*at plan`),
	})
	for _, c := range emu.Calls() {
		if c.Operation == "CreateUser" {
			t.Errorf("CreateUser was sent: the plan should have refused the key before anything was created")
		}
	}
}

// A role whose policy caps the age of keys (the spec's Allow with
// NumericLessThanEquals on identity:ServiceSpecificCredentialAgeDays, so
// that a longer key is an implicit deny) has a longer key refused at plan,
// for the role (its session cannot be described by GetUser), before the
// user is created; also when the credential check is skipped, with one
// GetCallerIdentity then. A key within the cap is created.
func TestAccProvider_roleCapsKeyAge(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	role, err := emu.Identity.PutRole("capped", trustAdmin(""), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.Identity.AttachPrincipalPolicy(role.Arn, "cap", []byte(`{"Version":"2012-10-17","Statement":[
{"Sid":"ManageUsers","Effect":"Allow","Action":["identity:*User*","identity:List*","identity:SimulatePrincipalPolicy","identity:ResetServiceSpecificCredential","identity:DeleteServiceSpecificCredential","identity:UpdateServiceSpecificCredential"],"Resource":"*"},
{"Sid":"LimitKeyAgeTo90Days","Effect":"Allow","Action":"identity:CreateServiceSpecificCredential","Resource":"*","Condition":{"NumericLessThanEquals":{"identity:ServiceSpecificCredentialAgeDays":"90"}}}]}`)); err != nil {
		t.Fatal(err)
	}
	cfg := func(extra string, days int) string {
		return providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n%s  assume_role {\n    role_arn = %q\n  }", emu.AccessKeyID(), emu.SecretAccessKey(), extra, role.Arn)) + userResource + fmt.Sprintf(`
resource "cloud_identity_service_specific_credential" "test" {
  user_name           = cloud_identity_user.test.user_name
  service_name        = "models.cloud.example"
  credential_age_days = %d
}
`, days)
	}
	refused := acctest.ErrorRe(`Error: Unable to Create Identity Service Specific Credential.*arn:cloud:identity::123456789012:role/capped.*with credential_age_days = 365.*LimitKeyAgeTo90Days.*NumericLessThanEquals 90.*at plan`)
	noUser := func(t *testing.T) {
		t.Helper()
		for _, c := range emu.Calls() {
			if c.Operation == "CreateUser" || c.Operation == "CreateServiceSpecificCredential" {
				t.Errorf("%s was sent: the plan should have refused the key before anything was created", c.Operation)
			}
		}
	}
	t.Run("refused at plan", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{Config: cfg("", 365), ExpectError: refused})
		noUser(t)
	})
	t.Run("refused at plan without the credential check", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{Config: cfg("  skip_credentials_validation = true\n", 365), ExpectError: refused})
		noUser(t)
		emu.ExpectCalls(t, "GetCallerIdentity", 1, "once, for the key's plan")
	})
	t.Run("within the cap", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{
			Config: cfg("", 90),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("cloud_identity_service_specific_credential.test", tfjsonpath.New("credential_age_days"), knownvalue.Int64Exact(90)),
			},
			Check: signedBy(emu, role.Arn),
		})
	})
}

// Configure's one check says what is wrong: an unreachable token service
// (which host, which setting), expired session credentials.
func TestAccProvider_credentialCheck(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	keys := fmt.Sprintf("access_key = %q\n  secret_key = %q\n", emu.AccessKeyID(), emu.SecretAccessKey())
	t.Run("unreachable endpoints.sts", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      "provider \"cloud\" {\n  region = \"us-east-1\"\n  " + keys + "  endpoints = { sts = \"http://127.0.0.1:1\" }\n}\n" + userResource,
			ExpectError: acctest.ErrorRe(`Token Service Unreachable.*at 127.0.0.1:1 \(http://127.0.0.1:1, from endpoints.sts\).*Set endpoints.sts`),
		})
	})
	t.Run("a token service that never answers", func(t *testing.T) {
		var attempts, toldToGo atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attempts.Add(1)
			_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client go
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second): // a client without a timeout is told to go
				toldToGo.Add(1)
				w.WriteHeader(http.StatusServiceUnavailable)
			}
		}))
		t.Cleanup(srv.Close)
		run(t, resource.TestStep{
			Config: "provider \"cloud\" {\n  region = \"us-east-1\"\n  " + keys + "  http_timeout = \"300ms\"\n  max_retries = 1\n" +
				"  endpoints = { sts = \"" + srv.URL + "\" }\n}\n" + userResource,
			ExpectError: acctest.ErrorRe(`Token Service Unreachable.*from endpoints.sts.*exceeded maximum number of attempts, 2`),
		})
		// One configure (the plan fails): max_retries+1 attempts of
		// http_timeout, not the SDK's default 3 attempts without a timeout.
		if n := attempts.Load(); n != 2 {
			t.Errorf("%d attempts at the token service, want 2", n)
		}
		// Each attempt ended at http_timeout, not after the server's 5 s
		// (counted by the server, not by the run's length, which a loaded
		// machine stretches).
		if n := toldToGo.Load(); n != 0 {
			t.Errorf("%d attempts waited for the server's 5 s, want each ended by http_timeout (300ms)", n)
		}
	})
	t.Run("unreachable CLOUD_ENDPOINT_URL", func(t *testing.T) {
		t.Setenv("CLOUD_ENDPOINT_URL", "http://127.0.0.1:1")
		run(t, resource.TestStep{
			Config:      "provider \"cloud\" {\n  region = \"us-east-1\"\n  " + keys + "}\n" + userResource,
			ExpectError: acctest.ErrorRe(`Token Service Unreachable.*from CLOUD_ENDPOINT_URL`),
		})
	})
	t.Run("default endpoint", func(t *testing.T) {
		run(t, resource.TestStep{
			Config:      "provider \"cloud\" {\n  region = \"us-east-1\"\n  " + keys + "}\n" + userResource,
			ExpectError: acctest.ErrorRe(`Token Service Unreachable.*at sts.us-east-1.cloud.example .*from the default for region us-east-1`),
		})
	})
	t.Run("expired session token", func(t *testing.T) {
		emu.Credentials().Add(sigv4.Credential{
			AccessKeyID: "ASIAEXPIREDSESSION1", SecretAccessKey: "expired-secret", SessionToken: "expired-token",
			Expires: emu.Clock().Now().Add(-time.Minute), Principal: "arn:cloud:identity::123456789012:user/emulator-admin", Account: emu.Account(),
		})
		run(t, resource.TestStep{
			Config:      providerWith(emu, "access_key = \"ASIAEXPIREDSESSION1\"\n  secret_key = \"expired-secret\"\n  session_token = \"expired-token\"") + userResource,
			ExpectError: acctest.ErrorRe(`Expired Credentials.*session token of the credentials from access_key and secret_key in the provider block has expired`),
		})
	})
	t.Run("skip_credentials_validation", func(t *testing.T) {
		emu.ClearCalls()
		run(t, resource.TestStep{
			Config:            providerWith(emu, keys+"  skip_credentials_validation = true") + userResource,
			ConfigStateChecks: userCreated("provider-test"),
			Check: func(*terraform.State) error {
				if n := emu.Sent("GetCallerIdentity"); n != 0 {
					return fmt.Errorf("GetCallerIdentity called %d times with skip_credentials_validation", n)
				}
				return nil
			},
		})
	})
}

// A short-term API key signed with a role session's credentials is
// authorized at the model runtime with the role's policies: allowed with
// the limited-access policy, refused without it.
func TestAccProvider_roleSessionShortTermKey(t *testing.T) {
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	allowed, err := emu.Identity.PutRole("model-caller", trustAdmin(""), []string{"arn:cloud:identity::cloud:policy/ModelsLimitedAccess"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := emu.Identity.PutRole("no-policies", trustAdmin(""), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(roleArn string) string {
		return providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }", emu.AccessKeyID(), emu.SecretAccessKey(), roleArn)) + `
ephemeral "cloud_models_short_term_api_key" "test" {
  expires_in = "15m"
}

ephemeral "cloud_models_converse" "test" {
  model_id = "test.model-v1"
  prompt   = "hello"
  api_key  = ephemeral.cloud_models_short_term_api_key.test.token
}
`
	}
	run(t,
		resource.TestStep{Config: cfg(allowed.Arn), Check: func(*terraform.State) error {
			if emu.Answered("Converse", false) == 0 {
				return fmt.Errorf("the runtime answered no Converse call")
			}
			return nil
		}},
		resource.TestStep{
			Config:      cfg(bare.Arn),
			ExpectError: acctest.ErrorRe(`role/no-policies is not authorized to perform: models:CallWithBearerToken`),
		},
	)
}
