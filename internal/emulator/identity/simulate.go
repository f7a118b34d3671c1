package identity

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
)

// decide is the emulator's authorization rule for an identity action
// (identity:<Action>) of principal, with its reasons:
//
//   - a role's session (the principal is the role's ARN) has only what
//     the role's policies grant: every action needs an Allow and no Deny;
//   - a user with no policy at all (the emulator's default admin, unless
//     a test attaches one) may do everything;
//   - once a user has policies, CreateServiceSpecificCredential needs an
//     Allow (with its condition keys identity:ServiceSpecificCredentialAgeDays
//     and identity:ServiceSpecificCredentialServiceName) and no Deny, so
//     that the spec's cap policy plus the implicit deny refuses a longer
//     key;
//   - every other identity action of a user is refused only by an explicit
//     Deny, so a cap policy alone does not lock the caller out of managing
//     users.
//
// Callers hold s.mu.
func (s *Service) decide(principal, action, resource string, keys map[string]string) (bool, policy.Result) {
	docs := s.docsFor(principal)
	r := policy.Explain(docs, action, resource, keys)
	if strings.Contains(principal, ":role/") {
		return r.Decision == policy.Allow, r
	}
	if len(docs) == 0 {
		return true, policy.Result{Decision: policy.Allow}
	}
	return r.Decision == policy.Allow || (r.Decision == policy.ImplicitDeny && action != "identity:CreateServiceSpecificCredential"), r
}

type matchedStatementXML struct {
	SourcePolicyID   string `xml:"SourcePolicyId"`
	SourcePolicyType string `xml:"SourcePolicyType"`
}

type evaluationResultXML struct {
	EvalActionName    string                `xml:"EvalActionName"`
	EvalResourceName  string                `xml:"EvalResourceName"`
	EvalDecision      string                `xml:"EvalDecision"`
	MatchedStatements []matchedStatementXML `xml:"MatchedStatements>member"`
	// EvalDecisionReason is the emulator's own addition: the sentence its
	// policy engine gives, naming the statement whose condition is not met
	// when nothing allows the request.
	EvalDecisionReason string `xml:"EvalDecisionReason,omitempty"`
}

// simulatePrincipalPolicy evaluates ActionNames on ResourceArns (default
// *) with ContextEntries for the principal PolicySourceArn, by the rule
// the service itself applies (decide): one result per action and
// resource, in that order, each decided on its own resource with the same
// context entries. The results page as a list does (MaxItems 1..1000,
// default 100, and Marker).
func (s *Service) simulatePrincipalPolicy(_ *core.Caller, form url.Values) (any, *apiError) {
	principal := form.Get("PolicySourceArn")
	if principal == "" {
		return nil, invalidInput("PolicySourceArn is required.")
	}
	if s.missingRole(principal) {
		return nil, noSuchEntity("The role %s does not exist.", principal)
	}
	actions := listMembers(form, "ActionNames")
	if len(actions) == 0 {
		return nil, invalidInput("ActionNames is required.")
	}
	resources := listMembers(form, "ResourceArns")
	if len(resources) == 0 {
		resources = []string{"*"}
	}
	keys, aerr := contextKeys(form)
	if aerr != nil {
		return nil, aerr
	}
	var out []evaluationResultXML
	for _, a := range actions {
		if !strings.Contains(a, ":") {
			return nil, invalidInput("ActionNames member %q must be <service>:<action>.", a)
		}
		for _, res := range resources {
			out = append(out, s.evaluate(principal, a, res, keys))
		}
	}
	start, end, next, aerr := positionalPage(form, "simulation", len(out))
	if aerr != nil {
		return nil, aerr
	}
	return struct {
		EvaluationResults []evaluationResultXML `xml:"EvaluationResults>member"`
		IsTruncated       bool                  `xml:"IsTruncated"`
		Marker            string                `xml:"Marker,omitempty"`
	}{out[start:end], next != "", next}, nil
}

// contextKeys reads ContextEntries.member.N (N from 1): each key's first
// value.
func contextKeys(form url.Values) (map[string]string, *apiError) {
	keys := map[string]string{}
	for i := 1; ; i++ {
		p := fmt.Sprintf("ContextEntries.member.%d.", i)
		name := form.Get(p + "ContextKeyName")
		if name == "" {
			return keys, nil
		}
		values := listMembers(form, p+"ContextKeyValues")
		if len(values) == 0 {
			return nil, invalidInput("ContextEntries.member.%d.ContextKeyValues is required.", i)
		}
		keys[name] = values[0]
	}
}

// evaluate is the simulation's result for one action on one resource.
func (s *Service) evaluate(principal, action, resource string, keys map[string]string) evaluationResultXML {
	ok, r := s.decide(principal, action, resource, keys)
	e := evaluationResultXML{EvalActionName: action, EvalResourceName: resource, EvalDecision: "implicitDeny"}
	switch {
	case r.Decision == policy.ExplicitDeny:
		e.EvalDecision = "explicitDeny"
	case ok:
		e.EvalDecision = "allowed"
	}
	if r.Statement != "" {
		e.MatchedStatements = []matchedStatementXML{{SourcePolicyID: r.Statement, SourcePolicyType: "user"}}
	}
	if !ok {
		e.EvalDecisionReason = r.Reason()
	}
	return e
}

// listMembers reads prefix.member.N (N from 1).
func listMembers(form url.Values, prefix string) []string {
	var out []string
	for i := 1; ; i++ {
		v, ok := form[fmt.Sprintf("%s.member.%d", prefix, i)]
		if !ok {
			return out
		}
		out = append(out, first(v))
	}
}

// missingRole reports whether principal is the ARN of a role of this
// account that does not exist (one with policies of the admin API's
// exists for them): the service answers NoSuchEntity for it, as
// for any entity a request names that it cannot find, rather than deny it
// everything.
func (s *Service) missingRole(principal string) bool {
	if !strings.HasPrefix(principal, fmt.Sprintf("arn:cloud:identity::%s:role/", s.account)) {
		return false
	}
	_, ok := s.roleByArn(principal)
	return !ok && len(s.principalPolicies[strings.ToLower(principal)]) == 0
}
