package identity

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
)

// Role is a role the token service lets principals assume: its trust policy
// says who may, its managed policies (and the inline policies attached to
// its ARN through /_admin/identity/principal-policies) what a session may do.
type Role struct {
	Name               string          `json:"name"`
	Arn                string          `json:"arn"`
	TrustPolicy        json.RawMessage `json:"trust_policy"`
	Policies           []string        `json:"policies"`
	MaxSessionDuration time.Duration   `json:"-"`
	// MaxSession is MaxSessionDuration as the admin API shows it ("1h0m0s").
	MaxSession string `json:"max_session_duration"`
	trust      []trustStatement
}

// trustStatement is a statement of a trust policy: a policy statement with
// a Principal instead of a Resource.
type trustStatement struct {
	Sid       string                                  `json:"Sid,omitempty"`
	Effect    string                                  `json:"Effect"`
	Principal map[string]policy.StringList            `json:"Principal"`
	Action    policy.StringList                       `json:"Action"`
	Condition map[string]map[string]policy.StringList `json:"Condition,omitempty"`
}

// OIDCProvider is an OpenID Connect issuer whose tokens
// AssumeRoleWithWebIdentity accepts.
type OIDCProvider struct {
	Arn       string             `json:"arn"`
	URL       string             `json:"url"`
	Audiences []string           `json:"audiences"`
	Keys      jose.JSONWebKeySet `json:"jwks"`
}

var roleNameRe = regexp.MustCompile(`^[\w+=,.@-]{1,64}$`)

// DefaultMaxSessionDuration is a role's maximum session length unless set.
const DefaultMaxSessionDuration = time.Hour

