// Package runtime emulates the model runtime service: Converse with a
// long-term or short-term bearer API key, per region. See README.md.
package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Token types, as the condition key <prefix>:bearerTokenType names them.
const (
	LongTerm  = "LONG_TERM"
	ShortTerm = "SHORT_TERM"
)

// Endpoint prefixes of the policy actions.
const (
	PrefixMain = "models"
	PrefixAlt  = "models-alt"
)

var (
	// /region/<r> (optional) /alt (optional) /model/<id>/converse.
	pathRe = regexp.MustCompile(`^(?:/region/([^/]+))?(/alt)?/model/([^/]+)/converse$`)
)

// Use is one authenticated-or-refused runtime call. It holds no secret.
type Use struct {
	Time      time.Time
	Region    string
	Endpoint  string // "models" or "models-alt"
	ModelID   string
	TokenType string // LONG_TERM, SHORT_TERM or "" when the key was unreadable
	Principal string
	// KeyExpires is when the key stops working: a short-term key's signing
	// time plus its X-Amz-Expires (zero when the key was unreadable).
	KeyExpires time.Time
	Status     int
	Code       string
}

// Service is the emulated runtime.
type Service struct {
	clock    *core.Clock
	identity *identity.Service
	creds    *sigv4.Store
	home     string

	mu     sync.Mutex
	uses   []Use
	hashes map[string]bool
}

// New returns the runtime of an emulator whose home region is home.
func New(clock *core.Clock, id *identity.Service, creds *sigv4.Store, home string) *Service {
	return &Service{clock: clock, identity: id, creds: creds, home: home, hashes: map[string]bool{}}
}

// Name is the service's name in the log.
func (s *Service) Name() string { return "runtime" }

// SigningName is empty: the runtime authenticates bearer keys itself.
func (s *Service) SigningName() string { return "" }

// Protocol is REST/JSON.
func (s *Service) Protocol() core.Protocol { return core.JSON }

// Match claims /model/..., /alt/model/... and /region/<r>/... paths.
func (s *Service) Match(r *http.Request) bool {
	p := r.URL.Path
	return strings.HasPrefix(p, "/model/") || strings.HasPrefix(p, "/alt/model/") || strings.HasPrefix(p, "/region/")
}

// Classify names every runtime request Converse.
func (s *Service) Classify(*http.Request, []byte) core.Operation {
	return core.Operation{Name: "Converse"}
}

// Reset forgets the record of uses.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uses, s.hashes = nil, map[string]bool{}
}

// Uses lists the runtime calls so far (no key, no token, no body).
func (s *Service) Uses() []Use {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Use(nil), s.uses...)
}

// SawTokenHash reports whether a bearer key whose SHA-256 (hex) is sum was
// presented, so tests can recognise a key found in a log without the
// emulator keeping the key itself.
func (s *Service) SawTokenHash(sum string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hashes[sum]
}

// TokenHash is the hex SHA-256 that SawTokenHash expects.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// route is a parsed runtime path.
type route struct {
	region, prefix, model string
}

func (s *Service) parse(r *http.Request) (route, *apiError) {
	m := pathRe.FindStringSubmatch(r.URL.EscapedPath())
	if m == nil {
		return route{}, &apiError{http.StatusNotFound, "UnknownOperationException", "The runtime answers POST {runtime_url}/model/<model_id>/converse only."}
	}
	rt := route{region: s.home, prefix: PrefixMain}
	if m[1] != "" {
		rt.region = m[1]
	}
	if m[2] != "" {
		rt.prefix = PrefixAlt
	}
	model, err := url.PathUnescape(m[3])
	switch {
	case !rules.Region.MatchString(rt.region):
		return rt, &apiError{http.StatusNotFound, "UnknownOperationException", "No runtime serves region " + rt.region + "."}
	case r.Method != http.MethodPost:
		return rt, &apiError{http.StatusMethodNotAllowed, "UnknownOperationException", "Converse is POST."}
	case err != nil || rules.ModelID.CheckString(model) != nil:
		return rt, &apiError{http.StatusBadRequest, "ValidationException", "The model identifier must be 1 to 2048 characters of letters, digits and ._:/+-."}
	}
	rt.model = model
	return rt, nil
}

// ServeHTTP authenticates the bearer key, authorizes its principal, then
// answers the conversation.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	use := Use{Time: s.clock.Now()}
	rt, aerr := s.parse(r)
	use.Region, use.Endpoint, use.ModelID = rt.region, rt.prefix, rt.model
	var body []byte
	if aerr == nil {
		use.TokenType, use.Principal, use.KeyExpires, aerr = s.authenticate(r, rt, use.Time)
	}
	if aerr == nil {
		body, aerr = converse(r)
	}
	if aerr != nil {
		use.Status, use.Code = aerr.status, aerr.code
		s.record(use)
		core.WriteJSONError(w, aerr.status, aerr.code, aerr.message)
		return
	}
	use.Status = http.StatusOK
	s.record(use)
	w.Header().Set("X-Amzn-RequestId", core.RequestID())
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

func (s *Service) record(u Use) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uses = append(s.uses, u)
}

type apiError struct {
	status        int
	code, message string
}
