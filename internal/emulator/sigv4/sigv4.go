// Package sigv4 verifies SigV4-signed requests for the emulator by signing
// them again with the library's signer and comparing signatures.
package sigv4

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Credential is an access key the emulator accepts.
type Credential struct {
	AccessKeyID     string
	SecretAccessKey string
	// SessionToken and Expires are set for temporary credentials.
	SessionToken string
	Expires      time.Time
	// Revoked marks a session invalidated before its expiry (the spec's
	// "invalidate the session used to generate the key"): its requests and
	// its short-term keys are refused.
	Revoked   bool
	Principal string
	Account   string
}

// Store holds the accepted credentials.
type Store struct {
	mu    sync.RWMutex
	byID  map[string]Credential
	fixed []Credential
}

// NewStore returns a store holding fixed credentials, which survive Reset.
func NewStore(fixed ...Credential) *Store {
	s := &Store{fixed: fixed}
	s.Reset()
	return s
}

// Add accepts one more credential.
func (s *Store) Add(c Credential) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[c.AccessKeyID] = c
}

// RevokeSession invalidates the temporary credentials of id; it reports
// false when id is unknown or not temporary (a long-term access key has no
// session to invalidate).
func (s *Store) RevokeSession(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.byID[id]
	if !ok || c.SessionToken == "" {
		return false
	}
	c.Revoked = true
	s.byID[id] = c
	return true
}

// Get looks a credential up by access key id.
func (s *Store) Get(id string) (Credential, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.byID[id]
	return c, ok
}

// Reset forgets every credential but the fixed ones.
func (s *Store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID = map[string]Credential{}
	for _, c := range s.fixed {
		s.byID[c.AccessKeyID] = c
	}
}

// Error is a refused signature. Condition is one of core.Code's conditions.
type Error struct {
	Condition string
	Message   string
}

func (e *Error) Error() string { return e.Message }

// MaxSkew is how far a request's signing time may be from real time or
// from the emulator's clock, whichever is nearer.
const MaxSkew = 15 * time.Minute

