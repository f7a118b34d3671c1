// Package emulator serves a local implementation of the cloud's identity,
// search domain and model runtime services, for acceptance tests and demos.
// See README.md beside this file for the admin API.
package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/runtime"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sts"
)

// Defaults of a new emulator.
const (
	DefaultAccount         = "123456789012"
	DefaultRegion          = "us-east-1"
	DefaultAccessKeyID     = "EMULATORACCESSKEY01"
	DefaultSecretAccessKey = "emulator-secret-access-key-0123456789"
	// maxBody bounds a request body (AccessPolicies alone may be 100 KiB).
	maxBody = 4 << 20
	// maxAdminBody bounds an admin API body (a domain's configuration).
	maxAdminBody = 1 << 20
)

// Options configure an emulator.
type Options struct {
	Account         string
	Region          string
	AccessKeyID     string
	SecretAccessKey string
	// Log, when set, receives one line per request (no bodies, no secrets).
	Log io.Writer
	// MaxLoggedCalls bounds the request log (DefaultMaxLoggedCalls when 0).
	MaxLoggedCalls int
	// AnyHost answers requests whatever host they name. Off, only loopback
	// names are answered (see ServeHTTP); an emulator listening beyond
	// loopback on purpose (-allow-non-loopback) is reached by other names.
	AnyHost bool
	// AfterReset, when set, runs at the end of every Reset: it puts back
	// what the emulator was started with (a seed file, a clock, faults).
	AfterReset func(*Emulator)
}

// Emulator is the local cloud. It is an http.Handler.
type Emulator struct {
	opts     Options
	clock    *core.Clock
	creds    *sigv4.Store
	services []core.Service
	admin    *http.ServeMux
	log      requestLog
	faults   faults

	// Identity is the identity service, for tests that look at its state.
	Identity *identity.Service
	// Search is the search domain service.
	Search *search.Service
	// Runtime is the model runtime.
	Runtime *runtime.Service
	// STS is the token service.
	STS *sts.Service
}

// New returns an emulator with its demo data.
func New(opts Options) *Emulator {
	if opts.Account == "" {
		opts.Account = DefaultAccount
	}
	if opts.Region == "" {
		opts.Region = DefaultRegion
	}
	if opts.AccessKeyID == "" {
		opts.AccessKeyID, opts.SecretAccessKey = DefaultAccessKeyID, DefaultSecretAccessKey
	}
	e := &Emulator{opts: opts, clock: core.NewClock()}
	e.log.max = opts.MaxLoggedCalls
	e.creds = sigv4.NewStore(sigv4.Credential{
		AccessKeyID:     opts.AccessKeyID,
		SecretAccessKey: opts.SecretAccessKey,
		Principal:       fmt.Sprintf("arn:cloud:identity::%s:user/emulator-admin", opts.Account),
		Account:         opts.Account,
	})
	e.Identity = identity.New(e.clock, opts.Account)
	e.Search = search.New(e.clock, opts.Account, opts.Region)
	e.Search.AuthorizeWith(e.Identity.Allows)
	e.Runtime = runtime.New(e.clock, e.Identity, e.creds, opts.Region)
	e.STS = sts.New(e.clock, opts.Account, e.Identity, e.creds)
	// The token service first: it shares POST / with the identity service.
	e.services = []core.Service{e.STS, e.Identity, e.Search, e.Runtime}
	e.admin = e.adminMux()
	return e
}

// Clock is the emulator's clock.
func (e *Emulator) Clock() *core.Clock { return e.clock }

// Credentials is the store of accepted access keys.
func (e *Emulator) Credentials() *sigv4.Store { return e.creds }

// AccessKeyID and SecretAccessKey are the emulator's default credentials.
func (e *Emulator) AccessKeyID() string { return e.opts.AccessKeyID }

// SecretAccessKey is the secret of the default credentials.
func (e *Emulator) SecretAccessKey() string { return e.opts.SecretAccessKey }

// Region is the emulator's home region.
func (e *Emulator) Region() string { return e.opts.Region }

// Account is the emulator's account id.
func (e *Emulator) Account() string { return e.opts.Account }

// InjectFault adds a fault; see Fault.
func (e *Emulator) InjectFault(f Fault) error { return e.faults.add(f) }

