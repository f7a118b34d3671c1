package client

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestHTTPLogFromEnv(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want hclog.Level
	}{
		{"nothing set: Terraform keeps nothing", nil, hclog.Off},
		{"TF_LOG", map[string]string{"TF_LOG": "debug"}, hclog.Debug},
		{"TF_LOG=JSON is TRACE", map[string]string{"TF_LOG": "JSON"}, hclog.Trace},
		{"an unknown value is TRACE, as Terraform reads it", map[string]string{"TF_LOG": "verbose"}, hclog.Trace},
		{"TF_LOG_PROVIDER over TF_LOG", map[string]string{"TF_LOG": "TRACE", "TF_LOG_PROVIDER": "INFO"}, hclog.Info},
		{"the provider's level over Terraform's", map[string]string{"TF_LOG_PROVIDER": "TRACE", "TF_LOG_PROVIDER_CLOUD": "WARN"}, hclog.Warn},
		{"the subsystem's over all", map[string]string{"TF_LOG_PROVIDER_CLOUD": "OFF", "TF_LOG_PROVIDER_CLOUD_HTTP": "TRACE"}, hclog.Trace},
		{"quieted by internal/serve", map[string]string{"TF_LOG_PROVIDER_CLOUD": "OFF"}, hclog.Off},
		{"the acceptance test log records all", map[string]string{"TF_ACC_LOG_PATH": "/tmp/acc.log"}, hclog.Trace},
		{"Terraform's temporary log records all", map[string]string{"TF_TEMP_LOG_PATH": "/tmp/t.log", "TF_LOG_PROVIDER_CLOUD": "OFF"}, hclog.Trace},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := httpLogFromEnv(func(k string) string { return tc.env[k] }).level; got != tc.want {
				t.Errorf("level = %s, want %s", got, tc.want)
			}
		})
	}
}

// Secrets of every place a request or an answer carries them.
const (
	secretKey     = "wJalrXUtnFEMI-secret-access-key"
	sessionToken  = "FQoGZXIvYXdzEXAMPLEsessiontoken"
	apiKeyValue   = "ACCAEXAMPLEapikeyvalue0123456789"
	passwordValue = "Hunter2-master-password"
)

func loggingServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Set-Cookie", "session=abc")
		_, _ = w.Write([]byte("<CreateServiceSpecificCredentialResponse><ServiceApiKeyValue>" + apiKeyValue + "</ServiceApiKeyValue></CreateServiceSpecificCredentialResponse>"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// loggedDo sends one request with secrets through a client logging at
// level, into a provider logger that writes every level, and returns
// what was written.
func loggedDo(t *testing.T, level hclog.Level) string {
	t.Helper()
	c, err := New(Config{
		Region:      "us-east-1",
		Credentials: Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: secretKey, SessionToken: sessionToken},
	}, "identity", loggingServer(t).URL)
	if err != nil {
		t.Fatal(err)
	}
	c.log = httpLog{level: level}
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	_, err = c.Do(ctx, &Request{
		Operation: "CreateServiceSpecificCredential", Method: http.MethodPost, Path: "/",
		Body: []byte("Action=CreateServiceSpecificCredential&Password=" + passwordValue),
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestLogMasksSecrets(t *testing.T) {
	t.Parallel()
	out := loggedDo(t, hclog.Trace)
	for _, want := range []string{"Sending API request", "API request detail", "Received API response", "API response detail", `ServiceApiKeyValue\u003e***`, "Password=***"} {
		if !strings.Contains(out, want) {
			t.Errorf("the TRACE log lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{secretKey, sessionToken, apiKeyValue, passwordValue, "Signature="} {
		if strings.Contains(out, secret) {
			t.Errorf("the TRACE log holds the secret %q:\n%s", secret, out)
		}
	}
}

func TestLogLevels(t *testing.T) {
	t.Parallel()
	if out := loggedDo(t, hclog.Off); out != "" {
		t.Errorf("with the level off the client logged:\n%s", out)
	}
	out := loggedDo(t, hclog.Debug)
	if !strings.Contains(out, "Received API response") || strings.Contains(out, "detail") {
		t.Errorf("at DEBUG the log should have the request lines and not their details:\n%s", out)
	}
}

// TestLogOffBuildsNothing: with the level off, logging a request, its
// answer, a transport error and a retry allocates nothing, so no field (no
// header map, no redacted body) is built.
func TestLogOffBuildsNothing(t *testing.T) {
	l := httpLog{level: hclog.Off}
	ctx := tflogtest.RootLogger(context.Background(), &bytes.Buffer{})
	req := &Request{Operation: "GetUser", Body: []byte("Action=GetUser&Password=" + passwordValue)}
	hr := httptest.NewRequest(http.MethodPost, "https://identity.us-east-1.cloud.example/", nil)
	hr.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=x, Signature=y")
	resp := &Response{StatusCode: 200, Header: http.Header{"X-Amz-Request-Id": {"1"}}, Body: []byte("<ok/>")}
	err := errors.New("connection reset")
	allocs := testing.AllocsPerRun(100, func() {
		lctx := l.context(ctx)
		l.request(lctx, "identity", req, hr, 0)
		l.response(lctx, "identity", req, resp, time.Millisecond)
		l.transportError(lctx, "identity", req.Operation, err, time.Millisecond)
		l.retry(ctx, "identity", req.Operation, retryCause{1, time.Millisecond, resp, err})
	})
	if allocs != 0 {
		t.Errorf("logging with the level off allocated %v times per request, want 0", allocs)
	}
}

// An error answer that quotes the secrets the request carried (the API key
// in a runtime error, the master password in a validation error, the
// session token or the whole Authorization header in an identity error)
// reaches neither the log nor the decoder, so no diagnostic shows them.
func TestAnswerEchoingSecretsIsScrubbed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("<ErrorResponse><Error><Code>InvalidInput</Code><Message>bad request: Authorization " + r.Header.Get("Authorization") +
			" token " + r.Header.Get("X-Amz-Security-Token") + " password " + passwordValue + " key " + apiKeyValue + " secret " + secretKey + "</Message></Error></ErrorResponse>"))
	}))
	t.Cleanup(srv.Close)
	for _, signed := range []bool{true, false} {
		service, header := "identity", http.Header{}
		if !signed {
			service, header = "", http.Header{"Authorization": {"Bearer " + apiKeyValue}}
		}
		c, err := New(Config{
			Region:      "us-east-1",
			Credentials: Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: secretKey, SessionToken: sessionToken},
		}, service, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		c.log = httpLog{level: hclog.Trace}
		var logged bytes.Buffer
		resp, err := c.Do(tflogtest.RootLogger(context.Background(), &logged), &Request{
			Operation: "Op", Method: http.MethodPost, Path: "/", Header: header,
			Body: []byte("{}"), Secrets: []string{passwordValue, apiKeyValue},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{secretKey, sessionToken, apiKeyValue, passwordValue, "Signature=", "Credential=AKID"} {
			if strings.Contains(string(resp.Body), secret) {
				t.Errorf("signed %v: the answer handed to the decoder holds %q: %s", signed, secret, resp.Body)
			}
			if strings.Contains(logged.String(), secret) {
				t.Errorf("signed %v: the log holds %q", signed, secret)
			}
		}
		if !strings.Contains(string(resp.Body), "password *** key ***") {
			t.Errorf("signed %v: the answer lost its shape: %s", signed, resp.Body)
		}
	}
}