var (
	authRe = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=([^/,\s]+)/(\d{8})/([^/,\s]+)/([^/,\s]+)/aws4_request,\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$`)
)

// newSigner is a signer for one verification. A signer caches the keys it
// derives by key id, region, service and day, not by secret: a shared one
// would go on accepting a key's old secret after the key was added again
// with a new one (POST /_admin/credentials), and refuse the new secret.
func newSigner() *v4.Signer { return v4.NewSigner() }

// Verify checks the request's SigV4 signature for service. now is the
// emulator's clock, against which temporary credentials expire and, as well
// as real time, the signing time is checked. The checks run in the order
// their refusals take precedence.
func (s *Store) Verify(r *http.Request, body []byte, service string, now time.Time) (*core.Caller, *Error) {
	a, aerr := parseAuthorization(r.Header.Get("Authorization"))
	if aerr != nil {
		return nil, aerr
	}
	cred, ok := s.Get(a.keyID)
	if !ok {
		return nil, &Error{"unknown", "The security token included in the request is invalid."}
	}
	if aerr := checkScope(a.service, service, a.region); aerr != nil {
		return nil, aerr
	}
	if aerr := checkSession(r.Header.Get("X-Amz-Security-Token"), cred, now); aerr != nil {
		return nil, aerr
	}
	t, aerr := signingTime(r.Header.Get("X-Amz-Date"), a.day, now)
	if aerr != nil {
		return nil, aerr
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	if h := r.Header.Get("X-Amz-Content-Sha256"); h != "" && h != hash {
		return nil, &Error{"signature", "The provided X-Amz-Content-Sha256 header does not match what was computed."}
	}
	cp, aerr := signingCopy(r, body, a.signedHeaders)
	if aerr != nil {
		return nil, aerr
	}
	if aerr := checkSignature(cp, cred, a, hash, t); aerr != nil {
		return nil, aerr
	}
	return &core.Caller{
		AccessKeyID: a.keyID,
		Principal:   cred.Principal,
		Account:     cred.Account,
		Region:      a.region,
		Session:     cred.SessionToken != "",
	}, nil
}

// authorization is a parsed SigV4 Authorization header.
type authorization struct {
	keyID, day, region, service string
	signedHeaders, signature    string
}

func parseAuthorization(auth string) (*authorization, *Error) {
	if auth == "" {
		return nil, &Error{"missing", "Request is missing Authentication Token"}
	}
	m := authRe.FindStringSubmatch(auth)
	if m == nil {
		return nil, &Error{"malformed", "Authorization header requires a SigV4 Credential, SignedHeaders and Signature."}
	}
	return &authorization{keyID: m[1], day: m[2], region: m[3], service: m[4], signedHeaders: m[5], signature: m[6]}, nil
}

// checkScope checks a credential scope's service (which must be want) and
// region.
func checkScope(svc, want, region string) *Error {
	if svc != want {
		return &Error{"signature", fmt.Sprintf("Credential should be scoped to correct service: '%s'.", want)}
	}
	if !rules.Region.MatchString(region) {
		return &Error{"signature", "Credential should be scoped to a valid region."}
	}
	return nil
}

// checkSession checks temporary credentials: the request carries their
// session token, and they are neither expired nor revoked.
func checkSession(token string, cred Credential, now time.Time) *Error {
	if cred.SessionToken == "" {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(cred.SessionToken)) != 1 {
		return &Error{"unknown", "The security token included in the request is invalid."}
	}
	if !cred.Expires.IsZero() && now.After(cred.Expires) {
		return &Error{"expired", "The security token included in the request is expired"}
	}
	if cred.Revoked {
		return &Error{"expired", "The security token included in the request has been invalidated."}
	}
	return nil
}

// signingTime parses X-Amz-Date, which must fall on the scope's day and
// within MaxSkew of real time or of now, the emulator's clock. Answers carry
// the emulator's clock in Date (so clients that plan by the service's time
// follow a clock a test moved), and clients that correct their clock skew
// by Date, as aws-sdk-go-v2 does, then sign at that time; clients that do
// not sign at real time.
func signingTime(date, day string, now time.Time) (time.Time, *Error) {
	t, err := time.Parse("20060102T150405Z", date)
	if err != nil || t.Format("20060102") != day {
		return t, &Error{"malformed", "X-Amz-Date is missing or does not match the credential scope date."}
	}
	if !within(time.Now(), t) && !within(now, t) {
		return t, &Error{"signature", "Signature expired: " + t.Format("20060102T150405Z") + " is not within 15 minutes of the server's time."}
	}
	return t, nil
}

// within reports whether t is within MaxSkew of at.
func within(at, t time.Time) bool {
	d := at.Sub(t)
	return d <= MaxSkew && d >= -MaxSkew
}

// signingCopy is a copy of r holding exactly the headers the client signed.
// Clients differ in what they sign: this provider signs content-length,
// botocore and the AWS CLI do not, and send no X-Amz-Content-Sha256 (the
// body is hashed here either way).
func signingCopy(r *http.Request, body []byte, signedHeaders string) (*http.Request, *Error) {
	listed := strings.Split(signedHeaders, ";")
	if !slices.Contains(listed, "host") {
		return nil, &Error{"signature", "SignedHeaders must include host."}
	}
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	// The copy is never sent: it only feeds the signer.
	cp, err := http.NewRequestWithContext(context.Background(), r.Method, u.String(), nil) //nolint:gosec // not sent anywhere
	if err != nil {
		return nil, &Error{"malformed", "The request URL cannot be parsed."}
	}
	cp.Host = r.Host
	cp.ContentLength = 0 // the signer signs content-length whenever it is set
	for _, h := range listed {
		switch h {
		case "host":
		case "content-length":
			cp.ContentLength = int64(len(body))
		default:
			for _, v := range r.Header.Values(h) {
				cp.Header.Add(h, v)
			}
		}
	}
	return cp, nil
}

// checkSignature signs cp with cred at the client's signing time t and
// compares the result with the client's signed headers and signature.
func checkSignature(cp *http.Request, cred Credential, a *authorization, hash string, t time.Time) *Error {
	creds := aws.Credentials{AccessKeyID: cred.AccessKeyID, SecretAccessKey: cred.SecretAccessKey, SessionToken: cred.SessionToken}
	if err := newSigner().SignHTTP(context.Background(), creds, cp, hash, a.service, a.region, t); err != nil {
		return &Error{"signature", "The request cannot be signed again for verification."}
	}
	want := authRe.FindStringSubmatch(cp.Header.Get("Authorization"))
	if want != nil && want[5] != a.signedHeaders {
		// A header the library never signs (user-agent, expect), or one
		// listed but not sent, cannot be verified.
		return &Error{"signature", fmt.Sprintf("SignedHeaders %s cannot be verified: the headers the request carries sign as %s.", a.signedHeaders, want[5])}
	}
	if want == nil || subtle.ConstantTimeCompare([]byte(want[6]), []byte(a.signature)) != 1 {
		return &Error{"signature", "The request signature we calculated does not match the signature you provided. Check your Secret Access Key and signing method."}
	}
	return nil
}
