package client

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client/ststest"
)

// stsClient is an SDK token-service client made as the provider makes it.
func stsClient(cfg Config, url string, creds aws.CredentialsProvider, level hclog.Level) *sts.Client {
	hc := cfg.SDKHTTPClient("sts")
	hc.Transport.(*loggingTransport).log = httpLog{level: level} //nolint:forcetypeassert // made just above
	return sts.New(sts.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), Credentials: creds,
		HTTPClient: hc, Retryer: cfg.SDKRetryer(),
	})
}

// A token service that never answers: the call gives up after
// MaxRetries+1 attempts of AttemptTimeout each, and the backoff between.
func TestSDKClientGivesUpWithinAttemptsTimesTimeout(t *testing.T) {
	t.Parallel()
	srv, attempts := ststest.Silent(t)
	cfg := Config{MaxRetries: 2, AttemptTimeout: 200 * time.Millisecond}
	c := stsClient(cfg, srv.URL, credentials.NewStaticCredentialsProvider("AKIDTESTTESTTEST01", secretKey, ""), hclog.Off)

	// The deadline only keeps a broken build from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	took := time.Since(start)
	if err == nil {
		t.Fatal("GetCallerIdentity succeeded against a server that never answers")
	}
	if n := attempts.Load(); n != 3 {
		t.Errorf("%d attempts, want max_retries+1 = 3 (%v)", n, err)
	}
	// 3 x 200ms, plus at most 100ms and 200ms of backoff, plus slack for a
	// busy machine (without the timeout the call would never end).
	if bound := 3*cfg.AttemptTimeout + 300*time.Millisecond + 3*time.Second; took > bound {
		t.Errorf("gave up after %s, want within %s (%v)", took, bound, err)
	}
}

func TestSDKClientRetriesAsConfigured(t *testing.T) {
	t.Parallel()
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		attempts.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	for _, retries := range []int{0, 1, 4} {
		attempts.Store(0)
		cfg := Config{MaxRetries: retries, RetryBaseDelay: time.Millisecond, RetryMaxDelay: time.Millisecond}
		c := stsClient(cfg, srv.URL, credentials.NewStaticCredentialsProvider("AKIDTESTTESTTEST01", secretKey, ""), hclog.Off)
		if _, err := c.GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{}); err == nil {
			t.Fatal("GetCallerIdentity succeeded against a 503")
		}
		if n := attempts.Load(); int(n) != retries+1 {
			t.Errorf("max_retries %d: %d attempts, want %d", retries, n, retries+1)
		}
	}
}

// The token service's requests and answers are logged like every other
// client's, and none of the secrets they carry reaches the log.
func TestSDKClientLogsWithoutSecrets(t *testing.T) {
	t.Parallel()
	srv := ststest.RoleSessions(t)
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	c := stsClient(Config{}, srv.URL, nil, hclog.Trace)
	_, err := c.AssumeRoleWithWebIdentity(ctx, &sts.AssumeRoleWithWebIdentityInput{
		RoleArn: aws.String("arn:cloud:identity::123456789012:role/deploy"), RoleSessionName: aws.String("ci"), WebIdentityToken: aws.String(ststest.JWT),
	})
	if err != nil {
		t.Fatal(err)
	}
	signed := stsClient(Config{}, srv.URL, credentials.NewStaticCredentialsProvider("ASIAROLESESSION0001", ststest.RoleSecret, ststest.RoleSession), hclog.Trace)
	if _, err := signed.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}); err != nil {
		t.Fatal(err)
	}
	log := out.String()
	for _, want := range []string{
		`"operation":"AssumeRoleWithWebIdentity"`, `"operation":"GetCallerIdentity"`, `"service":"sts"`, `"attempt":1`,
		"Sending API request", "API request detail", "Received API response", "API response detail",
		"WebIdentityToken=***", `SecretAccessKey\u003e***`, `SessionToken\u003e***`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the TRACE log lacks %s:\n%s", want, log)
		}
	}
	for _, secret := range []string{ststest.JWT, ststest.JWTSignature, ststest.RoleSecret, ststest.RoleSession, "Signature="} {
		if strings.Contains(log, secret) {
			t.Errorf("the TRACE log holds the secret %q:\n%s", secret, log)
		}
	}
}

func TestSDKAttempt(t *testing.T) {
	t.Parallel()
	for h, want := range map[string]int{"": 1, "attempt=1; max=4": 1, "attempt=3; max=4": 3, "max=4; attempt=2": 2, "attempt=x": 1} {
		if got := sdkAttempt(http.Header{"Amz-Sdk-Request": {h}}); got != want {
			t.Errorf("sdkAttempt(%q) = %d, want %d", h, got, want)
		}
	}
}
