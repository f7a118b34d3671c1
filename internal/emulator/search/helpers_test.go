package search_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

type env struct {
	e   *emulator.Emulator
	c   *api.Client
	raw *client.Client
	url string
}

// newEnv starts an emulator of its own, so tests can run in parallel.
// Paces are long (hours) so that the real time a test takes is negligible
// next to the clock advances it makes.
func newEnv(t *testing.T) *env {
	t.Helper()
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg := client.Config{
		Region:      "us-east-1",
		Credentials: client.Credentials{AccessKeyID: emulator.DefaultAccessKeyID, SecretAccessKey: emulator.DefaultSecretAccessKey},
		MaxRetries:  -1,
	}
	c, err := api.New(cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := client.New(cfg, api.SigningName, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Search.SetPace(search.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: 2 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	inOffPeak(e)
	return &env{e: e, c: c, raw: raw, url: srv.URL}
}

// inOffPeak moves the clock to the next 02:00 UTC, inside the demo
// domain's off-peak window (00:00 for 10 hours), leaving room for hours of
// stages.
func inOffPeak(e *emulator.Emulator) {
	now := e.Clock().Now()
	target := now.Truncate(24 * time.Hour).Add(2 * time.Hour)
	if !target.After(now) {
		target = target.Add(24 * time.Hour)
	}
	e.Clock().Advance(target.Sub(now))
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func ptr[T any](v T) *T { return &v }

func apiErr(t *testing.T, err error) *client.APIError {
	t.Helper()
	var ae *client.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want *client.APIError, got %T %v", err, err)
	}
	return ae
}

func codes(fs []api.ValidationFailure) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, *f.Code+"/"+*f.Severity)
	}
	return out
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func emulatorZeroPace() search.Pace { return search.Pace{} }