// Faults lists the faults still armed.
func (e *Emulator) Faults() []Fault { return e.faults.snapshot() }

// ClearFaults disarms every fault.
func (e *Emulator) ClearFaults() { e.faults.clear() }

// Calls is the request log: the latest calls, at most MaxLoggedCalls.
func (e *Emulator) Calls() []Call { return e.log.snapshot() }

// DroppedCalls is how many of the oldest calls the log's bound dropped.
func (e *Emulator) DroppedCalls() int { return e.log.droppedCalls() }

// Answered counts the logged calls of one operation ("" for any), dry runs
// or not as dryRun says, that the service answered with a success status:
// what it did, not what it was asked (a refused or faulted call is not
// counted; emulatortest's Sent counts every call sent).
func (e *Emulator) Answered(operation string, dryRun bool) int {
	n := 0
	for _, c := range e.log.snapshot() {
		if (operation == "" || c.Operation == operation) && c.DryRun == dryRun && c.Status >= 200 && c.Status < 300 {
			n++
		}
	}
	return n
}

// ClearCalls empties the request log.
func (e *Emulator) ClearCalls() { e.log.clear() }

// Reset returns every service to its starting state and clears the log,
// the faults and the clock.
func (e *Emulator) Reset() {
	for _, s := range e.services {
		s.Reset()
	}
	e.creds.Reset()
	e.log.clear()
	e.faults.clear()
	e.clock.Reset()
	if e.opts.AfterReset != nil {
		e.opts.AfterReset(e)
	}
}

// ServeHTTP routes a request to the admin API or to a service. It answers
// only requests addressed to a loopback name (see loopbackHost): the
// emulator listens on loopback only, and a page of another site that a
// browser resolved to 127.0.0.1 (DNS rebinding) names that site instead.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !e.opts.AnyHost && !loopbackHost(r.Host) {
		core.WriteJSONError(w, http.StatusForbidden, "ForbiddenHost", fmt.Sprintf("The emulator answers requests to a loopback name (localhost, 127.0.0.1, [::1]) only, not to %q.", r.Host))
		return
	}
	if strings.HasPrefix(r.URL.Path, "/_admin/") {
		e.serveAdmin(w, r)
		return
	}
	svc := e.serviceFor(r)
	if svc == nil {
		core.WriteJSONError(w, http.StatusNotFound, "UnknownOperationException", fmt.Sprintf("No service answers %s %s.", r.Method, r.URL.Path))
		return
	}
	e.serveService(w, r, svc)
}

func (e *Emulator) serveAdmin(w http.ResponseWriter, r *http.Request) {
	// A page a browser shows may not reset the emulator or add keys to it.
	if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
		core.WriteJSONError(w, http.StatusForbidden, "ForbiddenOrigin", fmt.Sprintf("The admin API refuses requests from the web origin %q.", o))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxAdminBody)
	e.admin.ServeHTTP(w, r)
}

// serviceFor is the first service that answers r, or nil.
func (e *Emulator) serviceFor(r *http.Request) core.Service {
	for _, s := range e.services {
		if s.Match(r) {
			return s
		}
	}
	return nil
}

// serveService reads the body (bounded), verifies the signature, acts out
// any fault injected for the operation, then lets svc answer. Every
// request whose body was read is logged with the status it got.
func (e *Emulator) serveService(w http.ResponseWriter, r *http.Request, svc core.Service) {
	started := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		core.WriteError(w, svc.Protocol(), http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "The request body is too large or could not be read.")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	op := svc.Classify(r, body)
	call := Call{Time: e.clock.Now(), Service: svc.Name(), Operation: op.Name, DryRun: op.DryRun, Started: started}
	var caller *core.Caller
	rw := &statusWriter{conn: w, recordedAnswer: newAnswer()}
	rw.log = func() {
		call.Ended = time.Now()
		call.Status = rw.status
		if caller != nil {
			call.Actions = caller.Authorized
		}
		e.log.add(call)
		e.printCall(call)
	}
	defer rw.end()

	if name := svc.SigningName(); name != "" && !op.Unsigned {
		var verr *sigv4.Error
		caller, verr = e.creds.Verify(r, body, name, e.clock.Now())
		if verr != nil {
			core.WriteError(rw, svc.Protocol(), authStatus(svc.Protocol(), verr.Condition), core.Code(svc.Protocol(), verr.Condition), verr.Message)
			return
		}
		call.AccessKeyID, call.Region = caller.AccessKeyID, caller.Region
		r = r.WithContext(core.WithCaller(r.Context(), caller))
	}

	if o, kind := e.faults.overrides(svc.Name(), op); o != nil {
		call.Fault = kind
		r = r.WithContext(core.WithDryRunOverride(r.Context(), o))
	}
	if f := e.faults.take(svc.Name(), op); f != nil {
		call.Fault = f.Kind
		if !e.applyFault(rw, r, body, svc, f) {
			return
		}
	}
	svc.ServeHTTP(rw, r)
}

