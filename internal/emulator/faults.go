package emulator

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// FaultKind is what an injected fault does to a matching request.
type FaultKind string

// The faults the emulator can inject.
const (
	// FaultError answers with a server error (Status, default 500) before
	// the operation runs.
	FaultError FaultKind = "error"
	// FaultThrottle answers with the protocol's throttling error before the
	// operation runs.
	FaultThrottle FaultKind = "throttle"
	// FaultDrop closes the connection without answering, before the
	// operation runs.
	FaultDrop FaultKind = "drop"
	// FaultDelay waits Delay, then runs the operation and answers normally.
	FaultDelay FaultKind = "delay"
	// FaultLostResponse runs the operation (its effect is kept), then closes
	// the connection without answering.
	FaultLostResponse FaultKind = "lost_response"
	// FaultEcho answers, before the operation runs, with an error that
	// quotes part of a secret the request carried (Field, Chars, Offset,
	// Where), as a careless service might in a message or a request id.
	FaultEcho FaultKind = "echo"
	// FaultVerdict makes a search domain's dry runs (Domain; empty for
	// any) report DeploymentType, the findings following it, as a module's
	// or a policy's test of a blue/green verdict needs.
	FaultVerdict FaultKind = "verdict"
	// FaultValidationFailure adds a validation failure (Code, Severity,
	// Message) to a search domain's Verbose dry runs.
	FaultValidationFailure FaultKind = "validation_failure"
	// FaultHoldBefore holds the request before the operation runs, as a
	// network that has not yet delivered it, until the caller goes away or
	// Delay (default DefaultHold) passes; then it hangs up and the
	// operation never runs. Holding is set while it holds. Resumed
	// (ResumeHeld), the request goes on and is answered: a pause between
	// two calls of its caller.
	FaultHoldBefore FaultKind = "hold_before"
	// FaultHoldAnswer runs the operation (its effect is kept), then holds
	// the answer until the caller goes away or Delay (default DefaultHold)
	// passes, and hangs up without answering. Holding is set once the
	// operation has run. Resumed (ResumeHeld), the answer is sent.
	FaultHoldAnswer FaultKind = "hold_answer"
)

// DefaultHold bounds how long a hold fault holds a request whose caller
// stays.
const DefaultHold = 5 * time.Minute

// The secrets an echo fault can quote; any other Field names a member of
// the request body (a JSON member at any depth, or a form parameter).
const (
	EchoBearerToken     = "bearer_token"      // of the Authorization header
	EchoSessionToken    = "session_token"     // the X-Amz-Security-Token header
	EchoSecretAccessKey = "secret_access_key" // of the access key that signed the request
)

// Where an echo fault puts the quoted part.
const (
	EchoInMessage      = "message" // inside the message
	EchoAtMessageStart = "message_start"
	EchoAtMessageEnd   = "message_end"
	EchoInRequestID    = "request_id" // the request id (header or XML RequestId)
	// EchoInValidationFailure serves the request and answers with success
	// (200), adding to its DryRunProgressStatus or ChangeProgressStatus a
	// validation failure (Code, default EchoFailureCode; Advisory) whose
	// message quotes the part, as a service reporting on a change might.
	// A hit on a request that carries no such secret (DescribeDryRunProgress)
	// quotes what an earlier hit quoted, as a service keeps its findings.
	EchoInValidationFailure = "validation_failure"
)

// EchoFailureCode is the code of an echo fault's validation failure.
const EchoFailureCode = "ADV_ECHOED_INPUT"

// defaultEchoChars is how much of the secret an echo fault quotes when
// Chars is not set.
const defaultEchoChars = 40

