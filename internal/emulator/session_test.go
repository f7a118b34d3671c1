package emulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
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
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
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
