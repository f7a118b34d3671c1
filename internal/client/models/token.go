package models

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Short-term key format (the design guide, contributing/design.md, "Wire
// protocols"): a SigV4 presigned URL
// for POST /?Action=CallWithBearerToken on the models host, scheme dropped,
// "&Version=1" appended, base64 (standard, padded), TokenPrefix in front.
const (
	TokenPrefix = "models-api-key-" //nolint:gosec // a format prefix, not a credential
	// SigningName is the SigV4 service name of short-term keys.
	SigningName = "models"
	// MaxTokenLifetime is the spec's limit on a short-term key.
	MaxTokenLifetime = rules.MaxShortTermKeyLifetime
	// TokenAction is the presigned action.
	TokenAction = "CallWithBearerToken"
	// EmptyPayloadHash is the payload hash the presigned request is signed
	// with: the SHA-256 of an empty body, as the official token generator
	// libraries sign it (they presign with botocore's SigV4QueryAuth).
	EmptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	tokenSuffix      = "&Version=1"
)

// ErrCredentialsExpired means the signing credentials have already expired,
// so no short-term key can be generated from them.
var ErrCredentialsExpired = errors.New("the signing credentials have expired")

// TokenRequest is what a short-term key is generated from.
type TokenRequest struct {
	// Host is the models host named in the token, such as
	// runtime.models.us-east-1.cloud.example.
	Host        string
	Region      string
	Credentials client.Credentials
	// ExpiresIn is the wanted lifetime, at most MaxTokenLifetime; it is
	// shortened to the credentials' own expiry.
	ExpiresIn time.Duration
	// Now is the signing time (time.Now when zero).
	Now time.Time
}

// Token is a generated short-term key.
type Token struct {
	Value     string
	ExpiresAt time.Time
}

// DefaultHost is the models host of a region when no endpoint is configured.
func DefaultHost(region string) string { return "runtime.models." + region + ".cloud.example" }

// GenerateToken signs a short-term key locally with the library's SigV4
// presigner; nothing is sent.
func GenerateToken(ctx context.Context, in TokenRequest) (Token, error) {
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	now = now.UTC().Truncate(time.Second)
	switch {
	case in.Host == "" || strings.ContainsAny(in.Host, "/?#@"):
		return Token{}, fmt.Errorf("invalid models host %q", in.Host)
	case in.Region == "":
		return Token{}, errors.New("a region is required")
	case in.Credentials.AccessKeyID == "" || in.Credentials.SecretAccessKey == "":
		return Token{}, errors.New("an access key id and secret access key are required")
	case in.ExpiresIn < time.Second || in.ExpiresIn > MaxTokenLifetime:
		return Token{}, fmt.Errorf("the lifetime %s must be between 1s and %s", in.ExpiresIn, MaxTokenLifetime)
	}
	expiresIn := in.ExpiresIn.Truncate(time.Second)
	if exp := in.Credentials.Expires; !exp.IsZero() {
		left := exp.Sub(now).Truncate(time.Second)
		if left < time.Second {
			return Token{}, fmt.Errorf("%w (at %s)", ErrCredentialsExpired, exp.UTC().Format(time.RFC3339))
		}
		expiresIn = min(expiresIn, left)
	}

	q := url.Values{}
	q.Set("Action", TokenAction)
	q.Set("X-Amz-Expires", strconv.FormatInt(int64(expiresIn/time.Second), 10))
	u := url.URL{Scheme: "https", Host: in.Host, Path: "/", RawQuery: q.Encode()}
	// The request only feeds the presigner; it is never sent.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), nil)
	if err != nil {
		return Token{}, fmt.Errorf("building the request to presign: %w", err)
	}
	creds := aws.Credentials{
		AccessKeyID: in.Credentials.AccessKeyID, SecretAccessKey: in.Credentials.SecretAccessKey,
		SessionToken: in.Credentials.SessionToken,
	}
	signed, _, err := v4.NewSigner().PresignHTTP(ctx, creds, req, EmptyPayloadHash, SigningName, in.Region, now)
	if err != nil {
		return Token{}, fmt.Errorf("presigning the short-term key: %w", err)
	}
	raw := strings.TrimPrefix(signed, "https://") + tokenSuffix
	return Token{
		Value:     TokenPrefix + base64.StdEncoding.EncodeToString([]byte(raw)),
		ExpiresAt: now.Add(expiresIn),
	}, nil
}

// DecodeToken undoes the encoding of a short-term key and returns the
// presigned URL it carries (with the https scheme put back). It checks the
// shape only, not the signature.
func DecodeToken(token string) (*url.URL, error) {
	rest, ok := strings.CutPrefix(token, TokenPrefix)
	if !ok {
		return nil, fmt.Errorf("a short-term key starts with %s", TokenPrefix)
	}
	raw, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return nil, errors.New("a short-term key is standard base64 after its prefix")
	}
	s, ok := strings.CutSuffix(string(raw), tokenSuffix)
	if !ok {
		return nil, errors.New("a short-term key's URL ends with &Version=1")
	}
	u, err := url.Parse("https://" + s)
	if err != nil || u.Host == "" {
		return nil, errors.New("a short-term key carries a URL with a host")
	}
	return u, nil
}
