// Package auth turns the provider's credential settings into a credentials
// provider, built on aws-sdk-go-v2's shared-config loading, its stscreds
// providers and its token-service client aimed at the cloud's token service.
// It never reads AWS_* variables or ~/.aws: every file, name and endpoint
// comes from the caller.
package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// DefaultSessionName names role sessions when the configuration does not.
const DefaultSessionName = "terraform-provider-cloud"

// DefaultRoleDuration is how long an assumed role's session lasts when the
// configuration does not say.
const DefaultRoleDuration = time.Hour

// DefaultConfigFiles and DefaultCredentialsFiles are the shared files read
// when none are configured: ~/.cloud/config and ~/.cloud/credentials.
func DefaultConfigFiles() []string { return homeFile("config") }

// DefaultCredentialsFiles is ~/.cloud/credentials.
func DefaultCredentialsFiles() []string { return homeFile("credentials") }

func homeFile(name string) []string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return []string{}
	}
	return []string{filepath.Join(home, ".cloud", name)}
}

// Static are long-lived (or externally issued temporary) keys. Expires,
// when not zero, is when temporary keys end: a session token alone does not
// say, and a short-term API key must not outlive its session.
type Static struct {
	AccessKeyID, SecretAccessKey, SessionToken string
	Expires                                    time.Time
}

// Profile names a profile of the shared config and credentials files.
type Profile struct {
	Name             string
	ConfigFiles      []string
	CredentialsFiles []string
}

// WebIdentity exchanges an OIDC token for a role's credentials.
type WebIdentity struct {
	RoleARN     string
	SessionName string
	// Token is the token itself; TokenFile a file that holds it (read at
	// every exchange, as CI systems rewrite it).
	Token     string
	TokenFile string
}

// AssumeRole takes a role with the base credentials.
type AssumeRole struct {
	RoleARN     string
	SessionName string
	Duration    time.Duration
	ExternalID  string
}

// Settings are the resolved credential settings. Exactly one of Static,
// WebIdentity and Profile is the base; AssumeRole, when set, is assumed
// with the base's credentials.
type Settings struct {
	Region      string
	STSEndpoint string
	// HTTPClient and Retryer make the token-service client send, log and
	// retry as every other client of the provider does (see
	// client.Config.SDKHTTPClient and SDKRetryer); nil keeps the SDK's.
	HTTPClient *http.Client
	Retryer    aws.Retryer

	Static      *Static
	WebIdentity *WebIdentity
	Profile     *Profile
	AssumeRole  *AssumeRole
}

// Provider returns the cached credentials provider of s. Errors are about
// the settings themselves (a missing profile, a profile without
// credentials); whether the credentials work is found out by using them.
func (s Settings) Provider(ctx context.Context) (aws.CredentialsProvider, error) {
	var base aws.CredentialsProvider
	switch {
	case s.Static != nil:
		base = s.Static.provider()
		if s.AssumeRole == nil {
			// Nothing to renew: a window would only cut the keys'
			// session_expiration short.
			return aws.NewCredentialsCache(base), nil
		}
	case s.WebIdentity != nil:
		base = s.webIdentity(*s.WebIdentity)
	case s.Profile != nil:
		p, err := s.profile(ctx, *s.Profile)
		if err != nil {
			return nil, err
		}
		base = p
	default:
		return nil, fmt.Errorf("no credentials configured")
	}
	if r := s.AssumeRole; r != nil {
		base = s.assumeRole(renewing(base), *r)
	}
	return renewing(base), nil
}

// RenewalWindow is how long before a role session ends the provider takes a
// new one; RenewalJitter spreads that over its last fifth (4 to 5 minutes
// before the end), so that parallel runs do not renew at once.
const (
	RenewalWindow = 5 * time.Minute
	RenewalJitter = 0.2
)

// renewing caches p's credentials and renews them RenewalWindow (less the
// jitter) before they expire, so that no request or short-term key is made
// with a session about to end. The credentials it returns carry that
// earlier time as their expiry.
func renewing(p aws.CredentialsProvider) *aws.CredentialsCache {
	return aws.NewCredentialsCache(p, func(o *aws.CredentialsCacheOptions) {
		o.ExpiryWindow = RenewalWindow
		o.ExpiryWindowJitterFrac = RenewalJitter
	})
}

