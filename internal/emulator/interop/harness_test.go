package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/opensearch"
	"github.com/aws/smithy-go/auth/bearer"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// What differs from a client aimed at the real services:
//
//   - every client: BaseEndpoint (the emulator's URL) and HTTPClient (the
//     test server's, which trusts its self-signed certificate: the server
//     speaks HTTPS because the SDK's bearer signer refuses to send a token
//     over plain HTTP, and one server serves all three services); the
//     recorder around its transport only reads what passes.
//   - opensearch: the signing name search (WithSigV4SigningName), and
//     neutralNames below: the spec's path segment search for opensearch and
//     the spec's neutral member names for the SDK's brand names, both
//     ways, on the serialized body before it is signed and on the raw
//     answer before the SDK decodes it.
//   - iam: the signing name identity (WithSigV4SigningName).
//   - bedrockruntime: the key through BearerAuthTokenProvider with
//     AuthSchemePreference httpBearerAuth, which is what the SDK does with
//     AWS_BEARER_TOKEN_BEDROCK; the spec's variable is
//     CLOUD_BEARER_TOKEN_MODELS, which the SDK does not read.
//   - RetryMaxAttempts 1 in the tests of errors and of the clock, so that
//     an injected 500 or 429, or a refused attempt, is seen as the error it
//     is rather than retried away.
//   - opensearch requests that need them get members the SDK's model lacks
//     (withMembers), and answers are read raw where the SDK's model lacks a
//     member of the spec's (advisoryCodes, rawKey): see those functions.

// server is one emulator behind an HTTPS test server.
type server struct {
	*acctest.Emulator
	rec    *recorder
	client *http.Client
}

func start(t *testing.T) *server {
	t.Helper()
	e, c := acctest.NewEmulatorTLS(t)
	return &server{Emulator: e, rec: &recorder{next: c.Transport}, client: c}
}

// The demo domain's off-peak window is 00:00 to 10:00 UTC, and a
// blue/green change outside it draws ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK: the
// search tests set the emulator's clock to one of these instants (the next
// 02:00 and 12:00 UTC, fixed when the tests start) so that they find the
// same whatever the time of day they run at.
var (
	offPeak    = nextUTC(2)
	outsideOff = nextUTC(12)
)

// nextUTC is the next hour:00 UTC at least an hour after real time (so
// that real time cannot pass it while the tests run).
func nextUTC(hour int) time.Time {
	now := time.Now().UTC()
	at := time.Date(now.Year(), now.Month(), now.Day(), hour, 0, 0, 0, time.UTC)
	if at.Before(now.Add(time.Hour)) {
		at = at.AddDate(0, 0, 1)
	}
	return at
}

// setClock moves the emulator's clock forward to at (the clock only goes
// forward, as the admin API's and the demo's -time-of-day do).
func (s *server) setClock(t *testing.T, at time.Time) {
	t.Helper()
	d := at.Sub(s.Clock().Now())
	if d < 0 {
		t.Fatalf("the emulator's clock, %s, is already past %s", s.Clock().Now(), at)
	}
	s.Clock().Advance(d)
}

// httpClient is the test server's client, its transport wrapped by the
// recorder.
func (s *server) httpClient() *http.Client {
	c := *s.client
	c.Transport = s.rec
	return &c
}

func (s *server) creds() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(s.AccessKeyID(), s.SecretAccessKey(), "")
}

func (s *server) search(optFns ...func(*opensearch.Options)) *opensearch.Client {
	return opensearch.New(opensearch.Options{
		Region:       s.Region(),
		Credentials:  s.creds(),
		BaseEndpoint: aws.String(s.URL),
		HTTPClient:   s.httpClient(),
		APIOptions:   []func(*middleware.Stack) error{neutralNames},
	}, append([]func(*opensearch.Options){opensearch.WithSigV4SigningName("search")}, optFns...)...)
}

func (s *server) identity(optFns ...func(*iam.Options)) *iam.Client {
	return iam.New(iam.Options{
		Region:       s.Region(),
		Credentials:  s.creds(),
		BaseEndpoint: aws.String(s.URL),
		HTTPClient:   s.httpClient(),
	}, append([]func(*iam.Options){iam.WithSigV4SigningName("identity")}, optFns...)...)
}

// runtime is a runtime client for base (the emulator's URL, or
// URL/region/<r> for another region) that sends key as its bearer token.
func (s *server) runtime(base, region, key string) *bedrockruntime.Client {
	return bedrockruntime.New(bedrockruntime.Options{
		Region:                  region,
		BaseEndpoint:            aws.String(base),
		HTTPClient:              s.httpClient(),
		BearerAuthTokenProvider: bearer.StaticTokenProvider{Token: bearer.Token{Value: key}},
		AuthSchemePreference:    []string{"httpBearerAuth"},
	})
}

// recorder keeps the last request and answer bodies that passed, and the
// request's Authorization and X-Amz-Date headers.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	req  []byte
	resp []byte
	auth string
	date string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.req, r.resp, r.auth, r.date = body, answer, req.Header.Get("Authorization"), req.Header.Get("X-Amz-Date")
	return resp, nil
}

// last is the last request body, answer body and Authorization header.
func (r *recorder) last() (req, resp, auth string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.req), string(r.resp), r.auth
}

