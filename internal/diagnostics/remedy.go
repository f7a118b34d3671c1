// Package diagnostics is the one home of what the provider tells a user to
// do about an error. It holds the remedy for each kind of error a service
// returns (Remedies, one table per operation), the diagnostics of a
// create's outcome in the create-recovery protocol (internal/recovery:
// AddKeyCreateOutcome, AddUserCreateOutcome, facts and remedies together,
// since one outcome reads as one story), and those of the plan's check
// that the principal that applies may create a key.
//
// It does not hold a diagnostic about one argument's value found while
// validating or planning (beside its validator or ModifyPlan), nor a
// resource's plan-time notices and its checks on import and delete of
// whom a key belongs to (beside that resource).
package diagnostics

import (
	"errors"
	"strings"

	"github.com/aws/smithy-go"
)

// Remedy is what a diagnostic says about errors of some kinds.
type Remedy struct {
	// Kinds are the clients' error kinds (errors.Is, such as
	// client.ErrThrottled); Codes are the error codes of the token
	// service, whose errors come through the AWS SDK (smithy.APIError).
	// Match, when set, decides for errors that have no kind or code.
	Kinds []error
	Codes []string
	Match func(error) bool
	// Summary titles the diagnostic where the kind decides it.
	Summary string
	// Attribute is the argument the diagnostic is about ("" for the
	// resource as a whole): AddIdentityError puts it there.
	Attribute string
	// Text is the advice; For fills its {name} placeholders.
	Text string
}

// Remedies are the remedies for the errors one operation meets: the first
// whose kind matches the error, else Otherwise.
type Remedies struct {
	ByKind    []Remedy
	Otherwise Remedy
}

// For returns the remedy for err, with each {name} placeholder of its
// Summary and Text replaced by the value that follows name in fields; an
// error of the AWS SDK also fills {code} and {message}.
func (rs Remedies) For(err error, fields ...string) Remedy {
	r := rs.match(err)
	var api smithy.APIError
	if errors.As(err, &api) {
		fields = append([]string{"code", api.ErrorCode(), "message", api.ErrorMessage()}, fields...)
	}
	if len(fields) > 0 {
		fill := strings.NewReplacer(placeholders(fields)...)
		r.Summary, r.Text = fill.Replace(r.Summary), fill.Replace(r.Text)
	}
	return r
}

// match is the first remedy whose kind or code is err's.
func (rs Remedies) match(err error) Remedy {
	var api smithy.APIError
	hasCode := errors.As(err, &api)
	for _, r := range rs.ByKind {
		if r.Match != nil && r.Match(err) {
			return r
		}
		for _, k := range r.Kinds {
			if errors.Is(err, k) {
				return r
			}
		}
		for _, c := range r.Codes {
			if hasCode && api.ErrorCode() == c {
				return r
			}
		}
	}
	return rs.Otherwise
}

// placeholders turns name, value pairs into "{name}", value pairs.
func placeholders(fields []string) []string {
	out := make([]string, len(fields))
	for i := 0; i+1 < len(fields); i += 2 {
		out[i], out[i+1] = "{"+fields[i]+"}", fields[i+1]
	}
	return out
}
