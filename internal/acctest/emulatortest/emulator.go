// Package emulatortest starts the in-process emulator a test talks to,
// and reads what it saw: the part of the acceptance-test harness
// (internal/acctest) that does not need the provider, so that the
// provider's own packages' internal tests and the emulator's tests use it
// too (acctest imports the provider, which imports them).
package emulatortest

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// Emulator is an emulator serving one test on a loopback port.
type Emulator struct {
	*emulator.Emulator
	URL string
	srv *httptest.Server
}

// Option changes how New starts the emulator.
type Option func(*emulatorOptions)

type emulatorOptions struct {
	tls      bool
	emulator emulator.Options
}

// WithOptions starts the emulator with o (its log, its credentials)
// instead of the defaults.
func WithOptions(o emulator.Options) Option { return func(opts *emulatorOptions) { opts.emulator = o } }

// WithTLS serves the emulator over HTTPS, for clients that will not send a
// bearer token over plain HTTP (aws-sdk-go-v2's): HTTPClient then trusts
// the emulator's self-signed certificate.
func WithTLS() Option { return func(o *emulatorOptions) { o.tls = true } }

// New starts an emulator for t and stops it when t ends.
func New(t testing.TB, opts ...Option) *Emulator {
	t.Helper()
	var o emulatorOptions
	for _, opt := range opts {
		opt(&o)
	}
	e := emulator.New(o.emulator)
	srv := httptest.NewUnstartedServer(e)
	emulator.ConfigureServer(srv.Config)
	if o.tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return &Emulator{Emulator: e, URL: srv.URL, srv: srv}
}

// HTTPClient is a client of the emulator's server (one that trusts its
// certificate under WithTLS).
func (e *Emulator) HTTPClient() *http.Client { return e.srv.Client() }

// ClientConfig is the configuration of a Go client signing with the
// emulator's default credentials in its home region, for test setup: no
// retries, so that a refusal reaches the test at once.
func (e *Emulator) ClientConfig() client.Config {
	return client.Config{
		Region:      e.Region(),
		Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()},
		MaxRetries:  -1,
	}
}

// ClockToOffPeak moves the emulator's clock to the next 02:00 UTC, inside
// the demo domain's off-peak window (00:00 for 10 hours), so blue/green
// changes draw no off-peak advisory and hours of stages fit in the window.
func (e *Emulator) ClockToOffPeak() {
	now := e.Clock().Now()
	target := now.Truncate(24 * time.Hour).Add(2 * time.Hour)
	if !target.After(now) {
		target = target.Add(24 * time.Hour)
	}
	e.Clock().Advance(target.Sub(now))
}
