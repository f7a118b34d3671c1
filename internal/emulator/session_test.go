package emulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

func admin(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Invalidating the session that generated a short-term key makes the key
// unusable (the spec's transition "valid -> unusable"), and the session's
// own signed requests are refused: DELETE /_admin/credentials/{id}.
func TestRevokedSessionRefusesItsKeys(t *testing.T) {
	t.Parallel()
	srv := emulatortest.New(t)
	ctx := context.Background()
	if st, b := admin(t, http.MethodPost, srv.URL+"/_admin/credentials",
		`{"access_key_id":"ASIASESSION00000001","secret_access_key":"session-secret","session_token":"tok-1","duration":"1h"}`); st != http.StatusCreated {
		t.Fatalf("adding the session: %d %s", st, b)
	}
	creds := client.Credentials{AccessKeyID: "ASIASESSION00000001", SecretAccessKey: "session-secret", SessionToken: "tok-1"}
	tok, err := modelsclient.GenerateToken(ctx, modelsclient.TokenRequest{
		Host: strings.TrimPrefix(srv.URL, "http://"), Region: emulator.DefaultRegion, Credentials: creds, ExpiresIn: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := modelsclient.New(client.Config{Region: emulator.DefaultRegion, MaxRetries: -1}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	idc, err := identityclient.New(client.Config{Region: emulator.DefaultRegion, Credentials: creds, MaxRetries: -1}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Converse(ctx, tok.Value, "m1", "hello"); err != nil {
		t.Fatalf("before the session is invalidated: %v", err)
	}
	if _, err := idc.GetUser(ctx, "nobody"); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("a signed request before: %v, want NoSuchEntity", err)
	}

	if st, b := admin(t, http.MethodDelete, srv.URL+"/_admin/credentials/ASIASESSION00000001", ""); st != http.StatusOK {
		t.Fatalf("invalidating: %d %s", st, b)
	}
	_, err = rt.Converse(ctx, tok.Value, "m1", "hello")
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Code != "ExpiredTokenException" || !strings.Contains(apiErr.Message, "has been invalidated") {
		t.Errorf("the key after its session was invalidated: %v, want 403 ExpiredTokenException", err)
	}
	_, err = idc.GetUser(ctx, "nobody")
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Code != "ExpiredToken" {
		t.Errorf("a signed request after: %v, want 403 ExpiredToken", err)
	}
	// Only temporary credentials have a session.
	if st, _ := admin(t, http.MethodDelete, srv.URL+"/_admin/credentials/"+emulator.DefaultAccessKeyID, ""); st != http.StatusNotFound {
		t.Errorf("invalidating a long-term access key: %d, want 404", st)
	}
}

// The runtime takes only Content-Type: application/json (the spec's header).
func TestRuntimeContentType(t *testing.T) {
	t.Parallel()
	srv := emulatortest.New(t)
	tok, err := modelsclient.GenerateToken(context.Background(), modelsclient.TokenRequest{
		Host: strings.TrimPrefix(srv.URL, "http://"), Region: emulator.DefaultRegion, ExpiresIn: time.Hour,
		Credentials: client.Credentials{AccessKeyID: emulator.DefaultAccessKeyID, SecretAccessKey: emulator.DefaultSecretAccessKey},
	})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"messages":[{"role":"user","content":[{"text":"hi"}]}]}`
	for ct, want := range map[string]int{"application/json": 200, "application/json; charset=utf-8": 200, "text/plain": 400, "": 400} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/model/m1/converse", bytes.NewBufferString(body))
		req.Header.Set("Authorization", "Bearer "+tok.Value)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != want || (want == 400 && (out["__type"] != "ValidationException" || !strings.Contains(out["message"].(string), "Content-Type: application/json"))) {
			t.Errorf("Content-Type %q: %d %v, want %d", ct, resp.StatusCode, out, want)
		}
	}
}

// TestBearerKeyNotRecorded: a key sent in the Authorization header, long
// term or short term, answered or refused, appears in none of the
// emulator's records: its printed log, its request log (Calls) or the
// admin API's list of requests. No 16-character piece of it does either.
func TestBearerKeyNotRecorded(t *testing.T) {
	t.Parallel()
	var printed emulatortest.LockedBuffer // the server's goroutines write it while the test reads it
	srv := emulatortest.New(t, emulatortest.WithOptions(emulator.Options{Log: &printed}))
	e := srv.Emulator
	ctx := context.Background()
	ic, err := identityclient.New(client.Config{Region: e.Region(), Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()}}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ic.CreateUser(ctx, identityclient.CreateUserInput{UserName: "logged"}); err != nil {
		t.Fatal(err)
	}
	if err := ic.AttachUserPolicy(ctx, "logged", "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"); err != nil {
		t.Fatal(err)
	}
	_, longTerm, err := e.Identity.CreateCredentialBehindTheBack("logged", "models.cloud.example", 30, e.Region())
	if err != nil {
		t.Fatal(err)
	}
	short, err := modelsclient.GenerateToken(ctx, modelsclient.TokenRequest{
		Host: strings.TrimPrefix(srv.URL, "http://"), Region: emulator.DefaultRegion, ExpiresIn: time.Hour,
		Credentials: client.Credentials{AccessKeyID: emulator.DefaultAccessKeyID, SecretAccessKey: emulator.DefaultSecretAccessKey},
	})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{"long-term": longTerm, "short-term": short.Value}
	body := `{"messages":[{"role":"user","content":[{"text":"hi"}]}]}`
	for name, key := range keys {
		// Answered, then refused (another region's runtime).
		for path, want := range map[string]int{"/model/m1/converse": 200, "/region/eu-west-1/model/m1/converse": 403} {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+path, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Fatalf("%s key at %s: HTTP %d, want %d", name, path, resp.StatusCode, want)
			}
		}
	}
	calls, err := json.Marshal(e.Calls())
	if err != nil {
		t.Fatal(err)
	}
	converse := 0
	for _, c := range e.Calls() {
		if c.Operation == "Converse" {
			converse++
		}
	}
	if converse != 4 || !strings.Contains(printed.String(), "Converse") {
		t.Fatalf("%d Converse calls in the request log, want 4, and the printed log names them: the records this test reads are not the ones the calls went to", converse)
	}
	_, listed := admin(t, http.MethodGet, srv.URL+"/_admin/requests", "")
	records := map[string]string{"printed log": printed.String(), "request log": string(calls), "admin requests": listed}
	for name, key := range keys {
		for rec, text := range records {
			for i := 0; i+16 <= len(key); i += 8 {
				if piece := key[i : i+16]; strings.Contains(text, piece) {
					t.Errorf("the %s records characters %d-%d of the %s key", rec, i, i+16, name)
					break
				}
			}
		}
	}
}