// PutRole creates or replaces a role. trust is its trust policy: Version
// 2012-10-17 and statements with Effect, Principal ({"AWS": ARNs} or
// {"Federated": OIDC provider ARN}), Action (sts:AssumeRole,
// sts:AssumeRoleWithWebIdentity) and an optional Condition.
func (s *Service) PutRole(name string, trust []byte, policies []string, maxSession time.Duration) (Role, error) {
	if !roleNameRe.MatchString(name) {
		return Role{}, fmt.Errorf("role name %q must be 1 to 64 characters of letters, digits and +=,.@_-", name)
	}
	stmts, err := parseTrust(trust)
	if err != nil {
		return Role{}, err
	}
	if maxSession == 0 {
		maxSession = DefaultMaxSessionDuration
	}
	if maxSession < time.Hour || maxSession > 12*time.Hour {
		return Role{}, fmt.Errorf("max_session_duration must be between 1h and 12h")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, arn := range policies {
		if _, ok := s.managedPolicy(arn); !ok {
			return Role{}, fmt.Errorf("policy %s does not exist", arn)
		}
	}
	r := &Role{
		Name: name, Arn: fmt.Sprintf("arn:cloud:identity::%s:role/%s", s.account, name),
		TrustPolicy: json.RawMessage(trust), Policies: append([]string{}, policies...), MaxSessionDuration: maxSession, MaxSession: maxSession.String(), trust: stmts,
	}
	s.roles[strings.ToLower(name)] = r
	return *r, nil
}

func parseTrust(doc []byte) ([]trustStatement, error) {
	var d struct {
		Version   string           `json:"Version"`
		Statement []trustStatement `json:"Statement"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("the trust policy is malformed: %w", err)
	}
	if d.Version != policy.Version || len(d.Statement) == 0 {
		return nil, fmt.Errorf("the trust policy needs Version %q and at least one Statement", policy.Version)
	}
	for i, st := range d.Statement {
		if len(st.Principal) == 0 {
			return nil, fmt.Errorf("trust policy Statement[%d] has no Principal", i)
		}
		// The policy engine checks Effect, Action and Condition.
		if _, err := policy.Parse(st.asPolicy().JSON()); err != nil {
			return nil, fmt.Errorf("trust policy Statement[%d]: %w", i, err)
		}
	}
	return d.Statement, nil
}

func (t trustStatement) asPolicy() policy.Document {
	return policy.Document{Version: policy.Version, Statement: []policy.Statement{{
		Sid: t.Sid, Effect: t.Effect, Action: t.Action, Resource: policy.StringList{"*"}, Condition: t.Condition,
	}}}
}

// DeleteRole removes a role; it reports whether it existed.
func (s *Service) DeleteRole(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.roles[strings.ToLower(name)]
	delete(s.roles, strings.ToLower(name))
	return ok
}

// RoleByArn returns the role with that ARN.
func (s *Service) RoleByArn(arn string) (Role, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.roleByArn(arn)
	if !ok {
		return Role{}, false
	}
	return *r, true
}

// IsRole reports whether arn is a role's: its sessions have only what the
// role's policies grant.
func (s *Service) IsRole(arn string) bool {
	_, ok := s.RoleByArn(arn)
	return ok
}

// roleByArn: callers hold s.mu.
func (s *Service) roleByArn(arn string) (*Role, bool) {
	name, ok := strings.CutPrefix(arn, fmt.Sprintf("arn:cloud:identity::%s:role/", s.account))
	if !ok {
		return nil, false
	}
	r, ok := s.roles[strings.ToLower(name)]
	return r, ok && r.Arn == arn
}

// Trusts evaluates a role's trust policy for a principal: principalType is
// "AWS" (principal is the caller's ARN) or "Federated" (the OIDC provider's
// ARN); action sts:AssumeRole or sts:AssumeRoleWithWebIdentity; keys the
// request's condition keys (sts:ExternalId, <issuer>:sub, <issuer>:aud).
func (s *Service) Trusts(roleArn, principalType, principal, action string, keys map[string]string) policy.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.roleByArn(roleArn)
	if !ok {
		return policy.Result{Decision: policy.ImplicitDeny}
	}
	account := ""
	if principalType == "AWS" {
		if parts := strings.Split(principal, ":"); len(parts) > 4 {
			account = parts[4]
		}
	}
	var docs []policy.Document
	for _, st := range r.trust {
		for _, p := range st.Principal[principalType] {
			if p == "*" || p == principal || (account != "" && (p == account || p == "arn:cloud:identity::"+account+":root")) {
				docs = append(docs, st.asPolicy())
				break
			}
		}
	}
	return policy.Explain(docs, action, "*", keys)
}

// rolePolicies are the managed policies attached to the role with that
// ARN, if it is one. Callers hold s.mu.
func (s *Service) rolePolicies(principal string) []policy.Document {
	r, ok := s.roleByArn(principal)
	if !ok {
		return nil
	}
	var docs []policy.Document
	for _, arn := range r.Policies {
		if m, ok := s.managedPolicy(arn); ok {
			docs = append(docs, m.Document)
		}
	}
	return docs
}

// AddOIDCProvider registers an OpenID Connect issuer: its URL (the tokens'
// iss), the audiences its tokens may carry, and the public keys that sign
// them. It returns the provider's ARN.
func (s *Service) AddOIDCProvider(issuer string, audiences []string, keys jose.JSONWebKeySet) (string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("url must be an https URL with no query, such as https://token.actions.githubusercontent.com")
	}
	if len(audiences) == 0 {
		return "", fmt.Errorf("audiences needs at least one audience (client id)")
	}
	if len(keys.Keys) == 0 {
		return "", fmt.Errorf("jwks needs at least one public key")
	}
	for _, k := range keys.Keys {
		if !k.Valid() || !k.IsPublic() {
			return "", fmt.Errorf("jwks key %q must be a valid public key", k.KeyID)
		}
	}
	p := &OIDCProvider{
		Arn: fmt.Sprintf("arn:cloud:identity::%s:oidc-provider/%s", s.account, u.Host+strings.TrimSuffix(u.Path, "/")),
		URL: strings.TrimSuffix(issuer, "/"), Audiences: audiences, Keys: keys,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oidc[p.URL] = p
	return p.Arn, nil
}

// OIDCProviderFor returns the provider registered for an issuer URL.
func (s *Service) OIDCProviderFor(issuer string) (OIDCProvider, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.oidc[strings.TrimSuffix(issuer, "/")]
	if !ok {
		return OIDCProvider{}, false
	}
	return *p, true
}

// adminRoles adds the admin routes of roles and OIDC providers.
func (s *Service) adminRoles(mux *http.ServeMux) {
	mux.HandleFunc("POST /roles", s.adminPutRole)
	mux.HandleFunc("GET /roles", s.adminListRoles)
	mux.HandleFunc("DELETE /roles", s.adminDeleteRole)
	mux.HandleFunc("POST /oidc-providers", s.adminAddOIDCProvider)
}

func (s *Service) adminPutRole(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name               string          `json:"name"`
		TrustPolicy        json.RawMessage `json:"trust_policy"`
		Policies           []string        `json:"policies"`
		MaxSessionDuration string          `json:"max_session_duration"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		adminError(w, "the body must be JSON with name and trust_policy: "+err.Error())
		return
	}
	var maxSession time.Duration
	if in.MaxSessionDuration != "" {
		d, err := time.ParseDuration(in.MaxSessionDuration)
		if err != nil {
			adminError(w, "max_session_duration must be a duration such as 12h")
			return
		}
		maxSession = d
	}
	role, err := s.PutRole(in.Name, adminDocument(in.TrustPolicy), in.Policies, maxSession)
	if err != nil {
		adminError(w, err.Error())
		return
	}
	core.WriteJSON(w, http.StatusCreated, role)
}

// adminListRoles lists the roles by name.
func (s *Service) adminListRoles(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	out := make([]Role, 0, len(s.roles))
	for _, r := range s.roles {
		out = append(out, *r)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	core.WriteJSON(w, http.StatusOK, map[string]any{"roles": out})
}

func (s *Service) adminDeleteRole(w http.ResponseWriter, r *http.Request) {
	if !s.DeleteRole(r.URL.Query().Get("name")) {
		core.WriteJSON(w, http.StatusNotFound, map[string]string{"message": "no such role"})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Service) adminAddOIDCProvider(w http.ResponseWriter, r *http.Request) {
	var in struct {
		URL       string             `json:"url"`
		Audiences []string           `json:"audiences"`
		JWKS      jose.JSONWebKeySet `json:"jwks"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		adminError(w, "the body must be JSON with url, audiences and jwks: "+err.Error())
		return
	}
	arn, err := s.AddOIDCProvider(in.URL, in.Audiences, in.JWKS)
	if err != nil {
		adminError(w, err.Error())
		return
	}
	core.WriteJSON(w, http.StatusCreated, map[string]string{"arn": arn})
}
