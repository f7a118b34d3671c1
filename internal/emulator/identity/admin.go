package identity

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

var _ core.AdminService = (*Service)(nil)

// Admin serves the identity service's admin routes, mounted by the emulator
// at /_admin/identity/ (see README.md).
func (s *Service) Admin() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /state", s.adminState)
	mux.HandleFunc("GET /policies", adminPolicyCatalogue)
	mux.HandleFunc("POST /principal-policies", s.adminAttachPrincipalPolicy)
	mux.HandleFunc("GET /principal-policies", s.adminListPrincipalPolicies)
	mux.HandleFunc("DELETE /principal-policies", s.adminDetachPrincipalPolicy)
	s.adminRoles(mux)
	return mux
}

func (s *Service) adminState(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, s.State())
}

// adminPolicyCatalogue lists the managed policies the emulator knows.
func adminPolicyCatalogue(w http.ResponseWriter, _ *http.Request) {
	type item struct {
		Arn         string          `json:"arn"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Document    policy.Document `json:"document"`
	}
	var out []item
	for _, m := range policy.Catalogue() {
		out = append(out, item{m.Arn, m.Name, m.Description, m.Document})
	}
	core.WriteJSON(w, http.StatusOK, map[string]any{"policies": out})
}

func (s *Service) adminAttachPrincipalPolicy(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Principal string          `json:"principal"`
		Name      string          `json:"name"`
		Document  json.RawMessage `json:"document"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		adminError(w, "the body must be JSON with principal and document: "+err.Error())
		return
	}
	id, err := s.AttachPrincipalPolicy(in.Principal, in.Name, adminDocument(in.Document))
	if err != nil {
		adminError(w, err.Error())
		return
	}
	core.WriteJSON(w, http.StatusCreated, map[string]any{"id": id, "principal": in.Principal})
}

func (s *Service) adminListPrincipalPolicies(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Query().Get("principal")
	if p == "" {
		adminError(w, "the query needs principal=<ARN>")
		return
	}
	core.WriteJSON(w, http.StatusOK, map[string]any{"principal": p, "policies": s.PrincipalPolicies(p)})
}

func (s *Service) adminDetachPrincipalPolicy(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("principal") == "" {
		adminError(w, "the query needs principal=<ARN> (and id=<policy id> to remove only one)")
		return
	}
	if !s.DetachPrincipalPolicy(q.Get("principal"), q.Get("id")) {
		core.WriteJSON(w, http.StatusNotFound, map[string]string{"message": "no such principal policy"})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// adminDocument is a policy document sent to an admin route, which may
// also come as a JSON string holding the policy.
func adminDocument(raw json.RawMessage) []byte {
	doc := []byte(raw)
	var str string
	if json.Unmarshal(doc, &str) == nil {
		doc = []byte(str)
	}
	return doc
}

func adminError(w http.ResponseWriter, msg string) {
	core.WriteJSON(w, http.StatusBadRequest, map[string]string{"message": msg})
}

// State is what the identity service holds; key values are never part of it.
type State struct {
	Users             []UserState                  `json:"users"`
	PrincipalPolicies map[string][]PrincipalPolicy `json:"principal_policies"`
}

// UserState is one user with its attachments and keys.
type UserState struct {
	UserName    string            `json:"user_name"`
	Arn         string            `json:"arn"`
	Policies    []string          `json:"attached_policies"`
	Credentials []CredentialState `json:"credentials"`
}

// CredentialState is a key without its value.
type CredentialState struct {
	ID          string     `json:"service_specific_credential_id"`
	ServiceName string     `json:"service_name"`
	Status      string     `json:"status"`
	Region      string     `json:"region"`
	CreateDate  time.Time  `json:"create_date"`
	Expiration  *time.Time `json:"expiration_date,omitempty"`
}

// State returns a snapshot of the users, their attachments and keys.
func (s *Service) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Users: []UserState{}, PrincipalPolicies: map[string][]PrincipalPolicy{}}
	for _, u := range s.users {
		us := UserState{UserName: u.Name, Arn: u.Arn, Policies: append([]string{}, u.Policies...), Credentials: []CredentialState{}}
		for _, k := range u.Credentials {
			cs := CredentialState{ID: k.ID, ServiceName: k.ServiceName, Status: k.Status, Region: k.Region, CreateDate: k.CreateDate}
			if !k.Expiration.IsZero() {
				e := k.Expiration
				cs.Expiration = &e
			}
			us.Credentials = append(us.Credentials, cs)
		}
		st.Users = append(st.Users, us)
	}
	sort.Slice(st.Users, func(i, j int) bool { return st.Users[i].UserName < st.Users[j].UserName })
	for k, v := range s.principalPolicies {
		st.PrincipalPolicies[k] = append([]PrincipalPolicy{}, v...)
	}
	return st
}

