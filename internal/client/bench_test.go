package client_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// answer is a transport that answers every request with the same body, so
// a benchmark measures the client and not a network. Its length is given,
// as a service's answer gives it.
type answer []byte

func (a answer) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(a)), ContentLength: int64(len(a)), Request: r}, nil
}

// BenchmarkSign is the signing of one request as the client does it: the
// body's hash and a SigV4 signature.
func BenchmarkSign(b *testing.B) {
	signer := v4.NewSigner()
	creds := aws.Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: "secret"}
	body := []byte("Action=ListServiceSpecificCredentials&Version=2010-05-08&UserName=bench-1&ServiceName=models.cloud.example")
	b.ReportAllocs()
	for b.Loop() {
		hr, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "https://identity.us-east-1.cloud.example/", bytes.NewReader(body))
		sum := sha256.Sum256(body)
		hash := hex.EncodeToString(sum[:])
		hr.Header.Set("X-Amz-Content-Sha256", hash)
		if err := signer.SignHTTP(context.Background(), creds, hr, hash, "identity", "us-east-1", time.Now().UTC()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDo is one signed request through the client's whole stack
// (logging transport, retries, signing), answered without a network.
func BenchmarkDo(b *testing.B) {
	benchmarkDo(b, context.Background())
}

// BenchmarkDoLogged is BenchmarkDo under a provider logger, as in a
// provider RPC: "off" as when no TF_LOG* variable is set, "trace" with
// TF_LOG_PROVIDER_CLOUD_HTTP=TRACE (headers and bodies redacted and logged).
func BenchmarkDoLogged(b *testing.B) {
	for _, level := range []string{"off", "trace"} {
		b.Run(level, func(b *testing.B) {
			b.Setenv("TF_LOG_PROVIDER_CLOUD_HTTP", level)
			benchmarkDo(b, tflogtest.RootLogger(context.Background(), io.Discard))
		})
	}
}

func benchmarkDo(b *testing.B, ctx context.Context) {
	b.Helper()
	c, err := client.New(client.Config{
		Region:      "us-east-1",
		Credentials: client.Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: "secret"},
		HTTPClient:  &http.Client{Transport: answer("<ok/>")},
	}, "identity", "https://identity.us-east-1.cloud.example")
	if err != nil {
		b.Fatal(err)
	}
	req := &client.Request{Operation: "GetUser", Method: http.MethodPost, Path: "/", Body: []byte("Action=GetUser&Version=2010-05-08&UserName=bench-1"), Idempotent: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Do(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
