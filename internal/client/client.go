package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Credentials sign requests. SessionToken is optional; Expires is zero for
// long-lived credentials.
type Credentials struct {
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
	Expires         time.Time
}

func (c Credentials) aws() aws.Credentials {
	return aws.Credentials{
		AccessKeyID:     c.AccessKeyID,
		SecretAccessKey: c.SecretAccessKey,
		SessionToken:    c.SessionToken,
		CanExpire:       !c.Expires.IsZero(),
		Expires:         c.Expires,
	}
}

// Config is what every service client is built from.
type Config struct {
	Region      string
	Credentials Credentials
	// CredentialsProvider, when set, supplies the signing credentials in
	// place of Credentials: role sessions, renewed before they expire.
	CredentialsProvider aws.CredentialsProvider
	// MaxRetries is the number of retries after the first attempt.
	MaxRetries int
	// RetryBaseDelay and RetryMaxDelay bound the jittered exponential backoff.
	RetryBaseDelay time.Duration
	RetryMaxDelay  time.Duration
	// AttemptTimeout bounds one attempt (connect, send, answer).
	AttemptTimeout time.Duration
	UserAgent      string
	HTTPClient     *http.Client
}

// RetrieveCredentials returns the credentials to sign with now.
func (cfg Config) RetrieveCredentials(ctx context.Context) (Credentials, error) {
	if cfg.CredentialsProvider == nil {
		return cfg.Credentials, nil
	}
	c, err := cfg.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return Credentials{}, err
	}
	out := Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken}
	if c.CanExpire {
		out.Expires = c.Expires
	}
	return out, nil
}

// Defaults used when a Config field is zero.
const (
	DefaultMaxRetries     = 3
	DefaultRetryBaseDelay = 100 * time.Millisecond
	DefaultRetryMaxDelay  = 5 * time.Second
	DefaultAttemptTimeout = 30 * time.Second
)

// Client sends requests to one service endpoint.
type Client struct {
	cfg        Config
	service    string // signing name, also used in logs
	endpoint   *url.URL
	signer     *v4.Signer
	httpClient *http.Client
	log        httpLog
}

// WithDefaults is cfg as a client uses it: a negative MaxRetries is 0, and
// each unset delay and timeout is its default.
func (cfg Config) WithDefaults() Config {
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RetryBaseDelay == 0 {
		cfg.RetryBaseDelay = DefaultRetryBaseDelay
	}
	if cfg.RetryMaxDelay == 0 {
		cfg.RetryMaxDelay = DefaultRetryMaxDelay
	}
	if cfg.AttemptTimeout == 0 {
		cfg.AttemptTimeout = DefaultAttemptTimeout
	}
	return cfg
}

// MaxBackoff is the longest wait before retry attempt+1 (attempt counts
// from 0): the exponential backoff's cap, before jitter.
func (cfg Config) MaxBackoff(attempt int) time.Duration {
	d := cfg.RetryBaseDelay << attempt
	if d <= 0 || d > cfg.RetryMaxDelay {
		d = cfg.RetryMaxDelay
	}
	return d
}

// New returns a client for one service. service is the SigV4 signing name;
// an empty one sends unsigned requests.
func New(cfg Config, service, endpoint string) (*Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q is not an http(s) URL", endpoint)
	}
	cfg = cfg.WithDefaults()
	hc := cfg.HTTPClient
	if hc == nil {
		hc = sharedHTTPClient()
	}
	return &Client{
		cfg:        cfg,
		service:    service,
		endpoint:   u,
		signer:     v4.NewSigner(),
		httpClient: hc,
		log:        defaultHTTPLog(),
	}, nil
}

// MaxIdleConnsPerHost is how many idle connections to one endpoint the
// shared transport keeps. Terraform runs up to -parallelism operations at
// once (10 by default, 50 is common); with Go's default of 2, all but two
// connections of every burst are closed and dialled again.
const MaxIdleConnsPerHost = 64

// sharedHTTPClient is the one connection pool of every client made without
// Config.HTTPClient: the identity, search and runtime clients and every
// runtime client a data source makes.
var sharedHTTPClient = sync.OnceValue(func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone() //nolint:forcetypeassert // the standard library's default is an *http.Transport
	t.MaxIdleConns = 0                                   // no limit across hosts; the per-host one below applies
	t.MaxIdleConnsPerHost = MaxIdleConnsPerHost
	return &http.Client{Transport: t}
})

