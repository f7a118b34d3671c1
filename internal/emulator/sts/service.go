// Package sts emulates the token service: AssumeRole,
// AssumeRoleWithWebIdentity and GetCallerIdentity over the Query protocol
// (Version 2011-06-15, signing name sts), on the same URL as the other
// services. Roles and OIDC providers live in the identity service; the
// temporary credentials issued here are accepted by SigV4 verification and
// authorized with the role's policies.
package sts

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

const (
	apiVersion = "2011-06-15"
	xmlns      = "https://sts.cloud.example/doc/2011-06-15/"
	// webIdentity is the one action sent unsigned: the token authenticates it.
	webIdentity = "AssumeRoleWithWebIdentity"
)

// Service is the emulated token service.
type Service struct {
	clock    *core.Clock
	account  string
	identity *identity.Service
	creds    *sigv4.Store

	mu sync.Mutex
	// sessions maps an issued access key id to its assumed-role ARN.
	sessions map[string]string
}

// New returns the token service.
func New(clock *core.Clock, account string, id *identity.Service, creds *sigv4.Store) *Service {
	s := &Service{clock: clock, account: account, identity: id, creds: creds}
	s.Reset()
	return s
}

// Name implements core.Service.
func (s *Service) Name() string { return "sts" }

// SigningName implements core.Service.
func (s *Service) SigningName() string { return "sts" }

// Protocol implements core.Service.
func (s *Service) Protocol() core.Protocol { return core.Query }

// Reset forgets the sessions (the credential store forgets their keys).
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions = map[string]string{}
}

// Match takes POST / signed for sts, and the unsigned
// AssumeRoleWithWebIdentity; the identity service shares the path.
func (s *Service) Match(r *http.Request) bool {
	if r.URL.Path != "/" || r.Method != http.MethodPost {
		return false
	}
	if auth := r.Header.Get("Authorization"); auth != "" {
		return strings.Contains(auth, "/sts/aws4_request")
	}
	// Peek at the body, then put it back for the emulator to read.
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), r.Body))
	if err != nil {
		return false
	}
	form, err := url.ParseQuery(string(b))
	return err == nil && form.Get("Action") == webIdentity
}

// Classify names the operation by its Action.
func (s *Service) Classify(_ *http.Request, body []byte) core.Operation {
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("Action") == "" {
		return core.Operation{Name: "Unknown"}
	}
	return core.Operation{Name: form.Get("Action"), Unsigned: form.Get("Action") == webIdentity}
}

type apiError struct {
	status        int
	code, message string
}

func bad(code, format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, code, fmt.Sprintf(format, args...)}
}

// ServeHTTP answers one Query request.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		core.WriteQueryError(w, http.StatusBadRequest, "MalformedQueryString", "The request body is not a valid form.")
		return
	}
	form := r.PostForm
	if v := form.Get("Version"); v != apiVersion {
		core.WriteQueryError(w, http.StatusBadRequest, "InvalidParameterValue", fmt.Sprintf("Version must be %s, got %q.", apiVersion, v))
		return
	}
	caller := core.CallerFrom(r.Context())
	var result any
	var aerr *apiError
	switch action := form.Get("Action"); action {
	case "GetCallerIdentity":
		result = s.getCallerIdentity(caller)
	case "AssumeRole":
		result, aerr = s.assumeRole(caller, form)
	case webIdentity:
		result, aerr = s.assumeRoleWithWebIdentity(form)
	default:
		aerr = bad("InvalidAction", "Could not find operation %q for version %s.", action, apiVersion)
	}
	if aerr != nil {
		core.WriteQueryError(w, aerr.status, aerr.code, aerr.message)
		return
	}
	writeResult(w, form.Get("Action"), result)
}

type callerIdentity struct {
	Arn     string `xml:"Arn"`
	UserID  string `xml:"UserId"`
	Account string `xml:"Account"`
}

func (s *Service) getCallerIdentity(c *core.Caller) callerIdentity {
	s.mu.Lock()
	session, ok := s.sessions[c.AccessKeyID]
	s.mu.Unlock()
	if ok {
		return callerIdentity{Arn: session, UserID: c.AccessKeyID, Account: c.Account}
	}
	return callerIdentity{Arn: c.Principal, UserID: c.AccessKeyID, Account: c.Account}
}

type credentialsXML struct {
	AccessKeyID     string    `xml:"AccessKeyId"`
	SecretAccessKey string    `xml:"SecretAccessKey"`
	SessionToken    string    `xml:"SessionToken"`
	Expiration      time.Time `xml:"Expiration"`
}

type assumedRoleUser struct {
	AssumedRoleID string `xml:"AssumedRoleId"`
	Arn           string `xml:"Arn"`
}

