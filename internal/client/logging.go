package client

import (
	"context"
	"net/http"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// LogSubsystem is the tflog subsystem of all API traffic. Its level follows
// TF_LOG_PROVIDER_CLOUD_HTTP (else TF_LOG_PROVIDER, else TF_LOG).
const LogSubsystem = "http"

// secretNames are fields whose values are secrets in any of our protocols.
const secretNames = `ServiceApiKeyValue|MasterUserPassword|MasterUserPasswordWo|SecretAccessKey|SecretKey|SessionToken|Password|Token|token|password`

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
}

// Redact replaces every secret value that our protocols can carry in s.
func Redact(s string) string {
	for _, r := range redactions {
		s = r.re.ReplaceAllString(s, r.with)
	}
	return s
}

// maskedHeaders are never logged with their values.
var maskedHeaders = map[string]bool{
	"Authorization":        true,
	"X-Amz-Security-Token": true,
	"Cookie":               true,
}

func logContext(ctx context.Context) context.Context {
	ctx = tflog.NewSubsystem(ctx, LogSubsystem, tflog.WithLevelFromEnv("TF_LOG_PROVIDER_CLOUD", "HTTP"))
	// A second line of defence should a secret reach a field unredacted.
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, LogSubsystem, "authorization", "x-amz-security-token")
	ctx = tflog.SubsystemMaskAllFieldValuesRegexes(ctx, LogSubsystem, redactions[3].re, redactions[4].re)
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

func logRequest(ctx context.Context, service string, req *Request, hr *http.Request, attempt int) {
	ctx = logContext(ctx)
	tflog.SubsystemDebug(ctx, LogSubsystem, "Sending API request", map[string]any{
		"service":   service,
		"operation": req.Operation,
		"method":    hr.Method,
		"url":       Redact(hr.URL.String()),
		"attempt":   attempt + 1,
	})
	tflog.SubsystemTrace(ctx, LogSubsystem, "API request detail", map[string]any{
		"operation": req.Operation,
		"headers":   headerFields(hr.Header),
		"body":      body(req.Sensitive, req.Body),
	})
}

func logResponse(ctx context.Context, service string, req *Request, resp *Response, took time.Duration) {
	ctx = logContext(ctx)
	tflog.SubsystemDebug(ctx, LogSubsystem, "Received API response", map[string]any{
		"service":     service,
		"operation":   req.Operation,
		"status":      resp.StatusCode,
		"duration_ms": took.Milliseconds(),
	})
	tflog.SubsystemTrace(ctx, LogSubsystem, "API response detail", map[string]any{
		"operation": req.Operation,
		"headers":   headerFields(resp.Header),
		"body":      body(req.Sensitive, resp.Body),
	})
}

func logTransportError(ctx context.Context, service, op string, err error, took time.Duration) {
	tflog.SubsystemWarn(logContext(ctx), LogSubsystem, "API request failed in transport", map[string]any{
		"service":     service,
		"operation":   op,
		"error":       Redact(err.Error()),
		"duration_ms": took.Milliseconds(),
	})
}

func logRetry(ctx context.Context, service, op string, attempt int, delay time.Duration, resp *Response, err error) {
	f := map[string]any{"service": service, "operation": op, "attempt": attempt, "delay_ms": delay.Milliseconds()}
	if resp != nil {
		f["status"] = resp.StatusCode
	}
	if err != nil {
		f["error"] = Redact(err.Error())
	}
	tflog.SubsystemInfo(logContext(ctx), LogSubsystem, "Retrying API request", f)
}
