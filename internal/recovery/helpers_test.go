package recovery

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// service is the service the keys of these tests are for.
const service = "models.cloud.example"

// testRun is one run on an emulator: its client and settings, and the
// users it made (nil: it remembers none, as the tests of one create that
// need no memory).
type testRun struct {
	emu  *emulatortest.Emulator
	idc  *identityclient.Client
	cfg  client.Config
	url  string
	made *conns.CreatedUsers
	ours *conns.CreatedKeys
}

// newRun is a run on an emulator of its own, served over HTTP (through
// transport unless nil), with one-second attempts and one retry so that
// create windows stay short.
func newRun(t *testing.T, transport http.RoundTripper) *testRun {
	t.Helper()
	e := emulatortest.New(t)
	cfg := e.ClientConfig()
	cfg.AttemptTimeout, cfg.MaxRetries = time.Second, 1
	if transport != nil {
		cfg.HTTPClient = &http.Client{Transport: transport}
	}
	idc, err := identityclient.New(cfg, e.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &testRun{emu: e, idc: idc, cfg: cfg, url: e.URL, ours: &conns.CreatedKeys{}}
}

// other is another run on the same emulator, through transport, sharing
// what this one remembers of the users it made.
func (r *testRun) other(t *testing.T, transport http.RoundTripper) *testRun {
	t.Helper()
	cfg := r.cfg
	cfg.HTTPClient = &http.Client{Transport: transport}
	idc, err := identityclient.New(cfg, r.url)
	if err != nil {
		t.Fatal(err)
	}
	o := *r
	o.idc, o.cfg = idc, cfg
	return &o
}

// createKey runs the create of a 30-day key for kim.
func (r *testRun) createKey(ctx context.Context) KeyOutcome {
	k := Key{Client: r.idc, Input: identityclient.CreateServiceSpecificCredentialInput{UserName: "kim", ServiceName: service, CredentialAgeDays: 30},
		Want: WantKey{AgeDays: 30}, Window: CreateWindow(r.cfg.WithDefaults())}
	if r.made != nil {
		k.Made = r.made
	}
	if r.ours != nil {
		k.Ours = r.ours
	}
	return CreateKey(ctx, k)
}

// createUser runs the create of user name with path userPath.
func (r *testRun) createUser(ctx context.Context, name, userPath string) UserOutcome {
	cfg := r.cfg.WithDefaults()
	u := User{Client: r.idc, Input: identityclient.CreateUserInput{UserName: name, Path: userPath}, Window: CreateWindow(cfg), LateWindow: LateWindow(cfg)}
	if r.made != nil {
		u.Made = r.made
	}
	return CreateUser(ctx, u)
}

// show describes an outcome for a failure message.
func show(end any, notes any) string {
	return fmt.Sprintf("end %T %+v, notes %+v", end, end, notes)
}

// createdQuietly is the key of a create that made one and has nothing to
// tell; it fails t otherwise.
func createdQuietly(t *testing.T, out KeyOutcome) *identityclient.ServiceSpecificCredential {
	t.Helper()
	e, ok := out.End.(KeyCreated)
	if !ok || len(out.Notes) != 0 {
		t.Fatalf("%s; want a key created, nothing to tell", show(out.End, out.Notes))
	}
	return e.Key
}

// callsOf counts the identity calls the emulator logged since the last
// ClearCalls (answered or refused), by operation.
func callsOf(e *emulatortest.Emulator) map[string]int {
	n := map[string]int{}
	for _, c := range e.CallsTo("") {
		if c.Service == "identity" {
			n[c.Operation]++
		}
	}
	return n
}

func mapTags(m map[string]string) []identityclient.Tag {
	var out []identityclient.Tag
	for k, v := range m {
		out = append(out, identityclient.Tag{Key: k, Value: v})
	}
	return out
}

// heldMarks are the keys (by MarkTag) the tags mark as held, in either
// form of the mark.
func heldMarks(tags map[string]string) map[string]bool {
	out := map[string]bool{}
	for k, v := range tags {
		if m, ok := markOf(identityclient.Tag{Key: k, Value: v}); ok {
			out[m] = true
		}
	}
	return out
}

// answered is a transport that calls then as soon as the answer of op is
// in hand (cancelling the run there is Ctrl-C right after the answer).
type answered struct {
	op   string
	then func()
}

func (t *answered) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !strings.Contains(string(body), "Action="+t.op+"&") {
		return resp, err
	}
	answer, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	t.then()
	return resp, err
}

// gated is a transport that calls before with each request's Action before
// sending it.
type gated struct{ before func(action string) }

func (g *gated) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	form, _ := url.ParseQuery(string(body))
	g.before(form.Get("Action"))
	return http.DefaultTransport.RoundTrip(r)
}

// await waits for ch to be closed, for at most limit.
func await(ch <-chan struct{}, limit time.Duration) {
	select {
	case <-ch:
	case <-time.After(limit):
	}
}

// twoRuns are the transports of two runs A and B recovering at once, in
// the order that defeats a claim that is written and read back: A claims
// and, about to act (first), waits until B's run is over (bDone) or 1.5s
// passed (B may rightly wait for A); B sends its first TagUser (its claim)
// only once A is about to act.
func twoRuns(first string) (a, b http.RoundTripper, bDone func()) {
	aActing, done := make(chan struct{}), make(chan struct{})
	var aOnce, bOnce sync.Once
	a = &gated{before: func(action string) {
		if action == first {
			aOnce.Do(func() { close(aActing); await(done, 1500*time.Millisecond) })
		}
	}}
	b = &gated{before: func(action string) {
		if action == "TagUser" {
			bOnce.Do(func() { await(aActing, 15*time.Second) })
		}
	}}
	return a, b, func() { close(done) }
}
