package models

import (
	"context"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
)

// TestTokenCache: the spec's "a token generator returns a cached token
// while it is still valid and generates a new one when it is not".
func TestTokenCache(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	c := &tokenCache{byKey: map[string]modelsclient.Token{}, now: func() time.Time { return now }}
	in := modelsclient.TokenRequest{
		Host: "runtime.models.us-east-1.cloud.example", Region: "us-east-1", ExpiresIn: time.Hour,
		Credentials: client.Credentials{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "s"},
	}
	get := func() modelsclient.Token {
		t.Helper()
		tok, err := c.get(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	first := get()
	now = now.Add(30 * time.Minute)
	if again := get(); again != first {
		t.Errorf("30 minutes into an hour's key: a new key (expires %s), want the cached one", again.ExpiresAt)
	}
	// Within 5 minutes of its expiry a key is no longer handed out.
	now = first.ExpiresAt.Add(-4 * time.Minute)
	renewed := get()
	if renewed.Value == first.Value || !renewed.ExpiresAt.Equal(now.Add(time.Hour)) {
		t.Errorf("4 minutes before expiry: expires %s, want a new key expiring %s", renewed.ExpiresAt, now.Add(time.Hour))
	}
	// Other inputs are another key.
	in.Region = "us-west-2"
	if other := get(); other.Value == renewed.Value {
		t.Error("another region got the same key")
	}
	// Rotated credentials are another key.
	in.Region = "us-east-1"
	in.Credentials.SecretAccessKey = "rotated"
	rotated := get()
	if rotated.Value == renewed.Value {
		t.Error("rotated credentials got the cached key")
	}
	// A renewed session is another key, even were its key id and secret
	// the same: a key is cached for the session that signed it.
	in.Credentials.SessionToken = "session-2"
	if other := get(); other.Value == rotated.Value {
		t.Error("a new session token got the previous session's key")
	}
}
