package search

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// Authorization is not shown in the specification. The emulator governs
// each operation by the policy action search:<Operation> on the domain's
// ARN, arn:cloud:search:<region>:<account>:domain/<DomainName>, decided by
// the identity service's policies of the caller. UpdateDomainConfig
// carries the condition key search:DryRun ("true" for a dry run), so a
// plan role may dry-run a change without being allowed to make it.

// Authorizer decides whether principal may take action on resource with
// the condition keys; reason explains a refusal.
type Authorizer func(principal, action, resource string, keys map[string]string) (ok bool, reason string)

// AuthorizeWith makes the service authorize every signed request with a.
// Without one, every request is allowed.
func (s *Service) AuthorizeWith(a Authorizer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.authorizer = a
}

// DomainArn is the ARN policies name domain name by.
func (s *Service) DomainArn(name string) string {
	return fmt.Sprintf("arn:cloud:search:%s:%s:domain/%s", s.region, s.account, name)
}

// authorize decides operation op on domain name for the request's caller
// (core.CallerFrom) and records the action on it.
func (s *Service) authorize(r *http.Request, name, op string, body []byte) *apiError {
	c := core.CallerFrom(r.Context())
	s.mu.Lock()
	a := s.authorizer
	s.mu.Unlock()
	if c == nil || c.Principal == "" || a == nil {
		return nil
	}
	action, resource := "search:"+op, s.DomainArn(name)
	var keys map[string]string
	if op == "UpdateDomainConfig" {
		keys = map[string]string{"search:DryRun": strconv.FormatBool(s.Classify(r, body).DryRun)}
	}
	c.Authorized = append(c.Authorized, action)
	if ok, reason := a(c.Principal, action, resource, keys); !ok {
		return errorf(http.StatusForbidden, "AccessDeniedException",
			"User: %s is not authorized to perform: %s on resource: %s because %s.", c.Principal, action, resource, reason)
	}
	return nil
}
