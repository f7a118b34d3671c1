// Package search emulates the search domain service's REST/JSON API:
// UpdateDomainConfig with Basic and Verbose dry runs, DescribeDryRunProgress,
// DescribeDomainChangeProgress, DescribeDomainConfig and ListDomainNames.
// A domain lives in one region: a request signed for another region does
// not see it. Progress is computed
// from the emulator's clock, never from goroutines. See README.md.
package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

const pathPrefix = "/2021-01-01/search/"

// Service is the emulated search domain service.
type Service struct {
	clock   *core.Clock
	account string
	region  string

	mu       sync.Mutex
	domains  map[domainKey]*domain
	pace     Pace
	failNext *failPlan
	records  []UpdateRecord // records.go
	seq      int
	// authorizer decides signed requests (authz.go).
	authorizer Authorizer
}

// New returns the service with its demo domain.
func New(clock *core.Clock, account, region string) *Service {
	s := &Service{clock: clock, account: account, region: region}
	s.Reset()
	return s
}

// Name implements core.Service.
func (s *Service) Name() string { return "search" }

// SigningName implements core.Service.
func (s *Service) SigningName() string { return SigningName }

// Protocol implements core.Service.
func (s *Service) Protocol() core.Protocol { return core.JSON }

// Match takes every path under the version prefix.
func (s *Service) Match(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, pathPrefix) }

// Reset forgets every domain, change and dry run, restores the demo domain
// and the default pace.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.domains = map[domainKey]*domain{}
	s.pace = DefaultPace
	s.failNext = nil
	s.records, s.seq = nil, 0
	if err := s.addDomainLocked(demoDomain()); err != nil {
		panic("search emulator: demo domain is invalid: " + err.Error())
	}
}

// route splits a request path into the domain name and the operation.
// ListDomainNames is GET on the collection of domains itself.
func route(r *http.Request) (name, op string) {
	if r.URL.Path == pathPrefix+"domain" {
		if r.Method == http.MethodGet {
			return "", opListDomainNames
		}
		return "", "Unknown"
	}
	rest, ok := strings.CutPrefix(r.URL.Path, pathPrefix+"domain/")
	if !ok {
		return "", "Unknown"
	}
	name, leaf, ok := strings.Cut(rest, "/")
	if !ok {
		return name, "Unknown"
	}
	switch {
	case leaf == "config" && r.Method == http.MethodPost:
		return name, "UpdateDomainConfig"
	case leaf == "config" && r.Method == http.MethodGet:
		return name, "DescribeDomainConfig"
	case leaf == "dryRun" && r.Method == http.MethodGet:
		return name, "DescribeDryRunProgress"
	case leaf == "progress" && r.Method == http.MethodGet:
		return name, "DescribeDomainChangeProgress"
	}
	return name, "Unknown"
}

// Classify names the operation; an UpdateDomainConfig is a dry run when its
// body says DryRun true.
func (s *Service) Classify(r *http.Request, body []byte) core.Operation {
	name, op := route(r)
	if op != "UpdateDomainConfig" {
		return core.Operation{Name: op, Resource: name}
	}
	var b struct {
		DryRun bool `json:"DryRun"`
	}
	_ = json.Unmarshal(body, &b)
	return core.Operation{Name: op, DryRun: b.DryRun, Resource: name}
}

// apiError is an error answer in the spec's terms.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// The spec's error types and statuses (ResourceNotFoundException is 409).
func validationError(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, "ValidationException", format, args...)
}

func notFound(format string, args ...any) *apiError {
	return errorf(http.StatusConflict, "ResourceNotFoundException", format, args...)
}

func baseError(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, "BaseException", format, args...)
}

func invalidType(format string, args ...any) *apiError {
	return errorf(http.StatusConflict, "InvalidTypeException", format, args...)
}

func limitExceeded(format string, args ...any) *apiError {
	return errorf(http.StatusConflict, "LimitExceededException", format, args...)
}