// CredentialIDs lists the ids of a user's keys (nil for an unknown user).
func (s *Service) CredentialIDs(userName string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return nil
	}
	out := []string{}
	for _, k := range u.Credentials {
		out = append(out, k.ID)
	}
	return out
}

// AttachedPolicyArns lists the managed policies attached to a user.
func (s *Service) AttachedPolicyArns(userName string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return nil
	}
	return append([]string{}, u.Policies...)
}

// AttachBehindTheBack attaches a managed policy out of band.
func (s *Service) AttachBehindTheBack(userName, policyArn string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return fmt.Errorf("no user %s", userName)
	}
	m, aerr := s.checkPolicyArn(policyArn)
	if aerr != nil {
		return aerr
	}
	u.Policies = append(u.Policies, m.Arn)
	return nil
}

// DetachBehindTheBack detaches a managed policy out of band; it reports
// whether it was attached.
func (s *Service) DetachBehindTheBack(userName, policyArn string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return false
	}
	for i, p := range u.Policies {
		if strings.EqualFold(p, policyArn) {
			u.Policies = append(u.Policies[:i:i], u.Policies[i+1:]...)
			return true
		}
	}
	return false
}

// CreateCredentialBehindTheBack creates a key out of band (no quota, no
// policies) and returns its id and value. Like every long-term key it
// expires: days is CredentialAgeDays, within its range.
func (s *Service) CreateCredentialBehindTheBack(userName, serviceName string, days int, region string) (id, value string, err error) {
	if !ageDays.Contains(int64(days)) {
		return "", "", fmt.Errorf("credential age %d days: a key lives %d to %d days", days, ageDays.Min, ageDays.Max)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return "", "", fmt.Errorf("no user %s", userName)
	}
	now := s.clock.Now().Truncate(time.Second)
	k := &credential{ID: randomID("ACCA", 17), ServiceName: serviceName, Value: newKeyValue(), Status: "Active", CreateDate: now, Region: region,
		Expiration: now.Add(time.Duration(days) * 24 * time.Hour)}
	u.Credentials = append(u.Credentials, k)
	return k.ID, k.Value, nil
}

// DeleteCredentialBehindTheBack deletes a key out of band; it reports
// whether it existed.
func (s *Service) DeleteCredentialBehindTheBack(userName, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return false
	}
	for i, k := range u.Credentials {
		if k.ID == id {
			u.Credentials = append(u.Credentials[:i:i], u.Credentials[i+1:]...)
			return true
		}
	}
	return false
}

// UnmarkKeysBehindTheBack removes, out of band, every tag of user that
// marks a key as held (the provider's terraform-cloud:key:<id>, and a
// create's record settled as "held <id> <time>"), as a user moving a key
// between configurations does; it returns how many it removed.
func (s *Service) UnmarkKeysBehindTheBack(userName string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return 0
	}
	n := 0
	for i := 0; i < len(u.Tags); i++ {
		t := u.Tags[i]
		if strings.HasPrefix(t.Key, "terraform-cloud:key:") || (strings.HasPrefix(t.Key, "terraform-cloud:creating:") && strings.HasPrefix(t.Value, "held ")) {
			u.Tags = append(u.Tags[:i:i], u.Tags[i+1:]...)
			i--
			n++
		}
	}
	return n
}

// AddManagedPolicy adds an account-managed policy that users can attach
// (arn:cloud:identity::<account>:policy/<name>), beside the catalogue.
func (s *Service) AddManagedPolicy(arn string, document []byte) error {
	if rules.PolicyARN.CheckString(arn) != nil {
		return fmt.Errorf("%q is not a policy ARN", arn)
	}
	d, err := policy.Parse(document)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.custom[strings.ToLower(arn)] = policy.Managed{Arn: arn, Name: arn[strings.LastIndex(arn, "/")+1:], Document: d}
	return nil
}
