package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// RegionMessage is the spec's refusal of a key used outside its region,
// word for word.
const RegionMessage = "Credential should be scoped to a valid region"

// authenticate finds who a bearer key speaks for, refuses it when it is not
// usable here, and asks the identity service whether its principal may call
// <prefix>:CallWithBearerToken; expires is when the key stops working (zero
// for a long-term key without an expiry). It never puts the key into a
// message.
func (s *Service) authenticate(r *http.Request, rt route, now time.Time) (tokenType, principal string, expires time.Time, _ *apiError) {
	auth := r.Header.Get("Authorization")
	scheme, key, _ := strings.Cut(auth, " ")
	key = strings.TrimSpace(key)
	if !strings.EqualFold(scheme, "Bearer") || key == "" {
		return "", "", time.Time{}, &apiError{http.StatusUnauthorized, "MissingAuthenticationTokenException",
			"The request needs an API key in the header Authorization: Bearer <API_KEY>."}
	}
	s.mu.Lock()
	s.hashes[TokenHash(key)] = true
	s.mu.Unlock()

	if strings.HasPrefix(key, sigv4.BearerPrefix) {
		tok, verr := s.creds.VerifyBearer(key, now)
		if verr != nil {
			return ShortTerm, "", time.Time{}, shortTermRefusal(verr)
		}
		if tok.Region != rt.region {
			return ShortTerm, tok.Principal, tok.ExpiresAt, &apiError{http.StatusForbidden, "AccessDeniedException", RegionMessage}
		}
		return ShortTerm, tok.Principal, tok.ExpiresAt, s.authorize(tok.Principal, ShortTerm, rt)
	}

	info, ok := s.identity.LookupServiceAPIKey(key)
	switch {
	case !ok:
		return LongTerm, "", time.Time{}, &apiError{http.StatusForbidden, "UnrecognizedClientException",
			"The API key included in the request is invalid: it was never issued, was replaced by a reset, or was deleted."}
	case info.Status != "Active":
		return LongTerm, info.UserArn, info.Expiration, &apiError{http.StatusForbidden, "AccessDeniedException",
			fmt.Sprintf("The API key %s is %s. Reactivate it or use another key.", info.CredentialID, info.Status)}
	case !now.Before(info.Expiration):
		return LongTerm, info.UserArn, info.Expiration, &apiError{http.StatusForbidden, "ExpiredTokenException",
			fmt.Sprintf("The API key %s expired at %s.", info.CredentialID, info.Expiration.UTC().Format(time.RFC3339))}
	case info.Region != rt.region:
		return LongTerm, info.UserArn, info.Expiration, &apiError{http.StatusForbidden, "AccessDeniedException", RegionMessage}
	}
	return LongTerm, info.UserArn, info.Expiration, s.authorize(info.UserArn, LongTerm, rt)
}

// authorize evaluates <prefix>:CallWithBearerToken on the model with the
// condition key <prefix>:bearerTokenType. For an identity user (every
// long-term key; a short-term key signed by a user's credentials) and for a
// role session both an explicit and an implicit deny refuse. A signing principal that is no
// identity user (the emulator's admin credentials) is the account's
// administrator, as in the identity service: only an explicit deny refuses.
func (s *Service) authorize(principal, tokenType string, rt route) *apiError {
	action := rt.prefix + ":CallWithBearerToken"
	resource := fmt.Sprintf("arn:cloud:%s:%s::model/%s", PrefixMain, rt.region, rt.model)
	keys := map[string]string{rt.prefix + ":bearerTokenType": tokenType}
	d := s.identity.Authorize(principal, action, resource, keys)
	if d == policy.ImplicitDeny && !s.isUser(principal) && !s.identity.IsRole(principal) {
		d = policy.Allow
	}
	switch d {
	case policy.Allow:
		return nil
	case policy.ExplicitDeny:
		return &apiError{http.StatusForbidden, "AccessDeniedException", fmt.Sprintf(
			"User: %s is not authorized to perform: %s on resource: %s with an explicit deny in an identity-based policy (for a %s key).",
			principal, action, resource, tokenType)}
	default:
		return &apiError{http.StatusForbidden, "AccessDeniedException", fmt.Sprintf(
			"User: %s is not authorized to perform: %s on resource: %s because no identity-based policy allows the %s action (for a %s key).",
			principal, action, resource, action, tokenType)}
	}
}

// shortTermRefusal maps a refused short-term key to the runtime's answer.
func shortTermRefusal(e *sigv4.Error) *apiError {
	code := map[string]string{
		"malformed": "UnrecognizedClientException",
		"unknown":   "UnrecognizedClientException",
		"expired":   "ExpiredTokenException",
		"signature": "InvalidSignatureException",
	}[e.Condition]
	if code == "" {
		code = "UnrecognizedClientException"
	}
	return &apiError{http.StatusForbidden, code, e.Message}
}

// isUser reports whether principal is the ARN of an identity user.
func (s *Service) isUser(principal string) bool {
	for _, u := range s.identity.State().Users {
		if strings.EqualFold(u.Arn, principal) {
			return true
		}
	}
	return false
}