// authStatus is the HTTP status of a refused signature: 400 for a missing
// or malformed one (but 403 for a missing one in the JSON protocol), else
// 403.
func authStatus(p core.Protocol, condition string) int {
	if condition != "missing" && condition != "malformed" {
		return http.StatusForbidden
	}
	if p == core.JSON && condition == "missing" {
		return http.StatusForbidden
	}
	return http.StatusBadRequest
}

// applyFault acts out a fault; it reports whether the request should still
// be served normally.
func (e *Emulator) applyFault(w *statusWriter, r *http.Request, body []byte, svc core.Service, f *Fault) bool {
	switch f.Kind {
	case FaultEcho:
		if f.Where == EchoInValidationFailure {
			e.answerEchoInFailure(w, r, body, svc, f)
			return false
		}
		e.answerEcho(w, r, body, svc, f)
		return false
	case FaultError:
		status := f.Status
		if status == 0 {
			status = http.StatusInternalServerError
		}
		code := f.Code
		if code == "" {
			code = core.Code(svc.Protocol(), "internal")
		}
		core.WriteError(w, svc.Protocol(), status, code, "Injected fault: the service failed before applying the request.")
		return false
	case FaultThrottle:
		status := http.StatusBadRequest
		if svc.Protocol() == core.JSON {
			status = http.StatusTooManyRequests
		}
		core.WriteError(w, svc.Protocol(), status, core.Code(svc.Protocol(), "throttle"), "Rate exceeded")
		return false
	case FaultDrop:
		w.hangUp()
		return false
	case FaultDelay:
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
		}
		return true
	case FaultHoldBefore:
		e.faults.hold(f)
		if e.holdFor(r, f) {
			return true
		}
		w.hangUp()
		return false
	case FaultHoldAnswer:
		// w keeps the answer: it is sent on a resume, dropped on a hang-up.
		svc.ServeHTTP(w, r.WithContext(context.WithoutCancel(r.Context())))
		e.faults.hold(f)
		if !e.holdFor(r, f) {
			w.hangUp()
		}
		return false
	case FaultLostResponse:
		// The change is committed; the answer w keeps is dropped.
		svc.ServeHTTP(w, r.WithContext(context.WithoutCancel(r.Context())))
		w.hangUp()
		return false
	}
	return true
}

// holdFor waits until r's caller goes away, f's Delay passes or the hold
// is resumed, then takes f off the list; it reports a resume.
func (e *Emulator) holdFor(r *http.Request, f *Fault) bool {
	defer e.faults.release(f)
	select {
	case <-time.After(f.Delay):
	case <-r.Context().Done():
	case <-f.resume:
		return true
	}
	return false
}

// ResumeHeld lets every request a hold fault holds go on: one held before
// the service had it is served and answered, one whose answer is held gets
// it. It returns how many went on.
func (e *Emulator) ResumeHeld() int { return e.faults.resumeHolding() }

// recordedAnswer keeps an answer to send later, change or drop. The
// first status written is the answer's, as net/http has it; none is 200.
type recordedAnswer struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func newAnswer() recordedAnswer {
	return recordedAnswer{header: http.Header{}, status: http.StatusOK}
}

func (a *recordedAnswer) Header() http.Header { return a.header }

func (a *recordedAnswer) Write(b []byte) (int, error) {
	a.wrote = true
	return a.body.Write(b)
}

func (a *recordedAnswer) WriteHeader(code int) {
	if !a.wrote {
		a.status, a.wrote = code, true
	}
}

