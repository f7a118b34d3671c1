package identity

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Rules of service-specific credentials (long-term API keys).
const (
	// MaxCredentialsPerService is how many keys one user may hold for one
	// service.
	MaxCredentialsPerService = 2
	// KeyPrefix starts every key value: the value is KeyPrefix followed by
	// the unpadded URL-safe base64 of 48 random bytes (70 characters in all).
	KeyPrefix = "CLOUDK"
	// ModelsServiceName is the ServiceName of the model runtime service.
	ModelsServiceName = "models.cloud.example"
)

// ServiceNames are the services that accept service-specific credentials.
var ServiceNames = []string{ModelsServiceName}

// credential is a service-specific credential (the long-term API key).
type credential struct {
	ID          string
	ServiceName string
	Value       string
	Status      string
	CreateDate  time.Time
	// Expiration is when the key stops working: every key has one.
	Expiration time.Time
	Region     string
}

// credentialXML is the wire shape; Value is set only by Create and Reset.
type credentialXML struct {
	UserName                    string     `xml:"UserName"`
	ServiceName                 string     `xml:"ServiceName"`
	ServiceSpecificCredentialID string     `xml:"ServiceSpecificCredentialId"`
	ServiceAPIKeyValue          string     `xml:"ServiceApiKeyValue,omitempty"`
	Status                      string     `xml:"Status"`
	CreateDate                  time.Time  `xml:"CreateDate"`
	ExpirationDate              *time.Time `xml:"ExpirationDate,omitempty"`
}

func (c *credential) xml(u *user, withValue bool) credentialXML {
	x := credentialXML{
		UserName: u.Name, ServiceName: c.ServiceName, ServiceSpecificCredentialID: c.ID,
		Status: c.Status, CreateDate: c.CreateDate,
	}
	if withValue {
		x.ServiceAPIKeyValue = c.Value
	}
	if !c.Expiration.IsZero() {
		e := c.Expiration
		x.ExpirationDate = &e
	}
	return x
}

func newKeyValue() string {
	b := make([]byte, 48)
	_, _ = rand.Read(b)
	return KeyPrefix + base64.RawURLEncoding.EncodeToString(b)
}

func knownServiceName(name string) bool {
	for _, n := range ServiceNames {
		if n == name {
			return true
		}
	}
	return false
}

func checkServiceName(name string) *apiError {
	if name == "" {
		return invalidInput("ServiceName is required.")
	}
	if !knownServiceName(name) {
		return &apiError{http.StatusBadRequest, "NotSupportedService",
			fmt.Sprintf("ServiceName %q is not a service that accepts service-specific credentials (supported: %s).", name, strings.Join(ServiceNames, ", "))}
	}
	return nil
}

func (s *Service) createServiceSpecificCredential(c *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	svc := form.Get("ServiceName")
	if err := checkServiceName(svc); err != nil {
		return nil, err
	}
	days, err := credentialAgeDays(form.Get("CredentialAgeDays"))
	if err != nil {
		return nil, err
	}
	if err := s.authorizeCreateCredential(c, u, svc, days); err != nil {
		return nil, err
	}
	if err := checkCredentialQuota(u, svc); err != nil {
		return nil, err
	}
	k := s.newCredential(c, svc, days)
	u.Credentials = append(u.Credentials, k)
	return struct {
		Credential credentialXML `xml:"ServiceSpecificCredential"`
	}{k.xml(u, true)}, nil
}

// ageDays bounds CredentialAgeDays (the shared rule). CredentialAgeDays is
// required: the spec's long-term key lives "until a configured expiration
// date", chosen at creation.
var ageDays = *rules.CredentialAgeDays.Range

// credentialAgeDays parses CredentialAgeDays, which a create must carry.
func credentialAgeDays(v string) (int, *apiError) {
	if v == "" {
		return 0, invalidInput("CredentialAgeDays is required: a long-term key is created with its expiration chosen (%d to %d days).", ageDays.Min, ageDays.Max)
	}
	n, perr := strconv.Atoi(v)
	if perr != nil || !ageDays.Contains(int64(n)) {
		return 0, invalidInput("CredentialAgeDays %q must be an integer from %d to %d.", v, ageDays.Min, ageDays.Max)
	}
	return n, nil
}

// authorizeCreateCredential checks the caller may create a key for svc on
// the user, with the service name and age as condition keys.
func (s *Service) authorizeCreateCredential(c *core.Caller, u *user, svc string, days int) *apiError {
	keys := map[string]string{
		"identity:ServiceSpecificCredentialServiceName": svc,
		"identity:ServiceSpecificCredentialAgeDays":     strconv.Itoa(days),
	}
	return s.authorizeCall(c, "CreateServiceSpecificCredential", u.Arn, keys, func() string {
		return fmt.Sprintf("a key for %s with CredentialAgeDays %d", svc, days)
	})
}

