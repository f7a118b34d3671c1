package identity

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
)

// PrincipalPolicy is an inline policy an operator attached to a principal
// through the admin API (any principal ARN, such as the emulator's default
// arn:cloud:identity::123456789012:user/emulator-admin).
type PrincipalPolicy struct {
	ID       string          `json:"id"`
	Name     string          `json:"name,omitempty"`
	Document policy.Document `json:"document"`
}

// docsFor returns every policy that applies to a principal: the managed
// policies attached to the identity user with that ARN (if it is one), then
// the inline policies attached through the admin API. Callers hold s.mu.
func (s *Service) docsFor(principal string) []policy.Document {
	var docs []policy.Document
	for _, u := range s.users {
		if !strings.EqualFold(u.Arn, principal) {
			continue
		}
		for _, arn := range u.Policies {
			if m, ok := s.managedPolicy(arn); ok {
				docs = append(docs, m.Document)
			}
		}
	}
	docs = append(docs, s.rolePolicies(principal)...)
	for _, p := range s.principalPolicies[strings.ToLower(principal)] {
		docs = append(docs, p.Document)
	}
	return docs
}

// Authorize evaluates a request of principalArn against the managed
// policies attached to that identity user and the policies attached to the
// principal through the admin API. A principal with no policy at all is
// implicitly denied: the runtime service asks this for every key use.
func (s *Service) Authorize(principalArn, action, resource string, ctxKeys map[string]string) policy.Decision {
	s.mu.Lock()
	defer s.mu.Unlock()
	return policy.Evaluate(s.docsFor(principalArn), action, resource, ctxKeys)
}

// authorizeCall authorizes one identity API call of the caller by the
// rule of decide. asked describes the request for the message. Callers
// hold s.mu.
func (s *Service) authorizeCall(c *core.Caller, action, resource string, keys map[string]string, asked func() string) *apiError {
	if c == nil || c.Principal == "" {
		return nil
	}
	full := "identity:" + action
	c.Authorized = append(c.Authorized, full)
	ok, r := s.decide(c.Principal, full, resource, keys)
	if ok {
		return nil
	}
	msg := fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s", c.Principal, full, resource)
	if asked != nil {
		msg += " (asked for " + asked() + ")"
	}
	msg += " because " + r.Reason() + "."
	return &apiError{http.StatusForbidden, "AccessDenied", msg}
}

// Allows decides a request of another service (the search domain
// service's) by the rule the identity service applies to its own
// (decide): reason explains a refusal.
func (s *Service) Allows(principal, action, resource string, keys map[string]string) (ok bool, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok, r := s.decide(principal, action, resource, keys)
	return ok, r.Reason()
}

// authorizeAction is authorizeCall for the actions without condition keys.
func (s *Service) authorizeAction(c *core.Caller, action string, form url.Values) *apiError {
	resource := "*"
	if action == "SimulatePrincipalPolicy" {
		// Simulating a principal is governed on that principal, so a plan
		// role may be allowed to simulate the apply role and nothing else.
		return s.authorizeCall(c, action, form.Get("PolicySourceArn"), nil, nil)
	}
	if name := form.Get("UserName"); name != "" {
		if u, ok := s.users[strings.ToLower(name)]; ok {
			resource = u.Arn
		} else {
			resource = fmt.Sprintf("arn:cloud:identity::%s:user/%s", s.account, name)
		}
	}
	return s.authorizeCall(c, action, resource, nil, nil)
}

// AttachPrincipalPolicy attaches an inline policy document to a principal
// ARN and returns the attachment's id. The document is checked with
// policy.Parse.
func (s *Service) AttachPrincipalPolicy(principal, name string, document []byte) (string, error) {
	if principal == "" {
		return "", fmt.Errorf("principal is required")
	}
	d, err := policy.Parse(document)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := PrincipalPolicy{ID: randomID("ANPP", 17), Name: name, Document: d}
	key := strings.ToLower(principal)
	s.principalPolicies[key] = append(s.principalPolicies[key], p)
	return p.ID, nil
}

// DetachPrincipalPolicy removes one inline policy of a principal by id, or
// all of them when id is empty. It reports whether anything was removed.
func (s *Service) DetachPrincipalPolicy(principal, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(principal)
	list := s.principalPolicies[key]
	if id == "" {
		delete(s.principalPolicies, key)
		return len(list) > 0
	}
	for i, p := range list {
		if p.ID == id {
			s.principalPolicies[key] = append(list[:i:i], list[i+1:]...)
			return true
		}
	}
	return false
}

// PrincipalPolicies lists the inline policies attached to a principal.
func (s *Service) PrincipalPolicies(principal string) []PrincipalPolicy {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]PrincipalPolicy{}, s.principalPolicies[strings.ToLower(principal)]...)
}