func (a *recordedAnswer) sendTo(w http.ResponseWriter) {
	maps.Copy(w.Header(), a.header)
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body.Bytes())
}

// answerEcho answers an echo fault: an error (Status, default 400; Code,
// default the protocol's validation error) quoting part of the secret
// the request carried, or saying that it carried none.
func (e *Emulator) answerEcho(w http.ResponseWriter, r *http.Request, body []byte, svc core.Service, f *Fault) {
	secret := e.requestSecret(r, body, f.Field)
	status, code := f.Status, f.Code
	if status == 0 {
		status = http.StatusBadRequest
	}
	if code == "" {
		code = core.Code(svc.Protocol(), "validation")
	}
	if secret == "" {
		core.WriteError(w, svc.Protocol(), status, code, "Injected fault: the request carried no "+f.Field+" to quote.")
		return
	}
	msg, id := f.echoMessage(f.echoed(secret))
	core.WriteErrorWithID(w, svc.Protocol(), status, code, msg, id)
}

// answerEchoInFailure serves r, then adds to a successful JSON answer's
// DryRunProgressStatus and ChangeProgressStatus a validation failure
// quoting part of the secret r carried (or that an earlier hit quoted).
func (e *Emulator) answerEchoInFailure(w http.ResponseWriter, r *http.Request, body []byte, svc core.Service, f *Fault) {
	part := ""
	if secret := e.requestSecret(r, body, f.Field); secret != "" {
		part = f.echoed(secret)
	}
	part = e.faults.quote(f, part)
	rec := newAnswer()
	svc.ServeHTTP(&rec, r)
	out := rec.body.Bytes()
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber() // the answer's numbers as they are
	if rec.status == http.StatusOK && part != "" && dec.Decode(&doc) == nil {
		code := f.Code
		if code == "" {
			code = EchoFailureCode
		}
		failure := map[string]any{"Code": code, "Severity": "Advisory", "Message": "Injected fault: the value '" + part + "' of the request's " + f.Field + " is not recommended."}
		changed := false
		for _, k := range []string{"DryRunProgressStatus", "ChangeProgressStatus"} {
			if st, ok := doc[k].(map[string]any); ok {
				fs, _ := st["ValidationFailures"].([]any)
				st["ValidationFailures"], changed = append(fs, failure), true
			}
		}
		if b, err := json.Marshal(doc); err == nil && changed {
			out = b
		}
	}
	maps.Copy(w.Header(), rec.header)
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(rec.status)
	_, _ = w.Write(out)
}

// requestSecret is the secret of r that an echo fault's field names.
func (e *Emulator) requestSecret(r *http.Request, body []byte, field string) string {
	switch field {
	case EchoBearerToken:
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if tok == r.Header.Get("Authorization") {
			return ""
		}
		return tok
	case EchoSessionToken:
		return r.Header.Get("X-Amz-Security-Token")
	case EchoSecretAccessKey:
		if c := core.CallerFrom(r.Context()); c != nil {
			cred, _ := e.creds.Get(c.AccessKeyID)
			return cred.SecretAccessKey
		}
		return ""
	}
	return bodyField(body, field)
}

// hangUp closes the client's connection without an answer.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func (e *Emulator) printCall(c Call) {
	if e.opts.Log == nil {
		return
	}
	extra := ""
	if c.DryRun {
		extra += " dry-run"
	}
	if c.Fault != "" {
		extra += " fault=" + string(c.Fault)
	}
	fmt.Fprintf(e.opts.Log, "%s %-8s %-36s %3d%s\n", c.Time.Format(time.RFC3339), c.Service, c.Operation, c.Status, extra)
}

// statusWriter keeps the answer until the call is logged, so a caller
// that has its answer, or has seen the connection close, finds the call in
// the request log.
type statusWriter struct {
	recordedAnswer
	conn http.ResponseWriter
	// log logs the call; end and hangUp run it once.
	log    func()
	logged bool
}

// end logs the call, then sends the answer kept.
func (w *statusWriter) end() {
	if w.logged {
		return
	}
	w.logged = true
	w.log()
	w.sendTo(w.conn)
}

// hangUp logs the call as unanswered (status 0), then closes the
// connection without an answer.
func (w *statusWriter) hangUp() {
	w.status, w.logged = 0, true
	w.log()
	hangUp(w.conn)
}
