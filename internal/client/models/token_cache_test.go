package models

import (
	"context"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// TestTokenCache: the spec's "a token generator returns a cached token
// while it is still valid and generates a new one when it is not".
func TestTokenCache(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	c := NewTokenCache(MaxCachedTokens)
	c.now = func() time.Time { return now }
	in := TokenRequest{
		Host: "runtime.models.us-east-1.cloud.example", Region: "us-east-1", ExpiresIn: time.Hour,
		Credentials: client.Credentials{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "s"},
	}
	get := func() Token {
		t.Helper()
		tok, err := c.Get(context.Background(), in)
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

// TestTokenCacheBounded: a provider's cache drops expired keys and, when
// full, the key that expires first; it never grows past its bound.
func TestTokenCacheBounded(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	c := NewTokenCache(2)
	c.now = func() time.Time { return now }
	get := func(region string, lifetime time.Duration) Token {
		t.Helper()
		tok, err := c.Get(context.Background(), TokenRequest{
			Host: "runtime.models." + region + ".cloud.example", Region: region, ExpiresIn: lifetime,
			Credentials: client.Credentials{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "s"},
		})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	short := get("us-east-1", 10*time.Minute)
	long := get("us-west-2", time.Hour)
	get("eu-west-1", 2*time.Hour) // full: the key expiring first goes
	if len(c.byKey) != 2 {
		t.Fatalf("%d keys cached, want at most 2", len(c.byKey))
	}
	now = now.Add(time.Minute) // a key made again now differs from the one cached
	if again := get("us-west-2", time.Hour); again != long {
		t.Error("the key expiring later was dropped instead of the one expiring first")
	}
	if again := get("us-east-1", 10*time.Minute); again == short {
		t.Error("the key expiring first was kept past the bound")
	}
	// Once every key has expired, the next one is alone in the cache.
	now = now.Add(3 * time.Hour)
	get("ap-south-1", time.Hour)
	if len(c.byKey) != 1 {
		t.Errorf("%d keys cached after all others expired, want 1", len(c.byKey))
	}
}

// A nil cache (conns.Clients built without one) caches nothing: each Get
// generates a key, and none panics.
func TestTokenCacheNil(t *testing.T) {
	t.Parallel()
	var c *TokenCache
	in := TokenRequest{
		Host: "runtime.models.us-east-1.cloud.example", Region: "us-east-1", ExpiresIn: time.Hour,
		Credentials: client.Credentials{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "s"},
		Now:         time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC),
	}
	first, err := c.Get(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	in.Now = in.Now.Add(time.Second)
	second, err := c.Get(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if first.Value == "" || first.Value == second.Value {
		t.Errorf("a nil cache handed out %q then %q, want two new keys", first.Value, second.Value)
	}
}
