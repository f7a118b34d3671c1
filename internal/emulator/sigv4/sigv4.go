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

// MaxSkew is how far a request's signing time may be from real time.
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
// emulator's clock, against which temporary credentials expire.
func (s *Store) Verify(r *http.Request, body []byte, service string, now time.Time) (*core.Caller, *Error) {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return nil, &Error{"missing", "Request is missing Authentication Token"}
	}
	m := authRe.FindStringSubmatch(auth)
	if m == nil {
		return nil, &Error{"malformed", "Authorization header requires a SigV4 Credential, SignedHeaders and Signature."}
	}
	keyID, day, region, svc, signedHeaders, signature := m[1], m[2], m[3], m[4], m[5], m[6]
	cred, ok := s.Get(keyID)
	if !ok {
		return nil, &Error{"unknown", "The security token included in the request is invalid."}
	}
	if svc != service {
		return nil, &Error{"signature", fmt.Sprintf("Credential should be scoped to correct service: '%s'.", service)}
	}
	if !rules.Region.MatchString(region) {
		return nil, &Error{"signature", "Credential should be scoped to a valid region."}
	}
	if cred.SessionToken != "" {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Amz-Security-Token")), []byte(cred.SessionToken)) != 1 {
			return nil, &Error{"unknown", "The security token included in the request is invalid."}
		}
		if !cred.Expires.IsZero() && now.After(cred.Expires) {
			return nil, &Error{"expired", "The security token included in the request is expired"}
		}
		if cred.Revoked {
			return nil, &Error{"expired", "The security token included in the request has been invalidated."}
		}
	}
	t, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil || t.Format("20060102") != day {
		return nil, &Error{"malformed", "X-Amz-Date is missing or does not match the credential scope date."}
	}
	if d := time.Since(t); d > MaxSkew || d < -MaxSkew {
		return nil, &Error{"signature", "Signature expired: " + t.Format("20060102T150405Z") + " is not within 15 minutes of the server's time."}
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	if h := r.Header.Get("X-Amz-Content-Sha256"); h != "" && h != hash {
		return nil, &Error{"signature", "The provided X-Amz-Content-Sha256 header does not match what was computed."}
	}

	// Sign a copy holding exactly the headers the client signed, at the
	// same time. Clients differ in what they sign: this provider signs
	// content-length, botocore and the AWS CLI do not, and send no
	// X-Amz-Content-Sha256 (the body is hashed here either way).
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
	creds := aws.Credentials{AccessKeyID: cred.AccessKeyID, SecretAccessKey: cred.SecretAccessKey, SessionToken: cred.SessionToken}
	if err := newSigner().SignHTTP(context.Background(), creds, cp, hash, svc, region, t); err != nil {
		return nil, &Error{"signature", "The request cannot be signed again for verification."}
	}
	want := authRe.FindStringSubmatch(cp.Header.Get("Authorization"))
	if want != nil && want[5] != signedHeaders {
		// A header the library never signs (user-agent, expect), or one
		// listed but not sent, cannot be verified.
		return nil, &Error{"signature", fmt.Sprintf("SignedHeaders %s cannot be verified: the headers the request carries sign as %s.", signedHeaders, want[5])}
	}
	if want == nil || subtle.ConstantTimeCompare([]byte(want[6]), []byte(signature)) != 1 {
		return nil, &Error{"signature", "The request signature we calculated does not match the signature you provided. Check your Secret Access Key and signing method."}
	}
	return &core.Caller{
		AccessKeyID: keyID,
		Principal:   cred.Principal,
		Account:     cred.Account,
		Region:      region,
		Session:     cred.SessionToken != "",
	}, nil
}
