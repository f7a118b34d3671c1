package sigv4

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Short-term bearer keys of the model runtime (the design guide,
// contributing/design.md, "Wire protocols").
const (
	BearerPrefix      = "models-api-key-" //nolint:gosec // a format prefix, not a credential
	BearerService     = "models"
	BearerAction      = "CallWithBearerToken"
	MaxBearerLifetime = int(rules.MaxShortTermKeyLifetime / time.Second)
	bearerSuffix      = "&Version=1"
)

// bearerPayloadHashes are the payload hashes a short-term key may be signed
// with: the empty body's SHA-256, as the official token generators sign
// it, and UNSIGNED-PAYLOAD, as presigned URLs of some libraries are. The
// token does not say which, so each is tried.
var bearerPayloadHashes = []string{
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"UNSIGNED-PAYLOAD",
}

// BearerToken is a verified short-term key. It holds no secret.
type BearerToken struct {
	AccessKeyID string
	Principal   string
	Account     string
	// Region is the region of the signature's credential scope.
	Region    string
	Host      string
	SignedAt  time.Time
	ExpiresAt time.Time
}

// VerifyBearer checks a short-term key: its shape, its lifetime against now
// (the emulator's clock), the signing credentials (known, not expired, the
// session token they were issued with) and the signature, which it computes
// again with the library's presigner at the token's own signing time, for
// whatever host the token names. Conditions are those of Error: malformed,
// unknown, expired, signature.
func (s *Store) VerifyBearer(token string, now time.Time) (*BearerToken, *Error) {
	u, q, err := decodeBearer(token)
	if err != nil {
		return nil, err
	}
	if q.Get("Action") != BearerAction || q.Get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" {
		return nil, &Error{"malformed", "The short-term API key is not a presigned " + BearerAction + " request."}
	}
	scope := strings.Split(q.Get("X-Amz-Credential"), "/")
	if len(scope) != 5 || scope[4] != "aws4_request" {
		return nil, &Error{"malformed", "The short-term API key's credential scope is malformed."}
	}
	keyID, day, region := scope[0], scope[1], scope[2]
	if err := checkScope(scope[3], BearerService, region); err != nil {
		return nil, err
	}
	signedAt, expires, err := bearerLifetime(q, day, now)
	if err != nil {
		return nil, err
	}
	cred, ok := s.Get(keyID)
	if !ok {
		return nil, &Error{"unknown", "The security token included in the short-term API key is invalid."}
	}
	if err := checkBearerSession(q.Get("X-Amz-Security-Token"), cred, now); err != nil {
		return nil, err
	}
	if err := checkBearerSignature(u, q, cred, region, signedAt); err != nil {
		return nil, err
	}
	return &BearerToken{
		AccessKeyID: keyID, Principal: cred.Principal, Account: cred.Account, Region: region,
		Host: u.Host, SignedAt: signedAt, ExpiresAt: expires,
	}, nil
}

// bearerLifetime is when the key was signed (on the scope's day) and when
// it expires (X-Amz-Expires later, at most MaxBearerLifetime); a key signed
// in the future (beyond MaxSkew) or expired by now is refused.
func bearerLifetime(q url.Values, day string, now time.Time) (signedAt, expires time.Time, _ *Error) {
	signedAt, perr := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	if perr != nil || signedAt.Format("20060102") != day {
		return signedAt, expires, &Error{"malformed", "The short-term API key's X-Amz-Date is missing or does not match its credential scope."}
	}
	secs, perr := strconv.Atoi(q.Get("X-Amz-Expires"))
	switch {
	case perr != nil || secs < 1:
		return signedAt, expires, &Error{"malformed", "The short-term API key's X-Amz-Expires is not a positive number of seconds."}
	case secs > MaxBearerLifetime:
		return signedAt, expires, &Error{"signature", fmt.Sprintf("The short-term API key claims a lifetime of %d seconds; the most is %d (12 hours).", secs, MaxBearerLifetime)}
	}
	expires = signedAt.Add(time.Duration(secs) * time.Second)
	if signedAt.After(now.Add(MaxSkew)) {
		return signedAt, expires, &Error{"signature", "The short-term API key was signed in the future: " + signedAt.Format(time.RFC3339) + "."}
	}
	if !now.Before(expires) {
		return signedAt, expires, &Error{"expired", "The short-term API key expired at " + expires.Format(time.RFC3339) + "."}
	}
	return signedAt, expires, nil
}

// checkBearerSession checks the temporary credentials a key was signed
// with: the key carries their session token, and the session has neither
// expired nor been revoked.
func checkBearerSession(token string, cred Credential, now time.Time) *Error {
	if cred.SessionToken == "" {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(cred.SessionToken)) != 1 {
		return &Error{"unknown", "The security token included in the short-term API key is invalid."}
	}
	if !cred.Expires.IsZero() && !now.Before(cred.Expires) {
		return &Error{"expired", "The session that generated the short-term API key has expired."}
	}
	if cred.Revoked {
		return &Error{"expired", "The session that generated the short-term API key has been invalidated."}
	}
	return nil
}

// checkBearerSignature presigns the same request again, at the same time,
// with each payload hash a key may have been signed with, and compares.
func checkBearerSignature(u *url.URL, q url.Values, cred Credential, region string, signedAt time.Time) *Error {
	sig := q.Get("X-Amz-Signature")
	bare := url.Values{"Action": {BearerAction}, "X-Amz-Expires": q["X-Amz-Expires"]}
	for k, v := range q {
		if !strings.HasPrefix(strings.ToLower(k), "x-amz-") && k != "Action" {
			bare[k] = v // any extra parameter is signed as well
		}
	}
	ru := url.URL{Scheme: "https", Host: u.Host, Path: u.Path, RawQuery: bare.Encode()}
	// The request only feeds the presigner; it is never sent.
	req, rerr := http.NewRequestWithContext(context.Background(), http.MethodPost, ru.String(), nil)
	if rerr != nil {
		return &Error{"malformed", "The short-term API key's URL cannot be parsed."}
	}
	creds := aws.Credentials{AccessKeyID: cred.AccessKeyID, SecretAccessKey: cred.SecretAccessKey, SessionToken: cred.SessionToken}
	matched := false
	for _, payload := range bearerPayloadHashes {
		signed, _, serr := newSigner().PresignHTTP(context.Background(), creds, req, payload, BearerService, region, signedAt)
		if serr != nil {
			return &Error{"signature", "The short-term API key cannot be signed again for verification."}
		}
		if su, err := url.Parse(signed); err == nil {
			want := su.Query().Get("X-Amz-Signature")
			matched = matched || (want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(sig)) == 1)
		}
	}
	if !matched {
		return &Error{"signature", "The signature of the short-term API key does not match the one we calculated."}
	}
	return nil
}

func decodeBearer(token string) (*url.URL, url.Values, *Error) {
	bad := func(why string) (*url.URL, url.Values, *Error) {
		return nil, nil, &Error{"malformed", "The short-term API key is malformed: " + why + "."}
	}
	rest, ok := strings.CutPrefix(token, BearerPrefix)
	if !ok {
		return bad("it does not start with " + BearerPrefix)
	}
	raw, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return bad("it is not standard base64 after its prefix")
	}
	s, ok := strings.CutSuffix(string(raw), bearerSuffix)
	if !ok {
		return bad("its URL does not end with " + bearerSuffix)
	}
	u, err := url.Parse("https://" + s)
	if err != nil || u.Host == "" {
		return bad("it does not carry a URL with a host")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return bad("its query cannot be parsed")
	}
	return u, q, nil
}
