// Package client holds the HTTP stack that every service client shares:
// SigV4 signing, retries with jittered backoff, request logging with secrets
// masked, and the typed errors the service clients return.
package client

import (
	"errors"
	"fmt"
	"net/http"
)

// Sentinel errors. Service clients wrap them in *APIError so callers can use
// errors.Is without knowing a service's wire codes.
var (
	ErrNotFound          = errors.New("not found")
	ErrAlreadyExists     = errors.New("already exists")
	ErrLimitExceeded     = errors.New("limit exceeded")
	ErrDeleteConflict    = errors.New("delete conflict")
	ErrThrottled         = errors.New("throttled")
	ErrInvalidInput      = errors.New("invalid input")
	ErrValidation        = errors.New("validation failed")
	ErrAccessDenied      = errors.New("access denied")
	ErrAuthentication    = errors.New("authentication failed")
	ErrInternal          = errors.New("internal service failure")
	ErrInvalidType       = errors.New("invalid type")
	ErrDisabledOperation = errors.New("disabled operation")
	ErrBase              = errors.New("request could not be processed")
	// ErrOutcomeUnknown means a request that is not safe to repeat was sent
	// but no answer came back: the service may or may not have applied it.
	ErrOutcomeUnknown = errors.New("outcome unknown")
)

// APIError is an error answer from a service.
type APIError struct {
	Service    string
	Operation  string
	StatusCode int
	Code       string
	Message    string
	RequestID  string
	// Kind is one of the sentinel errors above, chosen by the service client
	// from Code (or from StatusCode when Code is unknown).
	Kind error
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%s %s: HTTP %d %s: %s", e.Service, e.Operation, e.StatusCode, e.Code, e.Message)
	if e.RequestID != "" {
		s += " (request id " + e.RequestID + ")"
	}
	return s
}

func (e *APIError) Unwrap() error { return e.Kind }

// StatusCode names an HTTP status for an answer without an error code: its
// text, or "HTTP <code>" for a status with no standard name.
func StatusCode(status int) string {
	if s := http.StatusText(status); s != "" {
		return s
	}
	return fmt.Sprintf("HTTP %d", status)
}

// KindForStatus is the fallback classification of an error code a client
// does not know.
func KindForStatus(status int) error {
	switch {
	case status == 404:
		return ErrNotFound
	case status == 401:
		return ErrAuthentication
	case status == 403:
		return ErrAccessDenied
	case status == 429:
		return ErrThrottled
	case status >= 500:
		return ErrInternal
	case status == 409:
		return ErrLimitExceeded
	default:
		return ErrBase
	}
}

// OutcomeUnknownError reports a non-idempotent request whose answer was lost.
type OutcomeUnknownError struct {
	Service   string
	Operation string
	Err       error
}

func (e *OutcomeUnknownError) Error() string {
	return fmt.Sprintf("%s %s: the request was sent but no answer arrived, so it may or may not have been applied: %v", e.Service, e.Operation, e.Err)
}

func (e *OutcomeUnknownError) Unwrap() []error { return []error{ErrOutcomeUnknown, e.Err} }