// Fault is one injected fault. Empty Service or Operation match any.
type Fault struct {
	Service   string    `json:"service,omitempty"`
	Operation string    `json:"operation,omitempty"`
	Kind      FaultKind `json:"kind"`
	Status    int       `json:"status,omitempty"`
	// Code is the error an error fault answers with (the exception name of
	// a JSON service, such as BaseException, or a Query error code); empty
	// is the protocol's internal error. With a Code, Status may be 4xx.
	Code  string        `json:"code,omitempty"`
	Delay time.Duration `json:"-"`
	// DelayText is Delay in Go duration syntax, for the admin API.
	DelayText string `json:"delay,omitempty"`
	// DryRun, when set, matches only dry runs ("only") or only real
	// requests ("exclude").
	DryRun string `json:"dry_run,omitempty"`
	// Times is how many matching requests the fault hits; 0 means once,
	// -1 means every one.
	Times int `json:"times,omitempty"`
	// Field, Chars, Offset and Where steer an echo fault: which secret it
	// quotes, how many of its characters (default 40; at most what is
	// left), from which one (0 is the first), and where.
	Field  string `json:"field,omitempty"`
	Chars  int    `json:"chars,omitempty"`
	Offset int    `json:"offset,omitempty"`
	Where  string `json:"where,omitempty"`
	// Domain, for a verdict or validation_failure fault, is the search
	// domain whose dry runs it hits (empty: any); DeploymentType is a
	// verdict's; Severity and Message (with Code) a validation failure's.
	Domain         string `json:"domain,omitempty"`
	DeploymentType string `json:"deployment_type,omitempty"`
	Severity       string `json:"severity,omitempty"`
	Message        string `json:"message,omitempty"`
	// Quoted is what a validation_failure echo fault quoted last.
	Quoted string `json:"quoted,omitempty"`
	// Skip lets the first Skip matching requests through before the fault
	// hits: Skip 2 hits the third.
	Skip int `json:"skip,omitempty"`
	// Passed counts the matching requests let through for Skip.
	Passed int `json:"passed,omitempty"`
	// Holding is set while a hold fault holds its request: from then on the
	// caller may be stopped at the point the kind names. The fault leaves
	// the list when the request is let go.
	Holding bool `json:"holding,omitempty"`
	// Hits counts the requests hit so far.
	Hits int `json:"hits"`
	// stored is the fault in the list that a hit (a copy) came from.
	stored *Fault
	// resume is closed when a hold fault's request is to go on (Resume).
	resume chan struct{}
}

func (f *Fault) validate() error {
	switch f.Kind {
	case FaultError, FaultThrottle, FaultDrop, FaultLostResponse:
	case FaultVerdict, FaultValidationFailure:
		return f.validateDryRunFault()
	case FaultEcho:
		if err := f.validateEcho(); err != nil {
			return err
		}
	case FaultHoldBefore, FaultHoldAnswer:
		if err := f.parseDelay(); err != nil {
			return err
		}
		if f.Delay == 0 {
			f.Delay = DefaultHold
		}
		if f.Times > 1 || f.Times < 0 {
			return fmt.Errorf("times %d: a hold fault holds one request", f.Times)
		}
	case FaultDelay:
		if err := f.parseDelay(); err != nil {
			return err
		}
		if f.Delay <= 0 {
			return fmt.Errorf("a delay fault needs a positive delay")
		}
	default:
		return fmt.Errorf("unknown fault kind %q (error, throttle, drop, delay, lost_response, echo, verdict, validation_failure, hold_before, hold_answer)", f.Kind)
	}
	if f.Skip < 0 {
		return fmt.Errorf("skip %d cannot be negative", f.Skip)
	}
	return f.validateRest()
}

// parseDelay reads DelayText into Delay when Delay is not set.
func (f *Fault) parseDelay() error {
	if f.Delay == 0 && f.DelayText != "" {
		d, err := time.ParseDuration(f.DelayText)
		if err != nil {
			return fmt.Errorf("delay %q: %w", f.DelayText, err)
		}
		f.Delay = d
	}
	if f.Delay < 0 {
		return fmt.Errorf("delay %s cannot be negative", f.Delay)
	}
	return nil
}