// Client is a token-service client signing with creds (nil: unsigned, as
// AssumeRoleWithWebIdentity is).
func (s Settings) Client(creds aws.CredentialsProvider) *sts.Client {
	o := sts.Options{
		Region:       s.Region,
		BaseEndpoint: aws.String(s.STSEndpoint),
		Credentials:  creds,
	}
	if s.HTTPClient != nil { // a nil *http.Client in the interface would be used
		o.HTTPClient = client.SigningWith(s.HTTPClient, creds)
	}
	if s.Retryer != nil {
		o.Retryer = s.Retryer
	}
	return sts.New(o)
}

func (s Settings) assumeRole(creds aws.CredentialsProvider, r AssumeRole) aws.CredentialsProvider {
	return stscreds.NewAssumeRoleProvider(s.Client(creds), r.RoleARN, func(o *stscreds.AssumeRoleOptions) {
		o.RoleSessionName = orDefault(r.SessionName)
		// The SDK's default is 15 minutes; ours, documented, is an hour
		// (the token service's own default, used by web identity).
		o.Duration = DefaultRoleDuration
		if r.Duration > 0 {
			o.Duration = r.Duration
		}
		if r.ExternalID != "" {
			o.ExternalID = aws.String(r.ExternalID)
		}
	})
}

func (s Settings) webIdentity(w WebIdentity) aws.CredentialsProvider {
	var tokens stscreds.IdentityTokenRetriever = stscreds.IdentityTokenFile(w.TokenFile)
	if w.Token != "" {
		tokens = literalToken(w.Token)
	}
	return stscreds.NewWebIdentityRoleProvider(s.Client(nil), w.RoleARN, tokens, func(o *stscreds.WebIdentityRoleOptions) {
		o.RoleSessionName = orDefault(w.SessionName)
	})
}

// profile reads one profile with the SDK's shared-config loader: static
// keys, role_arn with source_profile (one level), or role_arn with
// web_identity_token_file.
func (s Settings) profile(ctx context.Context, p Profile) (aws.CredentialsProvider, error) {
	sc, err := config.LoadSharedConfigProfile(ctx, p.Name, func(o *config.LoadSharedConfigOptions) {
		o.ConfigFiles = p.ConfigFiles
		o.CredentialsFiles = p.CredentialsFiles
	})
	if err != nil {
		var missing config.SharedConfigProfileNotExistError
		if errors.As(err, &missing) {
			return nil, &ProfileError{Profile: p, Reason: "is not in any of them"}
		}
		return nil, &ProfileError{Profile: p, Reason: "cannot be read: " + err.Error()}
	}
	switch {
	case sc.RoleARN != "" && sc.WebIdentityTokenFile != "":
		return s.webIdentity(WebIdentity{RoleARN: sc.RoleARN, SessionName: sc.RoleSessionName, TokenFile: sc.WebIdentityTokenFile}), nil
	case sc.RoleARN != "" && sc.Source != nil && sc.Source.Credentials.HasKeys():
		r := AssumeRole{RoleARN: sc.RoleARN, SessionName: sc.RoleSessionName, ExternalID: sc.ExternalID}
		if sc.RoleDurationSeconds != nil {
			r.Duration = *sc.RoleDurationSeconds
		}
		src := sc.Source.Credentials
		return s.assumeRole(credentials.NewStaticCredentialsProvider(src.AccessKeyID, src.SecretAccessKey, src.SessionToken), r), nil
	case sc.RoleARN == "" && sc.Credentials.HasKeys():
		c := sc.Credentials
		return credentials.NewStaticCredentialsProvider(c.AccessKeyID, c.SecretAccessKey, c.SessionToken), nil
	}
	return nil, &ProfileError{Profile: p, Reason: "has no credentials this provider can use (aws_access_key_id with aws_secret_access_key, role_arn with source_profile, or role_arn with web_identity_token_file)"}
}

// ProfileError is a profile that cannot supply credentials.
type ProfileError struct {
	Profile Profile
	Reason  string
}

func (e *ProfileError) Error() string {
	files := append(append([]string{}, e.Profile.ConfigFiles...), e.Profile.CredentialsFiles...)
	return fmt.Sprintf("profile %q (looked in %s) %s", e.Profile.Name, strings.Join(files, ", "), e.Reason)
}

// literalToken is a web identity token given as a value.
type literalToken string

func (t literalToken) GetIdentityToken() ([]byte, error) { return []byte(t), nil }

func orDefault(name string) string {
	if name == "" {
		return DefaultSessionName
	}
	return name
}

func (s *Static) provider() aws.CredentialsProvider {
	p := credentials.NewStaticCredentialsProvider(s.AccessKeyID, s.SecretAccessKey, s.SessionToken)
	if !s.Expires.IsZero() {
		p.Value.CanExpire, p.Value.Expires = true, s.Expires
	}
	return p
}