type assumeRoleResult struct {
	Credentials     credentialsXML  `xml:"Credentials"`
	AssumedRoleUser assumedRoleUser `xml:"AssumedRoleUser"`
}

type webIdentityResult struct {
	Credentials                 credentialsXML  `xml:"Credentials"`
	AssumedRoleUser             assumedRoleUser `xml:"AssumedRoleUser"`
	SubjectFromWebIdentityToken string          `xml:"SubjectFromWebIdentityToken"`
	Audience                    string          `xml:"Audience"`
	Provider                    string          `xml:"Provider"`
}

// roleRequest checks what AssumeRole and AssumeRoleWithWebIdentity share:
// the role, the session name and the duration.
func (s *Service) roleRequest(form url.Values) (identity.Role, string, time.Duration, *apiError) {
	arn, name := form.Get("RoleArn"), form.Get("RoleSessionName")
	if arn == "" {
		return identity.Role{}, "", 0, bad("ValidationError", "RoleArn is required.")
	}
	if rules.RoleSessionName.CheckString(name) != nil {
		return identity.Role{}, "", 0, bad("ValidationError", "RoleSessionName %q must be 2 to 64 characters of letters, digits and +=,.@_-.", name)
	}
	role, ok := s.identity.RoleByArn(arn)
	if !ok {
		return identity.Role{}, "", 0, &apiError{http.StatusForbidden, "AccessDenied", fmt.Sprintf("Not authorized to assume %s: the role does not exist.", arn)}
	}
	d := time.Hour
	if v := form.Get("DurationSeconds"); v != "" {
		n, err := strconv.Atoi(v)
		if r := rules.RoleSessionSeconds.Range; err != nil || !r.Contains(int64(n)) {
			return identity.Role{}, "", 0, bad("ValidationError", "DurationSeconds must be between %d and %d, got %q.", r.Min, r.Max, v)
		}
		d = time.Duration(n) * time.Second
	}
	if d > role.MaxSessionDuration {
		return identity.Role{}, "", 0, bad("ValidationError", "The requested DurationSeconds exceeds the MaxSessionDuration set for this role (%d seconds).", int(role.MaxSessionDuration.Seconds()))
	}
	return role, name, d, nil
}

func (s *Service) assumeRole(c *core.Caller, form url.Values) (any, *apiError) {
	role, name, d, aerr := s.roleRequest(form)
	if aerr != nil {
		return nil, aerr
	}
	if id := form.Get("ExternalId"); form.Has("ExternalId") && rules.ExternalID.CheckString(id) != nil {
		return nil, bad("ValidationError", "ExternalId %q must be 2 to 1224 characters of letters, digits and +=,.@:/_-.", id)
	}
	keys := map[string]string{}
	if id := form.Get("ExternalId"); id != "" {
		keys["sts:ExternalId"] = id
	}
	if r := s.identity.Trusts(role.Arn, "AWS", c.Principal, "sts:AssumeRole", keys); r.Decision != policy.Allow {
		return nil, &apiError{http.StatusForbidden, "AccessDenied", fmt.Sprintf("User: %s is not authorized to perform: sts:AssumeRole on resource: %s because %s.", c.Principal, role.Arn, r.Reason())}
	}
	creds, user := s.issue(role, name, d)
	return assumeRoleResult{Credentials: creds, AssumedRoleUser: user}, nil
}

// webClaims are the claims of a web identity token the service reads.
type webClaims struct {
	jwt.Claims
}

