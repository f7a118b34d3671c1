package client

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestReadBody: an answer is read whole whatever its Content-Length says,
// and one that ends before its length is an error, not a short answer.
func TestReadBody(t *testing.T) {
	t.Parallel()
	const body = "<GetUserResponse><GetUserResult/></GetUserResponse>"
	for name, tc := range map[string]struct {
		length  int64
		wantErr bool
	}{
		"its length":               {length: int64(len(body))},
		"no length":                {length: -1},
		"a length of zero":         {length: 0},
		"longer than its length":   {length: 5},
		"too long to trust":        {length: 1 << 30},
		"shorter than its length":  {length: int64(len(body)) + 1, wantErr: true},
		"much shorter than length": {length: 4096, wantErr: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := readBody(&http.Response{ContentLength: tc.length, Body: io.NopCloser(strings.NewReader(body))})
			if tc.wantErr {
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("readBody = %q, %v; want an unexpected EOF", got, err)
				}
				return
			}
			if err != nil || string(got) != body {
				t.Fatalf("readBody = %q, %v; want %q", got, err, body)
			}
		})
	}
}
