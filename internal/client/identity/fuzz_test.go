package identity

import (
	"errors"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// FuzzDecodeError: any answer body decodes into an *client.APIError with a
// kind, a code and a message, and never panics.
func FuzzDecodeError(f *testing.F) {
	f.Add(404, []byte(`<ErrorResponse><Error><Type>Sender</Type><Code>NoSuchEntity</Code><Message>no user</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`))
	f.Add(400, []byte(`<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error></ErrorResponse>`))
	f.Add(409, []byte(`<ErrorResponse><Error><Code>SomethingNew</Code></Error></ErrorResponse>`))
	f.Add(500, []byte(`<html>bad gateway</html>`))
	f.Add(503, []byte(``))
	f.Add(400, []byte(`<ErrorResponse><Error><Code>&amp;&#x41;</Code><Message><![CDATA[x]]></Message></Error></ErrorResponse>`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 300 || status > 599 {
			return
		}
		err := decodeError("CreateUser", &client.Response{StatusCode: status, Body: body})
		var apiErr *client.APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("decodeError returned %T, want *client.APIError", err)
		}
		if apiErr.Kind == nil || apiErr.Code == "" || apiErr.Message == "" || apiErr.StatusCode != status {
			t.Fatalf("incomplete error %+v", apiErr)
		}
		if !errors.Is(err, apiErr.Kind) {
			t.Fatalf("errors.Is(err, its own kind) is false")
		}
		_ = err.Error()
	})
}
