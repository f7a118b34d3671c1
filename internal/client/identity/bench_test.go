package identity_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

type answer []byte

func (a answer) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/xml"}, "Date": {"Sat, 28 Nov 2026 12:00:00 GMT"}}, Body: io.NopCloser(bytes.NewReader(a)), ContentLength: int64(len(a)), Request: r}, nil
}

const listAnswer = `<ListServiceSpecificCredentialsResponse xmlns="https://identity.cloud.example/doc/2010-05-08/">
  <ListServiceSpecificCredentialsResult>
    <ServiceSpecificCredentials>
      <member><UserName>bench-1</UserName><Status>Active</Status><ServiceUserName>bench-1-at-123456789012</ServiceUserName><CreateDate>2025-01-01T00:00:00Z</CreateDate><ExpirationDate>2025-03-02T00:00:00Z</ExpirationDate><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPQ</ServiceSpecificCredentialId><ServiceName>models.cloud.example</ServiceName></member>
      <member><UserName>bench-1</UserName><Status>Inactive</Status><ServiceUserName>bench-1-at-123456789012</ServiceUserName><CreateDate>2025-01-02T00:00:00Z</CreateDate><ServiceSpecificCredentialId>ACCAABCDEFGHIJKLMNOPR</ServiceSpecificCredentialId><ServiceName>models.cloud.example</ServiceName></member>
    </ServiceSpecificCredentials>
    <IsTruncated>false</IsTruncated>
  </ListServiceSpecificCredentialsResult>
  <ResponseMetadata><RequestId>7a62c49f-347e-4fc4-9331-6e8eEXAMPLE</RequestId></ResponseMetadata>
</ListServiceSpecificCredentialsResponse>`

// BenchmarkListServiceSpecificCredentials is one key refresh's call: the
// request is signed and the XML answer decoded, without a network.
func BenchmarkListServiceSpecificCredentials(b *testing.B) {
	c, err := identityclient.New(client.Config{
		Region:      "us-east-1",
		Credentials: client.Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: "secret"},
		HTTPClient:  &http.Client{Transport: answer(listAnswer)},
	}, "https://identity.us-east-1.cloud.example")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := c.ListServiceSpecificCredentials(context.Background(), "bench-1", "models.cloud.example")
		if err != nil || len(out.Credentials) != 2 {
			b.Fatalf("%v %+v", err, out)
		}
	}
}
