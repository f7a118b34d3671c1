package models

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

var hostRe = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$`)

// FuzzParseToken: DecodeToken never panics, accepts only what carries a
// URL with a host, and every token GenerateToken makes decodes back to its
// host.
func FuzzParseToken(f *testing.F) {
	good, err := GenerateToken(context.Background(), TokenRequest{
		Host: DefaultHost("us-east-1"), Region: "us-east-1",
		Credentials: client.Credentials{AccessKeyID: "AKIDEXAMPLE000000001", SecretAccessKey: "secret"},
		ExpiresIn:   time.Hour, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good.Value, "runtime.models.eu-west-1.cloud.example")
	f.Add(TokenPrefix, "h")
	f.Add(TokenPrefix+"!!!", "h")
	f.Add(TokenPrefix+base64.StdEncoding.EncodeToString([]byte("host/?Action=x&Version=1")), "127.0.0.1:8080")
	f.Add("Bearer "+good.Value, "")
	f.Fuzz(func(t *testing.T, token, host string) {
		if u, err := DecodeToken(token); err == nil {
			if u.Host == "" || u.Scheme != "https" || !strings.HasPrefix(token, TokenPrefix) {
				t.Fatalf("accepted %q as a URL %v", token, u)
			}
		}
		if !hostRe.MatchString(host) {
			return
		}
		tok, err := GenerateToken(context.Background(), TokenRequest{
			Host: host, Region: "us-east-1",
			Credentials: client.Credentials{AccessKeyID: "AKIDEXAMPLE000000001", SecretAccessKey: "secret"},
			ExpiresIn:   time.Hour, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		})
		if err != nil {
			return
		}
		u, err := DecodeToken(tok.Value)
		if err != nil {
			t.Fatalf("a generated token for host %q does not decode: %v", host, err)
		}
		if !strings.EqualFold(u.Host, host) {
			t.Fatalf("host %q came back as %q", host, u.Host)
		}
	})
}