// Region is the region requests are signed for.
func (c *Client) Region() string { return c.cfg.Region }

// Endpoint is the service's base URL.
func (c *Client) Endpoint() *url.URL { u := *c.endpoint; return &u }

// Request is one API call.
type Request struct {
	Operation string
	Method    string
	// Path is joined to the endpoint's path; it must be escaped already.
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// Idempotent requests may be repeated when the outcome of an attempt is
	// unknown (connection dropped, timeout). Others are repeated only when
	// the service answered with a retryable error or the request was never
	// sent.
	Idempotent bool
	// Sensitive marks a request or response whose body may carry a secret
	// not covered by the masking patterns; its body is never logged.
	Sensitive bool
	// Secrets are secret values the request carries (a password, a key).
	// The answer, a success too, is scrubbed of them, and of the signing
	// credentials and the Authorization header, before it is logged or
	// decoded, so an answer that echoes one, or 12 characters of one,
	// shows *** instead.
	Secrets []string
}

type secretsKey struct{}

// WithSecrets returns ctx carrying secrets that every answer to a request
// made with it is scrubbed of, a success too, as a request's Secrets are:
// a service may quote a password a configuration sets in an answer to a
// call that does not carry it (a dry run's validation failure or a change
// stage's description, read back later).
func WithSecrets(ctx context.Context, secrets ...string) context.Context {
	var kept []string
	for _, s := range secrets {
		if len(s) >= minSecretLen {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return ctx
	}
	return context.WithValue(ctx, secretsKey{}, append(contextSecrets(ctx), kept...))
}

func contextSecrets(ctx context.Context) []string {
	s, _ := ctx.Value(secretsKey{}).([]string)
	return s
}

// Response is a complete answer; the body is read and closed.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// Do sends req, retrying as described on Request. An error answer is
// returned as a Response, not an error: the service client decodes it.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	var lastErr error
	for attempt := 0; ; attempt++ {
		resp, sent, err := c.attempt(ctx, req, attempt)
		if err == nil && !retryableStatus(resp) {
			return resp, nil
		}
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if sent && !req.Idempotent {
				return nil, &OutcomeUnknownError{Service: c.service, Operation: req.Operation, Err: err}
			}
		}
		if attempt >= c.cfg.MaxRetries {
			if err != nil {
				return nil, fmt.Errorf("%s %s: giving up after %d attempts: %w", c.service, req.Operation, attempt+1, lastErr)
			}
			return resp, nil
		}
		delay := c.backoff(attempt)
		c.log.retry(ctx, c.service, req.Operation, retryCause{attempt + 1, delay, resp, err})
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
	}
}

// attempt sends one signed request. sent reports whether the request may
// have reached the service.
func (c *Client) attempt(ctx context.Context, req *Request, n int) (*Response, bool, error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.AttemptTimeout)
	defer cancel()
	hr, err := c.httpRequest(actx, req)
	if err != nil {
		return nil, false, err
	}
	creds, err := c.sign(actx, req, hr)
	if err != nil {
		return nil, false, err
	}
	return c.send(ctx, req, hr, n, creds)
}

