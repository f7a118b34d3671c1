package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
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
	srv := emulatortest.New(t)
	e := srv.Emulator
	cfg := srv.ClientConfig()
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
	srv.ClockToOffPeak()
	return &env{e: e, c: c, raw: raw, url: srv.URL}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

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

// do sends a signed request with a raw body through the shared signing
// stack (no search client types involved) and decodes the JSON answer. A
// body is sent as JSON, as every client sends it.
func (e *env) do(t *testing.T, method, path string, q url.Values, body string) (int, map[string]any) {
	t.Helper()
	var h http.Header
	if body != "" {
		h = http.Header{"Content-Type": {"application/json"}}
	}
	return e.doWith(t, method, path, q, h, body)
}

// doWith is do with the request's headers h.
func (e *env) doWith(t *testing.T, method, path string, q url.Values, h http.Header, body string) (int, map[string]any) {
	t.Helper()
	resp, err := e.raw.Do(ctx(t), &client.Request{
		Operation: "Raw", Method: method, Path: "/2021-01-01/search/domain/" + path, Query: q, Header: h, Body: []byte(body),
	})
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatalf("%s %s: HTTP %d, body is not a JSON object: %s", method, path, resp.StatusCode, resp.Body)
	}
	return resp.StatusCode, out
}

// ok is do that fails the test on anything but HTTP 200.
func (e *env) ok(t *testing.T, method, path string, q url.Values, body string) map[string]any {
	t.Helper()
	status, out := e.do(t, method, path, q, body)
	if status != http.StatusOK {
		t.Fatalf("%s %s: HTTP %d %v", method, path, status, out)
	}
	return out
}

// at walks decoded JSON by member names; nil when a step is missing.
func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// names lists the Name of each ModifyingProperty, or the strings of a
// PendingProperties or CompletedProperties list.
func names(props any) []string {
	out := []string{}
	list, _ := props.([]any)
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, fmt.Sprint(m["Name"]))
		} else {
			out = append(out, fmt.Sprint(x))
		}
	}
	return out
}

// jsonValue decodes JSON text, for comparing with decoded answers.
func jsonValue(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("bad JSON in the test: %s: %v", text, err)
	}
	return v
}

// obj is a JSON object of a request section, as UpdateDomainConfigInput's
// Sections holds it (an alias, so that the client sees a map[string]any).
type obj = map[string]any

// Typed views of the few members the tests read from answers; each field
// is a pointer, so that a missing member reads as its zero value.
type (
	clusterConfig struct {
		InstanceCount *int64  `json:"InstanceCount"`
		InstanceType  *string `json:"InstanceType"`
	}
	snapshotOptions struct {
		AutomatedSnapshotStartHour *int64 `json:"AutomatedSnapshotStartHour"`
	}
	blockVolumeOptions struct {
		VolumeSize *int64 `json:"VolumeSize"`
	}
	// optionStatus is the Status of a wrapped DomainConfig section.
	optionStatus struct {
		State         *string           `json:"State"`
		UpdateDate    *api.EpochSeconds `json:"UpdateDate"`
		UpdateVersion *int64            `json:"UpdateVersion"`
	}
)

// section is the DomainConfig section name; it fails the test when the
// answer has no such section.
func section(t *testing.T, cfg *api.DomainConfig, name string) api.Section {
	t.Helper()
	if cfg == nil {
		t.Fatalf("no DomainConfig, want its %s", name)
	}
	s, ok := cfg.Sections[name]
	if !ok {
		t.Fatalf("DomainConfig has no %s section", name)
	}
	return s
}

// sectionOptions decodes the Options of the DomainConfig section name.
func sectionOptions[T any](t *testing.T, cfg *api.DomainConfig, name string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(section(t, cfg, name).Options, &v); err != nil {
		t.Fatalf("DomainConfig.%s.Options: %v", name, err)
	}
	return v
}

// sectionStatus decodes the Status of the DomainConfig section name.
func sectionStatus(t *testing.T, cfg *api.DomainConfig, name string) optionStatus {
	t.Helper()
	var v optionStatus
	if err := json.Unmarshal(section(t, cfg, name).Status, &v); err != nil {
		t.Fatalf("DomainConfig.%s.Status: %v", name, err)
	}
	return v
}

// showSection is the DomainConfig section name as JSON, for messages.
func showSection(cfg *api.DomainConfig, name string) string {
	s, ok := cfg.Sections[name]
	if !ok {
		return name + " missing"
	}
	return fmt.Sprintf("%s {Options: %s, Status: %s}", name, s.Options, s.Status)
}

// member decodes the member name of a DomainStatus (a dry run's
// DryRunConfig); it fails the test when there is no such member.
func member[T any](t *testing.T, d *api.DomainStatus, name string) T {
	t.Helper()
	raw, ok := d.Members[name]
	if !ok {
		t.Fatalf("DryRunConfig has no %s", name)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("DryRunConfig.%s: %v", name, err)
	}
	return v
}
