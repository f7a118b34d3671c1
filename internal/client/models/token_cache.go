package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"time"
)

// MaxCachedTokens bounds a TokenCache: far more than the distinct keys
// (credentials, region, lifetime, host) one Terraform run asks for.
const MaxCachedTokens = 256

// TokenCache hands out the same short-term key for the same inputs while it
// is valid, as the spec's token generators do. One is owned by each
// configured provider (one Terraform run); it holds at most max keys, and
// drops a key once expired.
type TokenCache struct {
	mu    sync.Mutex
	byKey map[string]Token
	max   int
	now   func() time.Time
}

// NewTokenCache returns an empty cache of at most max keys.
func NewTokenCache(maxKeys int) *TokenCache {
	return &TokenCache{byKey: map[string]Token{}, max: maxKeys, now: time.Now}
}

// Get returns the cached key for in, or generates and caches a new one. A
// cached key is reused only while it has a margin of validity left (5
// minutes, or half its lifetime when shorter). A nil cache caches nothing:
// each Get generates a new key.
func (c *TokenCache) Get(ctx context.Context, in TokenRequest) (Token, error) {
	if c == nil {
		return GenerateToken(ctx, in)
	}
	now := c.now()
	key := cacheKey(in)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.byKey[key]; ok && now.Add(min(5*time.Minute, in.ExpiresIn/2)).Before(t.ExpiresAt) {
		return t, nil
	}
	in.Now = now
	t, err := GenerateToken(ctx, in)
	if err != nil {
		return t, err
	}
	c.makeRoom(now, key)
	c.byKey[key] = t
	return t, nil
}

// makeRoom drops the expired keys and, when the cache is still full, the
// key that expires first, so that key fits.
func (c *TokenCache) makeRoom(now time.Time, key string) {
	for k, t := range c.byKey {
		if !now.Before(t.ExpiresAt) {
			delete(c.byKey, k)
		}
	}
	if _, replacing := c.byKey[key]; replacing || len(c.byKey) < c.max {
		return
	}
	first := ""
	for k, t := range c.byKey {
		if first == "" || t.ExpiresAt.Before(c.byKey[first].ExpiresAt) {
			first = k
		}
	}
	delete(c.byKey, first)
}

// cacheKey identifies the inputs: access key, region, lifetime and host,
// plus a hash of the secret parts so rotated credentials get a new key.
func cacheKey(in TokenRequest) string {
	sum := sha256.Sum256([]byte(in.Credentials.SecretAccessKey + "\x00" + in.Credentials.SessionToken))
	return strings.Join([]string{in.Credentials.AccessKeyID, in.Region, in.ExpiresIn.String(), in.Host, hex.EncodeToString(sum[:8])}, "|")
}
