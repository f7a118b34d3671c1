package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
)

// tokens is the process-level cache of short-term keys: one Terraform run
// (one provider process) asking again with the same inputs gets the same key
// while it is valid, as the spec's token generators do.
var tokens = &tokenCache{byKey: map[string]modelsclient.Token{}}

type tokenCache struct {
	mu    sync.Mutex
	byKey map[string]modelsclient.Token
	now   func() time.Time
}

// get returns the cached key for in, or generates and caches a new one. A
// cached key is reused only while it has a margin of validity left (5
// minutes, or half its lifetime when shorter).
func (c *tokenCache) get(ctx context.Context, in modelsclient.TokenRequest) (modelsclient.Token, error) {
	now := time.Now()
	if c.now != nil {
		now = c.now()
	}
	key := cacheKey(in)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.byKey[key]; ok && now.Add(min(5*time.Minute, in.ExpiresIn/2)).Before(t.ExpiresAt) {
		return t, nil
	}
	in.Now = now
	t, err := modelsclient.GenerateToken(ctx, in)
	if err != nil {
		return t, err
	}
	c.byKey[key] = t
	return t, nil
}

// cacheKey identifies the inputs: access key, region, lifetime and host,
// plus a hash of the secret parts so rotated credentials get a new key.
func cacheKey(in modelsclient.TokenRequest) string {
	sum := sha256.Sum256([]byte(in.Credentials.SecretAccessKey + "\x00" + in.Credentials.SessionToken))
	return strings.Join([]string{in.Credentials.AccessKeyID, in.Region, in.ExpiresIn.String(), in.Host, hex.EncodeToString(sum[:8])}, "|")
}
