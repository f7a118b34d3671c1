package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/ststest"
)

// Unit tests of the credential check as Configure runs it: credentials()
// then its check(), with the token-service client it builds.

const (
	testRoleARN   = "arn:cloud:identity::123456789012:role/deploy"
	testKeySecret = "static-secret-access-key-0123456789"
)

func clearCredentialEnv(t *testing.T) {
	for _, v := range []string{EnvAccessKeyID, EnvSecretKey, EnvSessionToken, EnvEndpointURL, EnvProfile, EnvConfigFile, EnvCredsFile, EnvRoleARN, EnvTokenFile, EnvTFCToken} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", t.TempDir())
}

// check runs the credential check of cfg against the token service at url.
func check(ctx context.Context, t *testing.T, cfg providerModel, ccfg client.Config, url string) diag.Diagnostics {
	t.Helper()
	var diags diag.Diagnostics
	p := &cloudProvider{}
	creds := p.credentials(ctx, &cfg, ccfg, url, &diags)
	if diags.HasError() {
		t.Fatalf("credentials: %v", diags)
	}
	creds.check(ctx, false, url, "endpoints.sts", &diags)
	return diags
}

func staticKeys() providerModel {
	return providerModel{AccessKey: types.StringValue("AKIDTESTTESTTEST01"), SecretKey: types.StringValue(testKeySecret)}
}

// A token service that accepts connections and never answers: the check
// gives up after max_retries+1 attempts of http_timeout each (and the
// backoff between), and says the token service is unreachable.
func TestCredentialCheckGivesUpWithinHTTPTimeoutTimesAttempts(t *testing.T) {
	clearCredentialEnv(t)
	srv, attempts := ststest.Silent(t)
	ccfg := client.Config{Region: "us-east-1", MaxRetries: 1, AttemptTimeout: 300 * time.Millisecond}

	// The deadline only keeps a broken build from hanging the test: a
	// second attempt is made only once the first gave up at http_timeout,
	// and the check must end on its own, before the deadline, however
	// slow the machine (no bound on the run's length races it).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	diags := check(ctx, t, staticKeys(), ccfg, srv.URL)
	if ctx.Err() != nil {
		t.Fatalf("the check ran until the test's deadline instead of giving up: %v", diags)
	}
	if !diags.HasError() || diags[0].Summary() != "Token Service Unreachable" {
		t.Fatalf("diagnostics = %v, want Token Service Unreachable", diags)
	}
	if n := attempts.Load(); n != 2 {
		t.Errorf("%d attempts, want max_retries+1 = 2", n)
	}
}

// The token service's requests and answers go through the provider's
// logging (TF_LOG_PROVIDER_CLOUD_HTTP), with the web identity token, the
// role session's secret key and session token, and the signature masked.
func TestCredentialCheckLogsWithoutSecrets(t *testing.T) {
	clearCredentialEnv(t)
	t.Setenv("TF_LOG_PROVIDER_CLOUD_HTTP", "TRACE")
	srv := ststest.RoleSessions(t)
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	cfg := providerModel{WebIdentity: &webIdentityModel{RoleARN: types.StringValue(testRoleARN), Token: types.StringValue(ststest.JWT)}}
	if diags := check(ctx, t, cfg, client.Config{Region: "us-east-1"}, srv.URL); diags.HasError() {
		t.Fatalf("check: %v", diags)
	}
	log := out.String()
	for _, want := range []string{
		`"operation":"AssumeRoleWithWebIdentity"`, `"operation":"GetCallerIdentity"`, `"service":"sts"`,
		"Sending API request", "API response detail", "WebIdentityToken=***", `"Authorization":"***"`, `SessionToken\u003e***`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the TRACE log lacks %s:\n%s", want, log)
		}
	}
	for _, secret := range []string{ststest.JWTSignature, ststest.RoleSecret, ststest.RoleSession, "Signature="} {
		if strings.Contains(log, secret) {
			t.Errorf("the TRACE log holds the secret %q:\n%s", secret, log)
		}
	}
}

// A token given where its file was expected: the SDK's error quotes it as
// a file name, and the diagnostic must not.
func TestCredentialCheckDiagnosticHidesToken(t *testing.T) {
	clearCredentialEnv(t)
	srv := ststest.RoleSessions(t)
	cfg := providerModel{WebIdentity: &webIdentityModel{RoleARN: types.StringValue(testRoleARN), TokenFile: types.StringValue(ststest.JWT)}}
	diags := check(context.Background(), t, cfg, client.Config{Region: "us-east-1"}, srv.URL)
	if !diags.HasError() {
		t.Fatal("the check passed with a token file that does not exist")
	}
	detail := diags[0].Detail()
	if strings.Contains(detail, ststest.JWTSignature) {
		t.Errorf("the diagnostic shows the token:\n%s", detail)
	}
	if !strings.Contains(detail, "unable to read file at ***") {
		t.Errorf("the diagnostic does not say which file could not be read:\n%s", detail)
	}
}

// session_expiration belongs to a session token given with static keys:
// with a profile or a web identity it would be ignored, so it is refused on
// the argument, whether set in the block or in the environment.
func TestSessionExpirationOnlyWithStaticKeys(t *testing.T) {
	clearCredentialEnv(t)
	t.Setenv(EnvSessionExpiration, "")
	exp := types.StringValue("2030-01-01T00:00:00Z")
	for name, cfg := range map[string]providerModel{
		"profile":      {Profile: types.StringValue("ci"), SessionExp: exp},
		"web identity": {WebIdentity: &webIdentityModel{RoleARN: types.StringValue(testRoleARN), Token: types.StringValue(ststest.JWT)}, SessionExp: exp},
	} {
		var diags diag.Diagnostics
		(&cloudProvider{}).credentials(context.Background(), &cfg, client.Config{Region: "us-east-1"}, "http://127.0.0.1:1", &diags)
		if len(diags) != 1 || diags[0].Summary() != "Session Expiration Without Static Keys" || !strings.Contains(diags[0].Detail(), "Remove session_expiration") {
			t.Errorf("%s with session_expiration: %v; want Session Expiration Without Static Keys", name, diags)
		} else if d, ok := diags[0].(diag.DiagnosticWithPath); !ok || d.Path().String() != "session_expiration" {
			t.Errorf("%s: the error is not on session_expiration: %v", name, diags[0])
		}
	}
	t.Setenv(EnvSessionExpiration, "2030-01-01T00:00:00Z")
	cfg := providerModel{Profile: types.StringValue("ci")}
	var diags diag.Diagnostics
	(&cloudProvider{}).credentials(context.Background(), &cfg, client.Config{Region: "us-east-1"}, "http://127.0.0.1:1", &diags)
	if !diags.HasError() || !strings.Contains(diags[0].Detail(), "from "+EnvSessionExpiration) {
		t.Errorf("profile with %s: %v; want it refused", EnvSessionExpiration, diags)
	}
	// With static keys and a session token it is taken.
	t.Setenv(EnvSessionExpiration, "")
	cfg = staticKeys()
	cfg.SessionToken, cfg.SessionExp = types.StringValue("t"), exp
	diags = nil
	creds := (&cloudProvider{}).credentials(context.Background(), &cfg, client.Config{Region: "us-east-1"}, "http://127.0.0.1:1", &diags)
	if diags.HasError() || creds.settings.Static == nil || creds.settings.Static.Expires.Format(time.RFC3339) != "2030-01-01T00:00:00Z" {
		t.Errorf("static keys with session_expiration: %v, %+v", diags, creds.settings.Static)
	}
}
