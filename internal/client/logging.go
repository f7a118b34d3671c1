package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// LogSubsystem is the tflog subsystem of all API traffic. Its level follows
// TF_LOG_PROVIDER_CLOUD_HTTP, else the provider's (TF_LOG_PROVIDER_CLOUD).
const LogSubsystem = "http"

// logLevelVars decide, first set first, the most verbose level of the http
// subsystem that anyone can see: the subsystem's own variable and the
// provider logger's, as tflog and terraform-plugin-go read them, then the
// level at which Terraform keeps a provider's lines (TF_LOG_PROVIDER, else
// TF_LOG; the test sink of terraform-plugin-testing reads TF_LOG too).
// With none set Terraform keeps nothing.
var logLevelVars = []string{"TF_LOG_PROVIDER_CLOUD_HTTP", "TF_LOG_PROVIDER_CLOUD", "TF_LOG_PROVIDER", "TF_LOG"}

// httpLog logs API traffic at the level decided once, from the environment,
// when the client is made: fields below it are never built, so a request
// costs nothing in logging when no one will read the logs.
type httpLog struct {
	level hclog.Level
}

func httpLogFromEnv(getenv func(string) string) httpLog {
	// Both record everything, whatever the levels say.
	if getenv("TF_ACC_LOG_PATH") != "" || getenv("TF_TEMP_LOG_PATH") != "" {
		return httpLog{level: hclog.Trace}
	}
	for _, name := range logLevelVars {
		v := getenv(name)
		if v == "" {
			continue
		}
		// JSON and unknown values: Terraform logs everything for them.
		if l := hclog.LevelFromString(v); l != hclog.NoLevel {
			return httpLog{level: l}
		}
		return httpLog{level: hclog.Trace}
	}
	return httpLog{level: hclog.Off}
}

func defaultHTTPLog() httpLog { return httpLogFromEnv(os.Getenv) }

// on reports whether lines at level are logged.
func (l httpLog) on(level hclog.Level) bool { return l.level != hclog.Off && level >= l.level }

// secretNames are fields whose values are secrets in any of our protocols.
const secretNames = `ServiceApiKeyValue|MasterUserPassword|MasterUserPasswordWo|SecretAccessKey|SecretKey|SessionToken|WebIdentityToken|Password|Token|token|password`

// jwtRe is a JSON Web Token (an OIDC token for web identity) wherever it
// appears, such as a token passed where a file name was expected.
var jwtRe = regexp.MustCompile(`eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`)

var redactions = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`<(` + secretNames + `)>[^<]*</`), `<$1>***</`},
	{regexp.MustCompile(`"(` + secretNames + `)"\s*:\s*"(?:[^"\\]|\\.)*"`), `"$1":"***"`},
	{regexp.MustCompile(`\b(` + secretNames + `)=[^&\s]*`), `$1=***`},
	{regexp.MustCompile(`(?i)bearer\s+[^\s",]+`), `Bearer ***`},
	{regexp.MustCompile(`models-api-key-[A-Za-z0-9+/=_-]+`), `models-api-key-***`},
	{regexp.MustCompile(`X-Amz-(Signature|Security-Token|Credential)=[^&\s"]*`), `X-Amz-$1=***`},
	{awsAuthorization, `AWS4-HMAC-SHA256 ***`},
	{jwtRe, `***`},
}

// Redact replaces every secret value that our protocols can carry in s.
func Redact(s string) string {
	for _, r := range redactions {
		s = r.re.ReplaceAllString(s, r.with)
	}
	return s
}

// awsAuthorization is a SigV4 Authorization header's value, which an error
// may quote whole.
var awsAuthorization = regexp.MustCompile(`AWS4-HMAC-SHA256\s+Credential=[^\s"<,]*(,\s*SignedHeaders=[^\s"<,]*)?(,\s*Signature=[0-9a-fA-F]*)?`)

// minSecretLen keeps scrub from replacing short values that are not
// secrets by nature (an empty token, a one-letter test password).
const minSecretLen = 6

// minEchoRun is the shortest run of a secret's characters that scrub
// replaces wherever an answer quotes it: a service may echo part of a key
// (40 of its 70 characters in a request id), which is still a secret,
// while shorter runs are common in ordinary text.
const minEchoRun = 12

