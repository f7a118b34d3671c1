// Package identity emulates the identity service's IAM-compatible Query
// protocol: users, policy attachments and service-specific credentials.
package identity

import (
	"crypto/rand"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
)

const (
	apiVersion = "2010-05-08"
	xmlns      = "https://identity.cloud.example/doc/2010-05-08/"
)

// Service is the emulated identity service.
type Service struct {
	clock   *core.Clock
	account string

	mu    sync.Mutex
	users map[string]*user // by lower-case name: names are case-insensitive
	// principalPolicies are inline policies attached through the admin API,
	// by lower-case principal ARN.
	principalPolicies map[string][]PrincipalPolicy
	// custom are account-managed policies added with AddManagedPolicy.
	custom map[string]policy.Managed
	// roles (by lower-case name) and oidc providers (by issuer URL) serve
	// the token service; see roles.go.
	roles map[string]*Role
	oidc  map[string]*OIDCProvider
}

// New returns an empty identity service.
func New(clock *core.Clock, account string) *Service {
	s := &Service{clock: clock, account: account}
	s.Reset()
	return s
}

// Name implements core.Service.
func (s *Service) Name() string { return "identity" }

// SigningName implements core.Service.
func (s *Service) SigningName() string { return "identity" }

// Protocol implements core.Service.
func (s *Service) Protocol() core.Protocol { return core.Query }

// Match takes the Query protocol's POST /.
func (s *Service) Match(r *http.Request) bool {
	return r.URL.Path == "/" && r.Method == http.MethodPost
}

// Classify names the operation by its Action.
func (s *Service) Classify(_ *http.Request, body []byte) core.Operation {
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("Action") == "" {
		return core.Operation{Name: "Unknown"}
	}
	return core.Operation{Name: form.Get("Action")}
}

// Reset forgets every user.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users = map[string]*user{}
	s.principalPolicies = map[string][]PrincipalPolicy{}
	s.custom = map[string]policy.Managed{}
	s.roles, s.oidc = map[string]*Role{}, map[string]*OIDCProvider{}
}

// apiError is an error answer.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func invalidInput(format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, "InvalidInput", fmt.Sprintf(format, args...)}
}

func noSuchEntity(format string, args ...any) *apiError {
	return &apiError{http.StatusNotFound, "NoSuchEntity", fmt.Sprintf(format, args...)}
}

type handler func(s *Service, c *core.Caller, form url.Values) (any, *apiError)

var actions = map[string]handler{
	"CreateUser":                      (*Service).createUser,
	"GetUser":                         (*Service).getUser,
	"DeleteUser":                      (*Service).deleteUser,
	"ListUsers":                       (*Service).listUsers,
	"AttachUserPolicy":                (*Service).attachUserPolicy,
	"DetachUserPolicy":                (*Service).detachUserPolicy,
	"ListAttachedUserPolicies":        (*Service).listAttachedUserPolicies,
	"TagUser":                         (*Service).tagUser,
	"UntagUser":                       (*Service).untagUser,
	"ListUserTags":                    (*Service).listUserTags,
	"SimulatePrincipalPolicy":         (*Service).simulatePrincipalPolicy,
	"CreateServiceSpecificCredential": (*Service).createServiceSpecificCredential,
	"ListServiceSpecificCredentials":  (*Service).listServiceSpecificCredentials,
	"UpdateServiceSpecificCredential": (*Service).updateServiceSpecificCredential,
	"ResetServiceSpecificCredential":  (*Service).resetServiceSpecificCredential,
	"DeleteServiceSpecificCredential": (*Service).deleteServiceSpecificCredential,
}

// ServeHTTP answers one Query request.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		core.WriteQueryError(w, http.StatusBadRequest, "MalformedQueryString", "The request body is not a valid form.")
		return
	}
	form := r.PostForm
	action := form.Get("Action")
	if v := form.Get("Version"); v != apiVersion {
		core.WriteQueryError(w, http.StatusBadRequest, "InvalidParameterValue", fmt.Sprintf("Version must be %s, got %q.", apiVersion, v))
		return
	}
	h, ok := actions[action]
	if !ok {
		core.WriteQueryError(w, http.StatusBadRequest, "InvalidAction", fmt.Sprintf("Could not find operation %q for version %s.", action, apiVersion))
		return
	}
	// Answers carry the emulator's clock in Date, so clients that plan by
	// the service's time (key renewal) follow a clock that tests move.
	w.Header().Set("Date", s.clock.Now().Format(http.TimeFormat))
	caller := core.CallerFrom(r.Context())
	s.mu.Lock()
	var aerr *apiError
	if action != "CreateServiceSpecificCredential" { // authorized with its condition keys
		aerr = s.authorizeAction(caller, action, form)
	}
	if aerr == nil && action == "CreateUser" && form.Get("Tags.member.1.Key") != "" {
		// Tags on a create are a TagUser too, as on the real services.
		aerr = s.authorizeAction(caller, "TagUser", form)
	}
	var result any
	if aerr == nil {
		result, aerr = h(s, caller, form)
	}
	s.mu.Unlock()
	if aerr != nil {
		core.WriteQueryError(w, aerr.status, aerr.code, aerr.message)
		return
	}
	writeResult(w, action, result)
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
	if result == nil {
		result = struct{}{}
	}
	_ = enc.EncodeElement(result, xml.StartElement{Name: xml.Name{Local: action + "Result"}})
	_ = enc.EncodeElement(struct {
		RequestID string `xml:"RequestId"`
	}{core.RequestID()}, xml.StartElement{Name: xml.Name{Local: "ResponseMetadata"}})
	_ = enc.EncodeToken(start.End())
	_ = enc.Flush()
}

// randomID returns prefix plus n characters of [A-Z0-9].
func randomID(prefix string, n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	var sb strings.Builder
	sb.WriteString(prefix)
	for _, c := range b {
		sb.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return sb.String()
}