// validateRest checks the members every kind shares.
func (f *Fault) validateRest() error {
	if f.Kind != FaultEcho && (f.Field != "" || f.Chars != 0 || f.Offset != 0 || f.Where != "") {
		return fmt.Errorf("field, chars, offset and where steer an echo fault only")
	}
	if f.Domain != "" || f.DeploymentType != "" || f.Severity != "" || f.Message != "" {
		return fmt.Errorf("domain, deployment_type, severity and message belong to a verdict or validation_failure fault")
	}
	switch {
	case f.Code != "" && f.Kind != FaultError && f.Kind != FaultEcho:
		return fmt.Errorf("code %q: only an error fault answers with a code", f.Code)
	case f.Code != "" && f.Status != 0 && (f.Status < 400 || f.Status > 599):
		return fmt.Errorf("status %d: an error fault answers with a 4xx or 5xx status", f.Status)
	case f.Code == "" && f.Status != 0 && (f.Status < 500 || f.Status > 599):
		return fmt.Errorf("status %d: an error fault without a code answers with a 5xx status", f.Status)
	}
	if f.Kind == FaultEcho && f.Code == "" && f.Status != 0 && (f.Status < 400 || f.Status > 599) {
		return fmt.Errorf("status %d: an echo fault answers with a 4xx or 5xx status", f.Status)
	}
	if f.DryRun != "" && f.DryRun != "only" && f.DryRun != "exclude" {
		return fmt.Errorf("dry_run %q: use only or exclude", f.DryRun)
	}
	if f.Times == 0 {
		f.Times = 1
	}
	return nil
}

func (f *Fault) validateEcho() error {
	switch {
	case f.Field == "":
		return fmt.Errorf("an echo fault needs a field: %s, %s, %s or a request body member such as MasterUserPassword", EchoBearerToken, EchoSessionToken, EchoSecretAccessKey)
	case f.Chars < 0 || f.Offset < 0:
		return fmt.Errorf("chars and offset cannot be negative")
	}
	switch f.Where {
	case "":
		f.Where = EchoInMessage
	case EchoInMessage, EchoAtMessageStart, EchoAtMessageEnd, EchoInRequestID:
	case EchoInValidationFailure:
		if f.Status != 0 {
			return fmt.Errorf("status %d: an echo in a validation failure answers with success", f.Status)
		}
	default:
		return fmt.Errorf("where %q: use %s, %s, %s, %s or %s", f.Where, EchoInMessage, EchoAtMessageStart, EchoAtMessageEnd, EchoInRequestID, EchoInValidationFailure)
	}
	if f.Chars == 0 {
		f.Chars = defaultEchoChars
	}
	return nil
}

// echoed is the part of secret the fault quotes: Chars characters from
// Offset, or as many as are left.
func (f *Fault) echoed(secret string) string {
	r := []rune(secret)
	from := min(f.Offset, len(r))
	return string(r[from:min(from+f.Chars, len(r))])
}

// echoMessage and echoRequestID are the error's message and request id
// with part quoted where the fault says.
func (f *Fault) echoMessage(part string) (message, requestID string) {
	what := "the request's " + f.Field
	switch f.Where {
	case EchoAtMessageStart:
		return part + " was refused: injected fault quoting " + what + ".", ""
	case EchoAtMessageEnd:
		return "Injected fault: the service refused " + what + ": " + part, ""
	case EchoInRequestID:
		return "Injected fault: the service refused the request; its request id quotes " + what + ".", "req-" + part
	}
	return "Injected fault: the value '" + part + "' of " + what + " is not valid here.", ""
}

// bodyField is the first string value of a member named name in a JSON
// body (at any depth) or a form body.
func bodyField(body []byte, name string) string {
	var doc any
	if json.Unmarshal(body, &doc) == nil {
		return jsonField(doc, name)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return ""
	}
	keys := slices.Sorted(maps.Keys(form))
	for _, k := range keys {
		if k == name || strings.HasSuffix(k, "."+name) {
			return form.Get(k)
		}
	}
	return ""
}

