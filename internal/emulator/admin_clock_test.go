package emulator

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The admin clock refuses what would overflow time.Duration (about 292
// years) instead of wrapping the emulated time into the past.
func TestAdminClockRefusesOverflow(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	post := func(body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/_admin/clock", strings.NewReader(body)) //nolint:noctx // a test request
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(`{"advance": "2562047h"}`); code != http.StatusBadRequest || !strings.Contains(body, "ahead of real time") {
		t.Errorf("advance 2562047h: %d %s, want 400", code, body)
	}
	if code, body := post(`{"advance": "720000h"}`); code != http.StatusOK {
		t.Fatalf("advance 720000h (82 years): %d %s, want 200", code, body)
	}
	if code, body := post(`{"advance": "720000h"}`); code != http.StatusBadRequest {
		t.Errorf("a second advance of 82 years: %d %s, want 400", code, body)
	}
	if code, body := post(`{"speed": 1e12}`); code != http.StatusBadRequest || !strings.Contains(body, "speed must be between") {
		t.Errorf("speed 1e12: %d %s, want 400", code, body)
	}
	if now := e.Clock().Now(); now.Before(time.Now()) {
		t.Errorf("the emulated time %s went back before real time", now)
	}
}

// The admin API holds the clock and moves it by advance only, then runs it
// again with a speed.
func TestAdminClockHold(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	post := func(body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/_admin/clock", strings.NewReader(body)) //nolint:noctx // a test request
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(`{"speed": 3600, "hold": true}`); code != http.StatusOK || !strings.Contains(body, `"held":false`) {
		t.Fatalf("hold then speed: %d %s, want 200 and a clock running (a speed runs a held clock)", code, body)
	}
	if code, body := post(`{"hold": true, "advance": "2h"}`); code != http.StatusOK || !strings.Contains(body, `"held":true`) {
		t.Fatalf("hold and advance: %d %s", code, body)
	}
	at := e.Clock().Now()
	time.Sleep(20 * time.Millisecond)
	if now := e.Clock().Now(); !now.Equal(at) {
		t.Fatalf("the held clock moved from %s to %s", at, now)
	}
	if code, body := post(`{"speed": 1}`); code != http.StatusOK || !strings.Contains(body, `"held":false`) {
		t.Fatalf("speed 1 after hold: %d %s, want the clock running", code, body)
	}
}
