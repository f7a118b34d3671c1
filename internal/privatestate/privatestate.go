// Package privatestate is a resource's private state as the services use
// it: the Private of the framework's requests and responses, each key
// holding one JSON value.
package privatestate

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Getter reads a key of the private state (a request's Private).
type Getter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// Setter writes a key of the private state (a response's Private).
type Setter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// GetSetter reads and writes the private state (a response's Private,
// which starts as the request's).
type GetSetter interface {
	Getter
	Setter
}

// Get decodes key's JSON into v; false when the key is absent, cannot be
// read, or is not such a value (v is then not to be used).
func Get(ctx context.Context, p Getter, key string, v any) bool {
	b, d := p.GetKey(ctx, key)
	if d.HasError() || len(b) == 0 {
		return false
	}
	return json.Unmarshal(b, v) == nil
}

// Set keeps v in key as JSON. A value that cannot be encoded forgets the
// key rather than keep an older value.
func Set(ctx context.Context, p Setter, key string, v any) diag.Diagnostics {
	b, err := json.Marshal(v)
	if err != nil {
		return Forget(ctx, p, key)
	}
	return p.SetKey(ctx, key, b)
}

// Forget removes key.
func Forget(ctx context.Context, p Setter, key string) diag.Diagnostics {
	return p.SetKey(ctx, key, nil)
}
