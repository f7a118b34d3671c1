package search

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The resource's private state, as the steps see it: the Private of the
// framework's requests and responses. domain_read.go keeps the domain last
// read there, verdict.go the reviewed dry run.

// privateSetter writes a key of the private state.
type privateSetter interface {
	SetKey(context.Context, string, []byte) diag.Diagnostics
}

// privateGetter reads a key of the private state.
type privateGetter interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
}