// secretsOf are the secret values a request signed with creds carries:
// creds', those of its headers (headerSecrets), the request's Secrets and
// its context's (WithSecrets).
func secretsOf(ctx context.Context, req *Request, hr *http.Request, creds Credentials) []string {
	out := append([]string{creds.SecretAccessKey, creds.SessionToken}, req.Secrets...)
	out = append(out, contextSecrets(ctx)...)
	return append(out, headerSecrets(hr.Header)...)
}

// carriesSecrets reports whether a request carries a secret besides its
// signature: Secrets, its context's, or a bearer token.
func carriesSecrets(ctx context.Context, req *Request, hr *http.Request) bool {
	if len(req.Secrets) > 0 || len(contextSecrets(ctx)) > 0 {
		return true
	}
	a := hr.Header.Get("Authorization")
	return a != "" && !strings.HasPrefix(a, "AWS4-")
}

// headerSecrets are the secrets of a request's headers: the session token,
// and the bearer token or signature of the Authorization header.
func headerSecrets(h http.Header) []string {
	out := []string{h.Get("X-Amz-Security-Token")}
	if a := h.Get("Authorization"); a != "" {
		if _, tok, ok := strings.Cut(a, " "); ok && !strings.HasPrefix(a, "AWS4-") {
			out = append(out, tok) // a bearer token
		}
		if _, sig, ok := strings.Cut(a, "Signature="); ok {
			out = append(out, sig)
		}
	}
	return out
}

// secretField matches the name of a form parameter whose value is a
// secret (WebIdentityToken, Password).
var secretField = regexp.MustCompile(`^(?:.*\.)?(?:` + secretNames + `)$`)

// formSecrets are the secret values of a form body (a Query request).
func formSecrets(body []byte) []string {
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil
	}
	var out []string
	for k, vs := range form {
		if secretField.MatchString(k) {
			out = append(out, vs...)
		}
	}
	return out
}

// echoScrubber finds the secrets of one request in an answer: every run
// of minEchoRun or more consecutive characters of a secret, and every
// whole secret shorter than that but of minSecretLen or more, as the
// answer has them or as a reader of JSON, XML or a form decodes them. A
// request carries a few secrets, so their minEchoRun-grams are few and one
// pass over each view of the answer finds them.
type echoScrubber struct {
	grams map[string]struct{}
	// starts has a bit for each pair of bytes that begins a gram, so that
	// most positions of an answer are passed over without a map look-up.
	starts *[1 << 16 / 64]uint64
	whole  []string
}

func pairIndex(a, b byte) int { return int(a)<<8 | int(b) }

func newEchoScrubber(secrets []string) echoScrubber {
	var e echoScrubber
	for _, s := range secrets {
		switch {
		case len(s) >= minEchoRun:
			if e.grams == nil {
				e.grams = make(map[string]struct{}, 4*64)
				e.starts = new([1 << 16 / 64]uint64)
			}
			for i := 0; i+minEchoRun <= len(s); i++ {
				e.grams[s[i:i+minEchoRun]] = struct{}{}
				p := pairIndex(s[i], s[i+1])
				e.starts[p/64] |= 1 << (p % 64)
			}
		case len(s) >= minSecretLen:
			e.whole = append(e.whole, s)
		}
	}
	return e
}

// scrub returns b with each stretch that holds a secret, and each SigV4
// Authorization value, replaced by ***.
func (e echoScrubber) scrub(b []byte) []byte {
	spans := e.spans(b)
	if len(spans) > 0 {
		out := make([]byte, 0, len(b))
		last := 0
		for _, sp := range spans {
			out = append(append(out, b[last:sp[0]]...), "***"...)
			last = sp[1]
		}
		b = append(out, b[last:]...)
	}
	return awsAuthorization.ReplaceAll(b, []byte("AWS4-HMAC-SHA256 ***"))
}

// scrubString is scrub for a string, such as a header's value.
func (e echoScrubber) scrubString(s string) string { return string(e.scrub([]byte(s))) }

// scrubAnswer scrubs an answer: its header values in place (a request id
// may quote a secret), and its body, which it returns.
func (e echoScrubber) scrubAnswer(body []byte, h http.Header) []byte {
	for _, vs := range h {
		for i, v := range vs {
			vs[i] = e.scrubString(v)
		}
	}
	return e.scrub(body)
}

