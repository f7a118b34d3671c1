package search

import (
	"errors"
	"net/http"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// FuzzDecodeError: any answer (body and X-Amzn-ErrorType header) decodes
// into an *client.APIError with a kind, a code and a message; a known
// exception name keeps its kind whatever its namespace or suffix.
func FuzzDecodeError(f *testing.F) {
	f.Add(409, []byte(`{"__type":"ResourceNotFoundException","message":"no domain"}`), "")
	f.Add(400, []byte(`{"__type":"com.amazon#ValidationException:http://internal","Message":"bad"}`), "")
	f.Add(429, []byte(`{"__type":"ThrottlingException"}`), "")
	f.Add(500, []byte(`not json`), "InternalException:http://x")
	f.Add(409, []byte(`{"code":"LimitExceededException","message":"too many"}`), "")
	f.Add(418, []byte(`{"__type":"NewException"}`), "")
	f.Add(400, []byte(`{"__type":123}`), "")
	f.Fuzz(func(t *testing.T, status int, body []byte, header string) {
		if status < 300 || status > 599 {
			return
		}
		h := http.Header{}
		h.Set("X-Amzn-ErrorType", header)
		err := decodeError("UpdateDomainConfig", &client.Response{StatusCode: status, Header: h, Body: body})
		var apiErr *client.APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("decodeError returned %T, want *client.APIError", err)
		}
		if apiErr.Kind == nil || apiErr.Code == "" || apiErr.Message == "" {
			t.Fatalf("incomplete error %+v", apiErr)
		}
		if k, ok := errorKinds[apiErr.Code]; ok && !errors.Is(err, k) {
			t.Fatalf("code %s decoded with kind %v, want %v", apiErr.Code, apiErr.Kind, k)
		}
		_ = err.Error()
	})
}
