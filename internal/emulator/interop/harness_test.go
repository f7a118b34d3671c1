package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
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

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
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
	*emulatortest.Emulator
	rec    *recorder
	client *http.Client
}

func start(t *testing.T) *server {
	t.Helper()
	e := emulatortest.New(t, emulatortest.WithTLS())
	c := e.HTTPClient()
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

// brandPaths are where the SDK's names sit in a configuration (a request's
// body, a DryRunConfig, or a DomainConfig's Options), in the SDK's names;
// "*" is any key of a map. Only these members are renamed: the keys of
// free-form maps (AdvancedOptions, the log types of LogPublishingOptions)
// are the user's, not the model's.
var brandPaths = [][]string{
	{"EBSOptions"},
	{"EBSOptions", "EBSEnabled"},
	{"CognitoOptions"},
	{"IdentityCenterOptions"},
	{"IdentityCenterOptions", "IdentityCenterInstanceARN"},
	{"IdentityCenterOptions", "IdentityCenterInstanceRegion"},
	{"IdentityCenterOptions", "IdentityCenterApplicationARN"},
	{"AIMLOptions", "S3VectorsEngine"},
	{"LogPublishingOptions", "*", "CloudWatchLogsLogGroupArn"},
	{"AdvancedSecurityOptions", "IAMFederationOptions"},
}

// neutralNames puts the spec's names on what the opensearch client sends
// (path segment and members, before signing) and the SDK's names on what
// it receives (before decoding). Nothing else changes. An answer that
// already carries one of the SDK's names is an error: the emulator must
// answer in the spec's names.
func neutralNames(stack *middleware.Stack) error {
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
			if b, err = renameBody(b, false); err != nil {
				return middleware.BuildOutput{}, middleware.Metadata{}, fmt.Errorf("neutral names, request: %w", err)
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
		if b, err = renameBody(b, true); err != nil {
			return o, md, fmt.Errorf("neutral names, answer: %w", err)
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		return o, md, nil
	}), middleware.After)
}

// renameBody renames the members at brandPaths of a request body (answer
// false: to the spec's names) or of an answer (to the SDK's names, in its
// DryRunConfig and its DomainConfig). An SDK name left in the request, or
// found anywhere in the answer, is an error.
func renameBody(b []byte, answer bool) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	sdkNames := map[string]bool{}
	for _, p := range brandNames {
		sdkNames[p[1]] = true
	}
	if !answer {
		renameAt(doc, true, false)
		if k := findKey(doc, sdkNames); k != "" {
			return nil, fmt.Errorf("the SDK's member %s is left, at a path brandPaths lacks", k)
		}
		return json.Marshal(doc)
	}
	if k := findKey(doc, sdkNames); k != "" {
		return nil, fmt.Errorf("the emulator answered with the SDK's member name %s, not the spec's", k)
	}
	if cfg, ok := doc["DryRunConfig"].(map[string]any); ok {
		renameAt(cfg, false, false)
	}
	if cfg, ok := doc["DomainConfig"].(map[string]any); ok {
		renameAt(cfg, false, true)
	}
	return json.Marshal(doc)
}

// renameAt renames the members of cfg at brandPaths to the spec's names
// (toSpec) or back to the SDK's, deepest first so that a path's parents
// still carry the document's names. sections: cfg is a DomainConfig, whose
// sections are {Options, Status}, the paths going on inside Options.
func renameAt(cfg map[string]any, toSpec, sections bool) {
	spec, sdk := map[string]string{}, map[string]string{}
	for _, p := range brandNames {
		spec[p[1]], sdk[p[0]] = p[0], p[1]
	}
	names := spec
	if !toSpec {
		names = sdk
	}
	paths := slices.Clone(brandPaths)
	slices.SortStableFunc(paths, func(a, b []string) int { return len(b) - len(a) })
	for _, p := range paths {
		var at []string
		for i, k := range p {
			if n, ok := spec[k]; ok && !toSpec {
				k = n
			}
			at = append(at, k)
			if i == 0 && sections && len(p) > 1 {
				at = append(at, "Options")
			}
		}
		renameOne(cfg, at, names)
	}
}

// renameOne renames the last member of path in v.
func renameOne(v any, path []string, names map[string]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if len(path) == 1 {
		if x, ok := m[path[0]]; ok {
			delete(m, path[0])
			m[names[path[0]]] = x
		}
		return
	}
	if path[0] == "*" {
		for _, x := range m {
			renameOne(x, path[1:], names)
		}
		return
	}
	renameOne(m[path[0]], path[1:], names)
}

// findKey is the first member name anywhere in v that is one of names, or
// "".
func findKey(v any, names map[string]bool) string {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if names[k] {
				return k
			}
			if f := findKey(x, names); f != "" {
				return f
			}
		}
	case []any:
		for _, x := range t {
			if f := findKey(x, names); f != "" {
				return f
			}
		}
	}
	return ""
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