func internalError(format string, args ...any) *apiError {
	return errorf(http.StatusInternalServerError, "InternalException", format, args...)
}

func disabledOperation(format string, args ...any) *apiError {
	return errorf(http.StatusConflict, "DisabledOperationException", format, args...)
}

// ServeHTTP answers one request.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Answers carry the emulator's clock in Date, as the identity service's
	// do: clients judge the age of a dry run by the service's clock.
	w.Header().Set("Date", s.clock.Now().UTC().Format(http.TimeFormat))
	name, op, body, aerr := readRequest(r)
	if aerr == nil {
		aerr = s.authorize(r, name, op, body)
	}
	if aerr != nil {
		core.WriteJSONError(w, aerr.status, aerr.code, aerr.message)
		return
	}
	// The lock is held until the answer is written: it may share maps
	// with the domain's state.
	s.mu.Lock()
	defer s.mu.Unlock()
	var out any
	if op == opListDomainNames {
		out, aerr = s.listDomainNames(r)
	} else {
		out, aerr = s.answer(name, op, r, body)
	}
	if aerr != nil {
		core.WriteJSONError(w, aerr.status, aerr.code, aerr.message)
		return
	}
	core.WriteJSON(w, http.StatusOK, out)
}

// answer runs operation op on the domain name, brought up to the clock's
// time first. The caller holds s.mu.
func (s *Service) answer(name, op string, r *http.Request, body []byte) (any, *apiError) {
	d, ok := s.domains[domainKey{region: s.requestRegion(r), name: name}]
	if !ok {
		return nil, notFound("Domain not found: %s", name)
	}
	now := s.clock.Now()
	s.settle(d, now)
	return s.operate(op, d, r, body, now)
}

// readRequest is the domain name, operation and body of a request, checked
// before any domain is looked up.
func readRequest(r *http.Request) (name, op string, body []byte, _ *apiError) {
	name, op = route(r)
	if op == "Unknown" {
		return name, op, nil, errorf(http.StatusNotFound, "UnknownOperationException", "No operation answers %s %s.", r.Method, r.URL.Path)
	}
	if op == opListDomainNames {
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
		}
		return name, op, body, checkReadRequest(op, body)
	}
	if err := validDomainName(name); err != nil {
		return name, op, nil, validationError("DomainName: %s", err.Error())
	}
	if r.Body != nil {
		// The emulator has already read and bounded the body.
		body, _ = io.ReadAll(r.Body)
	}
	if op == "UpdateDomainConfig" {
		return name, op, body, checkContentType(r, body)
	}
	return name, op, body, checkReadRequest(op, body)
}

// checkContentType refuses an UpdateDomainConfig body that is not sent as
// JSON: the spec's request is a JSON body, and a body of another media
// type is not read as one.
func checkContentType(r *http.Request, body []byte) *apiError {
	ct := r.Header.Get("Content-Type")
	if len(bytes.TrimSpace(body)) == 0 && ct == "" {
		return nil
	}
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return validationError("The request body must be sent with Content-Type: application/json, not %q.", ct)
	}
	return nil
}

// operate runs operation op on the domain d.
func (s *Service) operate(op string, d *domain, r *http.Request, body []byte, now time.Time) (any, *apiError) {
	switch op {
	case "UpdateDomainConfig":
		who := ""
		if c := core.CallerFrom(r.Context()); c != nil {
			who = c.AccessKeyID
		}
		return s.updateDomainConfig(d, who, body, now, core.DryRunOverrideFrom(r.Context()))
	case "DescribeDomainConfig":
		return map[string]any{"DomainConfig": s.renderDomainConfig(d, now)}, nil
	case "DescribeDryRunProgress":
		return s.describeDryRun(d, r, now)
	case "DescribeDomainChangeProgress":
		return s.describeChange(d, r, now)
	}
	return nil, nil
}