// checkCredentialQuota refuses a key past the per-user, per-service quota.
func checkCredentialQuota(u *user, svc string) *apiError {
	n := 0
	for _, k := range u.Credentials {
		if k.ServiceName == svc {
			n++
		}
	}
	if n >= MaxCredentialsPerService {
		return &apiError{http.StatusConflict, "LimitExceeded",
			fmt.Sprintf("Cannot exceed quota for ServiceSpecificCredentialsPerUserPerService: %d. User %s already has %d credentials for %s.", MaxCredentialsPerService, u.Name, n, svc)}
	}
	return nil
}

// newCredential is a new active key for svc, created now (to the second),
// in the caller's region, expiring after days.
func (s *Service) newCredential(c *core.Caller, svc string, days int) *credential {
	now := s.clock.Now().Truncate(time.Second)
	k := &credential{
		ID:          randomID("ACCA", 17),
		ServiceName: svc,
		Value:       newKeyValue(),
		Status:      "Active",
		CreateDate:  now,
	}
	if c != nil {
		k.Region = c.Region
	}
	k.Expiration = now.Add(time.Duration(days) * 24 * time.Hour)
	return k
}

// findCredential returns the user and the credential named by the form.
func (s *Service) findCredential(form url.Values) (*user, *credential, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, nil, err
	}
	id := form.Get("ServiceSpecificCredentialId")
	if id == "" {
		return nil, nil, invalidInput("ServiceSpecificCredentialId is required.")
	}
	if rules.CredentialID.CheckString(id) != nil {
		return nil, nil, invalidInput("ServiceSpecificCredentialId %q is not a credential id (20 to 128 letters and digits).", id)
	}
	for _, k := range u.Credentials {
		if k.ID == id {
			return u, k, nil
		}
	}
	return nil, nil, noSuchEntity("The Service Specific Credential with id %s cannot be found for user %s.", id, u.Name)
}

func (s *Service) listServiceSpecificCredentials(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	svc := form.Get("ServiceName")
	if svc != "" {
		if err := checkServiceName(svc); err != nil {
			return nil, err
		}
	}
	out := struct {
		Credentials []credentialXML `xml:"ServiceSpecificCredentials>member"`
	}{Credentials: []credentialXML{}}
	for _, k := range u.Credentials {
		if svc == "" || k.ServiceName == svc {
			out.Credentials = append(out.Credentials, k.xml(u, false))
		}
	}
	return out, nil
}

func (s *Service) updateServiceSpecificCredential(_ *core.Caller, form url.Values) (any, *apiError) {
	_, k, err := s.findCredential(form)
	if err != nil {
		return nil, err
	}
	switch st := form.Get("Status"); st {
	case "Active", "Inactive":
		k.Status = st
	case "":
		return nil, invalidInput("Status is required (Active or Inactive).")
	default:
		return nil, invalidInput("Status %q must be Active or Inactive.", st)
	}
	return nil, nil
}

// resetServiceSpecificCredential gives the key a new value; the id, status
// and dates stay, and the old value stops working at once.
func (s *Service) resetServiceSpecificCredential(_ *core.Caller, form url.Values) (any, *apiError) {
	u, k, err := s.findCredential(form)
	if err != nil {
		return nil, err
	}
	k.Value = newKeyValue()
	return struct {
		Credential credentialXML `xml:"ServiceSpecificCredential"`
	}{k.xml(u, true)}, nil
}

func (s *Service) deleteServiceSpecificCredential(_ *core.Caller, form url.Values) (any, *apiError) {
	u, k, err := s.findCredential(form)
	if err != nil {
		return nil, err
	}
	for i, c := range u.Credentials {
		if c == k {
			u.Credentials = append(u.Credentials[:i:i], u.Credentials[i+1:]...)
			break
		}
	}
	return nil, nil
}

// KeyInfo describes a long-term API key for the runtime service.
type KeyInfo struct {
	UserName, UserArn, ServiceName, CredentialID, Status, Region string
	// Expiration is when the key stops working: every key has one.
	Expiration time.Time
}

// LookupServiceAPIKey finds the key with this value. It reports false for a
// value never issued, replaced by a reset, or whose key was deleted. The
// caller checks Status, Expiration and Region itself.
func (s *Service) LookupServiceAPIKey(value string) (KeyInfo, bool) {
	if !strings.HasPrefix(value, KeyPrefix) {
		return KeyInfo{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.users {
		for _, k := range u.Credentials {
			if subtle.ConstantTimeCompare([]byte(k.Value), []byte(value)) == 1 {
				return KeyInfo{
					UserName: u.Name, UserArn: u.Arn, ServiceName: k.ServiceName, CredentialID: k.ID,
					Status: k.Status, Region: k.Region, Expiration: k.Expiration,
				}, true
			}
		}
	}
	return KeyInfo{}, false
}