// spans are the stretches [start, end) of b that hold a secret, as b has
// it or decoded, in order and joined where they touch.
func (e echoScrubber) spans(b []byte) [][2]int {
	if len(e.grams) == 0 && len(e.whole) == 0 {
		return nil
	}
	found := e.found(b, nil)
	for _, u := range unescapers {
		if v, ok := decode(b, u.marks, u.fn); ok {
			found = append(found, e.found(v.text, v.raw)...)
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(x, y [2]int) int { return x[0] - y[0] })
	merged := found[:0:0]
	for _, sp := range found {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// found are the stretches of text that hold a secret, widened to whole
// UTF-8 characters, as raw maps them to the answer's (nil: text is it).
func (e echoScrubber) found(text []byte, raw func(from, to int) (int, int)) [][2]int {
	var out [][2]int
	add := func(from, to int) {
		for from > 0 && !utf8.RuneStart(text[from]) {
			from--
		}
		for to < len(text) && !utf8.RuneStart(text[to]) {
			to++
		}
		if raw != nil {
			from, to = raw(from, to)
		}
		out = append(out, [2]int{from, to})
	}
	if len(e.grams) > 0 {
		for i := 0; i+minEchoRun <= len(text); i++ {
			if p := pairIndex(text[i], text[i+1]); e.starts[p/64]&(1<<(p%64)) == 0 {
				continue
			}
			if _, ok := e.grams[string(text[i:i+minEchoRun])]; ok {
				add(i, i+minEchoRun)
			}
		}
	}
	for _, w := range e.whole {
		for i := 0; ; {
			j := bytes.Index(text[i:], []byte(w))
			if j < 0 {
				break
			}
			add(i+j, i+j+len(w))
			i += j + len(w)
		}
	}
	return out
}

// maskedHeaders are never logged with their values.
var maskedHeaders = map[string]bool{
	"Authorization":        true,
	"X-Amz-Security-Token": true,
	"Cookie":               true,
}

// context returns ctx with the http subsystem and its masks set up, once
// per attempt, or ctx itself when nothing is logged.
func (l httpLog) context(ctx context.Context) context.Context {
	if l.level == hclog.Off {
		return ctx
	}
	ctx = tflog.NewSubsystem(ctx, LogSubsystem, tflog.WithLevelFromEnv("TF_LOG_PROVIDER_CLOUD", "HTTP"))
	// A second line of defence should a secret reach a field unredacted.
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, LogSubsystem, "authorization", "x-amz-security-token")
	ctx = tflog.SubsystemMaskAllFieldValuesRegexes(ctx, LogSubsystem, redactions[3].re, redactions[4].re, jwtRe)
	return ctx
}

func headerFields(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k := range h {
		if maskedHeaders[http.CanonicalHeaderKey(k)] {
			out[k] = "***"
			continue
		}
		out[k] = Redact(h.Get(k))
	}
	return out
}

func body(sensitive bool, b []byte) string {
	if sensitive {
		return "(not logged: may carry a secret)"
	}
	const limit = 16 << 10
	if len(b) > limit {
		return Redact(string(b[:limit])) + "...(truncated)"
	}
	return Redact(string(b))
}

// The methods below take the context that l.context returned.

func (l httpLog) request(ctx context.Context, service string, req *Request, hr *http.Request, attempt int) {
	if l.on(hclog.Debug) {
		tflog.SubsystemDebug(ctx, LogSubsystem, "Sending API request", map[string]any{
			"service":   service,
			"operation": req.Operation,
			"method":    hr.Method,
			"url":       Redact(hr.URL.String()),
			"attempt":   attempt + 1,
		})
	}
	if l.on(hclog.Trace) {
		tflog.SubsystemTrace(ctx, LogSubsystem, "API request detail", map[string]any{
			"operation": req.Operation,
			"headers":   headerFields(hr.Header),
			"body":      body(req.Sensitive, req.Body),
		})
	}
}

func (l httpLog) response(ctx context.Context, service string, req *Request, resp *Response, took time.Duration) {
	if l.on(hclog.Debug) {
		tflog.SubsystemDebug(ctx, LogSubsystem, "Received API response", map[string]any{
			"service":     service,
			"operation":   req.Operation,
			"status":      resp.StatusCode,
			"duration_ms": took.Milliseconds(),
		})
	}
	if l.on(hclog.Trace) {
		tflog.SubsystemTrace(ctx, LogSubsystem, "API response detail", map[string]any{
			"operation": req.Operation,
			"headers":   headerFields(resp.Header),
			"body":      body(req.Sensitive, resp.Body),
		})
	}
}

func (l httpLog) transportError(ctx context.Context, service, op string, err error, took time.Duration) {
	if !l.on(hclog.Warn) {
		return
	}
	tflog.SubsystemWarn(ctx, LogSubsystem, "API request failed in transport", map[string]any{
		"service":     service,
		"operation":   op,
		"error":       Redact(err.Error()),
		"duration_ms": took.Milliseconds(),
	})
}

// retryCause is why a request is sent again: the attempt that failed
// (counted from 1), the wait before the next, and its answer or error.
type retryCause struct {
	attempt int
	delay   time.Duration
	resp    *Response
	err     error
}

func (l httpLog) retry(ctx context.Context, service, op string, why retryCause) {
	if !l.on(hclog.Info) {
		return
	}
	f := map[string]any{"service": service, "operation": op, "attempt": why.attempt, "delay_ms": why.delay.Milliseconds()}
	if why.resp != nil {
		f["status"] = why.resp.StatusCode
	}
	if why.err != nil {
		f["error"] = Redact(why.err.Error())
	}
	tflog.SubsystemInfo(l.context(ctx), LogSubsystem, "Retrying API request", f)
}

// loggingTransport logs the exchanges of clients not built on Do (the
// SDK's token-service client) as Do logs its own: the same levels, lines
// and masks, one request and one answer per attempt.
type loggingTransport struct {
	base    http.RoundTripper
	service string
	log     httpLog
	// signing are the credentials the SDK signs with (SigningWith); nil
	// for unsigned calls.
	signing aws.CredentialsProvider
}

func (t *loggingTransport) RoundTrip(hr *http.Request) (*http.Response, error) {
	req := &Request{Operation: awsmiddleware.GetOperationName(hr.Context())}
	// The body is read for the secrets it carries (a web identity token),
	// which an error answer may quote, and for the trace log.
	if hr.Body != nil && hr.Body != http.NoBody {
		b, err := io.ReadAll(hr.Body)
		hr.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the request body: %w", err)
		}
		req.Body = b
		// A RoundTripper must not change the request it is given.
		hr = hr.Clone(hr.Context())
		hr.Body = io.NopCloser(bytes.NewReader(b))
	}
	lctx := t.log.context(hr.Context())
	start := time.Now()
	t.log.request(lctx, t.service, req, hr, sdkAttempt(hr.Header)-1)
	hresp, err := t.base.RoundTrip(hr)
	if err != nil {
		t.log.transportError(lctx, t.service, req.Operation, err, time.Since(start))
		return nil, err
	}
	resp := &Response{StatusCode: hresp.StatusCode, Header: hresp.Header}
	if hresp.StatusCode >= 300 || t.log.on(hclog.Trace) {
		b, err := io.ReadAll(hresp.Body)
		hresp.Body.Close()
		if err != nil {
			t.log.transportError(lctx, t.service, req.Operation, err, time.Since(start))
			return nil, fmt.Errorf("reading answer: %w", err)
		}
		if hresp.StatusCode >= 300 {
			secrets := append(headerSecrets(hr.Header), formSecrets(req.Body)...)
			if t.signing != nil {
				// The cache the SDK signed from: the same credentials.
				if c, err := t.signing.Retrieve(hr.Context()); err == nil {
					secrets = append(secrets, c.SecretAccessKey, c.SessionToken)
				}
			}
			b = newEchoScrubber(secrets).scrubAnswer(b, hresp.Header)
			// The SDK may read either; both say the scrubbed length.
			hresp.ContentLength = int64(len(b))
			if hresp.Header.Get("Content-Length") != "" {
				hresp.Header.Set("Content-Length", strconv.Itoa(len(b)))
			}
		}
		resp.Body = b
		hresp.Body = io.NopCloser(bytes.NewReader(b))
	}
	t.log.response(lctx, t.service, req, resp, time.Since(start))
	return hresp, nil
}

// sdkAttempt is the attempt, from 1, that the SDK's retry header
// ("amz-sdk-request: attempt=2; max=4") names; 1 without it.
func sdkAttempt(h http.Header) int {
	for _, f := range strings.Split(h.Get("Amz-Sdk-Request"), ";") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(f), "attempt="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return n
			}
		}
	}
	return 1
}
