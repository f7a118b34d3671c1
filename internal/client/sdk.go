package client

import (
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// The SDK's clients (the token service's, through stscreds) send their
// requests themselves. These give them what Do gives ours: the shared
// connection pool, the logging and its masks, cfg's attempt timeout, and
// cfg's retries with the same backoff.

// SDKHTTPClient is the HTTP client of an SDK client of service: each
// attempt goes through the logging transport and ends after
// cfg.AttemptTimeout (answer included).
func (cfg Config) SDKHTTPClient(service string) *http.Client {
	cfg = cfg.WithDefaults()
	base := sharedHTTPClient().Transport
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		base = cfg.HTTPClient.Transport
	}
	return &http.Client{
		Transport: &loggingTransport{base: base, service: service, log: defaultHTTPLog()},
		Timeout:   cfg.AttemptTimeout,
	}
}

// SigningWith returns hc, made by SDKHTTPClient, for an SDK client that
// signs with creds: its error answers are scrubbed of their secret access
// key and session token too, which a service may quote though the request
// carries only a signature made with them.
func SigningWith(hc *http.Client, creds aws.CredentialsProvider) *http.Client {
	t, ok := hc.Transport.(*loggingTransport)
	if !ok || creds == nil {
		return hc
	}
	signed := *t
	signed.signing = creds
	out := *hc
	out.Transport = &signed
	return &out
}

// SDKRetryer makes at most cfg.MaxRetries+1 attempts, waiting as Do does
// between them. The SDK's client-side retry quota is off: the count of
// attempts is the user's max_retries, whatever failed before.
func (cfg Config) SDKRetryer() aws.Retryer {
	cfg = cfg.WithDefaults()
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = cfg.MaxRetries + 1
		o.RateLimiter = ratelimit.None
		// The SDK numbers the first retry 1; MaxBackoff numbers it 0.
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, _ error) (time.Duration, error) {
			return cfg.Backoff(max(attempt-1, 0)), nil
		})
	})
}