// signedAt is the last request's signing time (X-Amz-Date).
func (r *recorder) signedAt() (time.Time, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return time.Parse("20060102T150405Z", r.date)
}

// brandNames are the spec's neutral member names ("Neutral names replace
// brand words inside some identifiers") and the SDK's model names.
var brandNames = [][2]string{
	{"BlockVolumeOptions", "EBSOptions"},
	{"BlockVolumeEnabled", "EBSEnabled"},
	{"UserPoolAuthOptions", "CognitoOptions"},
	{"WorkforceIdentityOptions", "IdentityCenterOptions"},
	{"WorkforceIdentityInstanceARN", "IdentityCenterInstanceARN"},
	{"WorkforceIdentityInstanceRegion", "IdentityCenterInstanceRegion"},
	{"WorkforceIdentityApplicationARN", "IdentityCenterApplicationARN"},
	{"ObjectStoreVectorsEngine", "S3VectorsEngine"},
	{"LogsLogGroupArn", "CloudWatchLogsLogGroupArn"},
	{"IdentityFederationOptions", "IAMFederationOptions"},
}

// neutralNames puts the spec's names on what the opensearch client sends
// (path segment and members, before signing) and the SDK's names on what
// it receives (before decoding). Nothing else changes.
func neutralNames(stack *middleware.Stack) error {
	out := map[string]string{}
	in := map[string]string{}
	for _, p := range brandNames {
		out[p[1]], in[p[0]] = p[0], p[1]
	}
	if err := stack.Build.Add(middleware.BuildMiddlewareFunc("neutralNamesOut", func(ctx context.Context, bi middleware.BuildInput, next middleware.BuildHandler) (middleware.BuildOutput, middleware.Metadata, error) {
		req, ok := bi.Request.(*smithyhttp.Request)
		if !ok {
			return next.HandleBuild(ctx, bi)
		}
		req.URL.Path = strings.Replace(req.URL.Path, "/2021-01-01/opensearch/", "/2021-01-01/search/", 1)
		req.URL.RawPath = ""
		if s := req.GetStream(); s != nil {
			b, err := io.ReadAll(s)
			if err != nil {
				return middleware.BuildOutput{}, middleware.Metadata{}, err
			}
			if b, err = renameMembers(b, out); err != nil {
				return middleware.BuildOutput{}, middleware.Metadata{}, err
			}
			if req, err = req.SetStream(bytes.NewReader(b)); err != nil {
				return middleware.BuildOutput{}, middleware.Metadata{}, err
			}
			req.ContentLength = int64(len(b))
			bi.Request = req
		}
		return next.HandleBuild(ctx, bi)
	}), middleware.Before); err != nil {
		return err
	}
	return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("neutralNamesIn", func(ctx context.Context, di middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
		o, md, err := next.HandleDeserialize(ctx, di)
		if err != nil {
			return o, md, err
		}
		resp, ok := o.RawResponse.(*smithyhttp.Response)
		if !ok {
			return o, md, nil
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return o, md, err
		}
		if renamed, rerr := renameMembers(b, in); rerr == nil {
			b = renamed
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		return o, md, nil
	}), middleware.After)
}

// renameMembers renames object members of a JSON document by names.
func renameMembers(b []byte, names map[string]string) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return json.Marshal(rename(v, names))
}

func rename(v any, names map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			if n, ok := names[k]; ok {
				k = n
			}
			m[k] = rename(x, names)
		}
		return m
	case []any:
		for i := range t {
			t[i] = rename(t[i], names)
		}
	}
	return v
}

// emulatorFault is one error answer of service: code with status, or the
// protocol's internal error when code is empty.
func emulatorFault(service, code string, status int) emulator.Fault {
	return emulator.Fault{Service: service, Kind: emulator.FaultError, Code: code, Status: status}
}

// withMembers adds members the SDK's opensearch model lacks to the JSON
// body before it is signed: AcceptedWarnings, EngineMode and UseCase are
// members of the spec's UpdateDomainConfig that the SDK's
// UpdateDomainConfigInput does not have.
func withMembers(members map[string]any) func(*opensearch.Options) {
	return func(o *opensearch.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Build.Add(middleware.BuildMiddlewareFunc("specMembers", func(ctx context.Context, bi middleware.BuildInput, next middleware.BuildHandler) (middleware.BuildOutput, middleware.Metadata, error) {
				req, ok := bi.Request.(*smithyhttp.Request)
				if !ok || req.GetStream() == nil {
					return next.HandleBuild(ctx, bi)
				}
				var body map[string]any
				dec := json.NewDecoder(req.GetStream())
				dec.UseNumber()
				if err := dec.Decode(&body); err != nil {
					return middleware.BuildOutput{}, middleware.Metadata{}, err
				}
				maps.Copy(body, members)
				b, err := json.Marshal(body)
				if err != nil {
					return middleware.BuildOutput{}, middleware.Metadata{}, err
				}
				if req, err = req.SetStream(bytes.NewReader(b)); err != nil {
					return middleware.BuildOutput{}, middleware.Metadata{}, err
				}
				req.ContentLength = int64(len(b))
				bi.Request = req
				return next.HandleBuild(ctx, bi)
			}), middleware.Before)
		})
	}
}
