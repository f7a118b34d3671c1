package rules

import "time"

// MaxShortTermKeyLifetime is the spec's longest life of a short-term API
// key ("at most 12 hours"): the provider's expires_in, the client's token
// generator and the emulator's check of a key's X-Amz-Expires use it.
const MaxShortTermKeyLifetime = 12 * time.Hour