func jsonField(v any, name string) string {
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v[name].(string); ok {
			return s
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if s := jsonField(v[k], name); s != "" {
				return s
			}
		}
	case []any:
		for _, c := range v {
			if s := jsonField(c, name); s != "" {
				return s
			}
		}
	}
	return ""
}

type faults struct {
	mu   sync.Mutex
	list []*Fault
}

func (fs *faults) add(f Fault) error {
	if err := f.validate(); err != nil {
		return err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = append(fs.list, &f)
	return nil
}

// take returns the first fault matching the request and counts the hit.
// Faults that shape a dry run's answer (verdict, validation_failure) are
// not taken here: they combine, and overrides takes them.
func (fs *faults) take(service string, op core.Operation) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.list {
		if f.dryRunOverride() != nil || !f.matches(service, op) {
			continue
		}
		if f.isHold() && f.Hits > 0 {
			continue // holding its one request
		}
		if f.Passed < f.Skip {
			f.Passed++
			continue
		}
		return fs.hitLocked(f)
	}
	return nil
}

// overrides takes every verdict and validation_failure fault matching the
// request and returns what they impose together (the first verdict, every
// finding) and the kind of the first, or nil.
func (fs *faults) overrides(service string, op core.Operation) (*core.DryRunOverride, FaultKind) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var out *core.DryRunOverride
	var first FaultKind
	for _, f := range slices.Clone(fs.list) {
		o := f.dryRunOverride()
		if o == nil || !f.matches(service, op) {
			continue
		}
		fs.hitLocked(f)
		if out == nil {
			out, first = &core.DryRunOverride{}, f.Kind
		}
		if out.DeploymentType == "" {
			out.DeploymentType = o.DeploymentType
		}
		out.Findings = append(out.Findings, o.Findings...)
	}
	return out, first
}

// matches reports whether the fault hits a request of op to service.
func (f *Fault) matches(service string, op core.Operation) bool {
	switch {
	case f.Service != "" && f.Service != service, f.Operation != "" && f.Operation != op.Name:
		return false
	case f.Domain != "" && f.Domain != op.Resource:
		return false
	case f.DryRun == "only" && !op.DryRun, f.DryRun == "exclude" && op.DryRun:
		return false
	}
	return true
}

// hitLocked counts a hit of f, drops f once its times are used, and
// returns the hit (a copy that remembers f).
func (fs *faults) hitLocked(f *Fault) *Fault {
	f.Hits++
	if f.isHold() {
		f.resume = make(chan struct{})
	}
	hit := *f
	hit.stored = f
	// A hold fault stays listed (Holding) until its request is let go.
	if !f.isHold() && f.Times > 0 && f.Hits >= f.Times {
		fs.list = slices.DeleteFunc(fs.list, func(g *Fault) bool { return g == f })
	}
	return &hit
}

func (fs *faults) snapshot() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, 0, len(fs.list))
	for _, f := range fs.list {
		out = append(out, *f)
	}
	return out
}

func (fs *faults) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
}

func (f *Fault) isHold() bool { return f.Kind == FaultHoldBefore || f.Kind == FaultHoldAnswer }

// hold marks hit's fault as holding its request.
func (fs *faults) hold(hit *Fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	hit.stored.Holding = true
}

// resumeHolding lets the requests the hold faults hold go on; it returns
// how many.
func (fs *faults) resumeHolding() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	n := 0
	for _, f := range fs.list {
		if f.Holding && f.resume != nil {
			close(f.resume)
			f.resume, f.Holding = nil, false
			n++
		}
	}
	return n
}

// release takes hit's fault off the list: its request was let go.
func (fs *faults) release(hit *Fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = slices.DeleteFunc(fs.list, func(f *Fault) bool { return f == hit.stored })
}

// quote records part as what hit's fault quoted, unless part is empty,
// and returns what it quoted last.
func (fs *faults) quote(hit *Fault, part string) string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if part != "" {
		hit.stored.Quoted = part
	}
	return hit.stored.Quoted
}