// httpRequest is req as an HTTP request to the client's endpoint, with the
// user agent.
func (c *Client) httpRequest(ctx context.Context, req *Request) (*http.Request, error) {
	u := c.Endpoint()
	u.Path = strings.TrimSuffix(u.Path, "/") + req.Path
	if u.RawPath != "" || strings.Contains(req.Path, "%") {
		u.RawPath = strings.TrimSuffix(c.endpoint.EscapedPath(), "/") + req.Path
		if p, err := url.PathUnescape(u.RawPath); err == nil {
			u.Path = p
		}
	}
	if len(req.Query) > 0 {
		u.RawQuery = req.Query.Encode()
	}
	// The URL is built already: handing it over, rather than its string
	// for NewRequest to parse back, saves a parse on every attempt.
	hr, err := http.NewRequestWithContext(ctx, req.Method, "", bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	hr.URL, hr.Host = u, u.Host
	for k, vs := range req.Header {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	if c.cfg.UserAgent != "" {
		hr.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	return hr, nil
}

// sign signs hr with SigV4 for the client's service, with the credentials
// of the moment, and returns them: an answer is scrubbed of those, which
// a renewed role session changes. A client with no service sends unsigned
// requests; it returns the configured credentials, which an answer may
// still quote.
func (c *Client) sign(ctx context.Context, req *Request, hr *http.Request) (Credentials, error) {
	if c.service == "" {
		return c.cfg.Credentials, nil
	}
	sum := sha256.Sum256(req.Body)
	hash := hex.EncodeToString(sum[:])
	hr.Header.Set("X-Amz-Content-Sha256", hash)
	creds, err := c.cfg.RetrieveCredentials(ctx)
	if err != nil {
		return Credentials{}, fmt.Errorf("getting credentials for %s: %w", req.Operation, err)
	}
	if err := c.signer.SignHTTP(ctx, creds.aws(), hr, hash, c.service, c.cfg.Region, time.Now().UTC()); err != nil {
		return Credentials{}, fmt.Errorf("signing %s request: %w", req.Operation, err)
	}
	return creds, nil
}

// send sends hr (attempt n of req, signed with creds) and reads the whole
// answer, logging both. An error answer is scrubbed of what the request
// carried.
func (c *Client) send(ctx context.Context, req *Request, hr *http.Request, n int, creds Credentials) (*Response, bool, error) {
	lctx := c.log.context(ctx)
	start := time.Now()
	c.log.request(lctx, c.service, req, hr, n)
	hresp, err := c.httpClient.Do(hr)
	if err != nil {
		c.log.transportError(lctx, c.service, req.Operation, err, time.Since(start))
		return nil, !notSent(err), err
	}
	defer hresp.Body.Close()
	body, err := readBody(hresp)
	if err != nil {
		c.log.transportError(lctx, c.service, req.Operation, err, time.Since(start))
		return nil, true, fmt.Errorf("reading answer: %w", err)
	}
	if hresp.StatusCode >= 300 || carriesSecrets(ctx, req, hr) {
		// An answer may quote what the request carried, whole or in part,
		// in its body or its headers (a request id): an error, or a success
		// that reports on the request (a dry run's validation failures).
		// Other successes carry secrets of their own (a new key's value)
		// and are left as they are.
		body = newEchoScrubber(secretsOf(ctx, req, hr, creds)).scrubAnswer(body, hresp.Header)
	}
	resp := &Response{StatusCode: hresp.StatusCode, Header: hresp.Header, Body: body}
	c.log.response(lctx, c.service, req, resp, time.Since(start))
	return resp, true, nil
}

// readBody reads an answer whole, into one buffer of the size its
// Content-Length gives when it gives one, instead of growing one from 512
// bytes as io.ReadAll does.
func readBody(r *http.Response) ([]byte, error) {
	const maxPresized = 1 << 20 // a larger length is not trusted with memory before it arrives
	if r.ContentLength <= 0 || r.ContentLength > maxPresized {
		return io.ReadAll(r.Body)
	}
	// One byte more than the length: the read that finds the end fits.
	b := make([]byte, r.ContentLength+1)
	n, err := io.ReadFull(r.Body, b)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) && int64(n) == r.ContentLength: // the end, where the length said
		return b[:n], nil
	case err == nil: // longer than its length said
		rest, err := io.ReadAll(r.Body)
		return append(b, rest...), err
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("the answer ended after %d of the %d bytes its length gives: %w", n, r.ContentLength, io.ErrUnexpectedEOF)
	}
	return nil, err
}

// backoff is full-jitter exponential backoff.
func (c *Client) backoff(attempt int) time.Duration { return c.cfg.Backoff(attempt) }

// Backoff is the jittered wait before retry attempt+1 (attempt counts from
// 0), between half of MaxBackoff(attempt) and all of it.
func (cfg Config) Backoff(attempt int) time.Duration {
	d := cfg.MaxBackoff(attempt)
	return d/2 + rand.N(d/2+1) //nolint:gosec // jitter needs no cryptographic randomness
}

// retryableStatus: throttling and server-side failures, which the services
// answer before applying anything.
func retryableStatus(r *Response) bool {
	if r == nil {
		return false
	}
	switch {
	case r.StatusCode == http.StatusTooManyRequests:
		return true
	case r.StatusCode >= 500 && r.StatusCode != http.StatusNotImplemented:
		return true
	case r.StatusCode == http.StatusBadRequest:
		return bytes.Contains(r.Body, []byte("<Code>Throttling</Code>")) ||
			bytes.Contains(r.Body, []byte(`"ThrottlingException"`))
	}
	return false
}

// notSent reports errors that happen before any byte reaches the service.
func notSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) || errors.Is(err, syscall.ECONNREFUSED)
}