func (s *Service) assumeRoleWithWebIdentity(form url.Values) (any, *apiError) {
	role, name, d, aerr := s.roleRequest(form)
	if aerr != nil {
		return nil, aerr
	}
	raw := form.Get("WebIdentityToken")
	if l := rules.WebIdentityToken.Length; !l.Contains(int64(len(raw))) {
		return nil, bad("ValidationError", "WebIdentityToken must be %d to %d characters long, not %d.", l.Min, l.Max, len(raw))
	}
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.ES256, jose.ES384, jose.PS256})
	if err != nil {
		return nil, bad("InvalidIdentityToken", "The web identity token is not a signed JWT.")
	}
	var unverified webClaims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil {
		return nil, bad("InvalidIdentityToken", "The web identity token's claims cannot be read.")
	}
	prov, ok := s.identity.OIDCProviderFor(unverified.Issuer)
	if !ok {
		return nil, bad("InvalidIdentityToken", "No OpenIDConnect provider found in your account for %s", unverified.Issuer)
	}
	var claims webClaims
	if !verify(tok, prov.Keys, &claims) {
		return nil, bad("InvalidIdentityToken", "The web identity token's signature does not verify with the keys of OpenIDConnect provider %s.", prov.Arn)
	}
	err = claims.ValidateWithLeeway(jwt.Expected{Issuer: prov.URL, AnyAudience: prov.Audiences, Time: s.clock.Now()}, 0)
	switch {
	case errors.Is(err, jwt.ErrExpired):
		return nil, bad("ExpiredTokenException", "Token expired: current date/time %s must be before the expiration date/time %s", s.clock.Now().Format(time.RFC3339), claims.Expiry.Time().UTC().Format(time.RFC3339))
	case errors.Is(err, jwt.ErrInvalidAudience):
		return nil, bad("InvalidIdentityToken", "Incorrect token audience: %s is not an audience of OpenIDConnect provider %s.", strings.Join(claims.Audience, ", "), prov.Arn)
	case err != nil:
		return nil, bad("InvalidIdentityToken", "The web identity token is not valid: %s.", strings.TrimPrefix(err.Error(), "go-jose/go-jose/jwt: validation failed, "))
	case claims.Expiry == nil:
		return nil, bad("InvalidIdentityToken", "The web identity token has no expiry (exp).")
	}
	host := strings.TrimPrefix(prov.URL, "https://")
	keys := map[string]string{host + ":sub": claims.Subject, host + ":aud": matchedAudience(claims.Audience, prov.Audiences)}
	if r := s.identity.Trusts(role.Arn, "Federated", prov.Arn, "sts:AssumeRoleWithWebIdentity", keys); r.Decision != policy.Allow {
		return nil, &apiError{http.StatusForbidden, "AccessDenied", fmt.Sprintf("Not authorized to perform sts:AssumeRoleWithWebIdentity on %s for subject %q because %s.", role.Arn, claims.Subject, r.Reason())}
	}
	creds, user := s.issue(role, name, d)
	return webIdentityResult{
		Credentials: creds, AssumedRoleUser: user, SubjectFromWebIdentityToken: claims.Subject,
		Audience: keys[host+":aud"], Provider: prov.Arn,
	}, nil
}

// verify checks tok's signature with the key its header names (kid), or
// with each key of the set when it names none, and reads its claims.
func verify(tok *jwt.JSONWebToken, keys jose.JSONWebKeySet, claims *webClaims) bool {
	kid := ""
	if len(tok.Headers) > 0 {
		kid = tok.Headers[0].KeyID
	}
	for _, k := range keys.Keys {
		if (kid == "" || k.KeyID == kid) && tok.Claims(k, claims) == nil {
			return true
		}
	}
	return false
}

func matchedAudience(have, registered []string) string {
	for _, a := range have {
		for _, r := range registered {
			if a == r {
				return a
			}
		}
	}
	return ""
}

// issue makes a role session's temporary credentials and adds them to the
// credential store, with the role's ARN as the principal whose policies
// apply.
func (s *Service) issue(role identity.Role, session string, d time.Duration) (credentialsXML, assumedRoleUser) {
	c := sigv4.Credential{
		AccessKeyID:     "ASIA" + randomString(16),
		SecretAccessKey: randomString(40),
		SessionToken:    "FQoG" + randomString(120),
		Expires:         s.clock.Now().Add(d).Truncate(time.Second),
		Principal:       role.Arn,
		Account:         s.account,
	}
	s.creds.Add(c)
	arn := fmt.Sprintf("arn:cloud:sts::%s:assumed-role/%s/%s", s.account, role.Name, session)
	s.mu.Lock()
	s.sessions[c.AccessKeyID] = arn
	s.mu.Unlock()
	return credentialsXML{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken, Expiration: c.Expires},
		assumedRoleUser{AssumedRoleID: "AROA" + randomString(17) + ":" + session, Arn: arn}
}

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:n]
}

// writeResult writes <ActionResponse><ActionResult>result</ActionResult>
// <ResponseMetadata><RequestId/></ResponseMetadata></ActionResponse>.
func writeResult(w http.ResponseWriter, action string, result any) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(xml.Header))
	enc := xml.NewEncoder(w)
	start := xml.StartElement{Name: xml.Name{Local: action + "Response"}, Attr: []xml.Attr{{Name: xml.Name{Local: "xmlns"}, Value: xmlns}}}
	_ = enc.EncodeToken(start)
	_ = enc.EncodeElement(result, xml.StartElement{Name: xml.Name{Local: action + "Result"}})
	_ = enc.EncodeElement(struct {
		RequestID string `xml:"RequestId"`
	}{core.RequestID()}, xml.StartElement{Name: xml.Name{Local: "ResponseMetadata"}})
	_ = enc.EncodeToken(start.End())
	_ = enc.Flush()
}
