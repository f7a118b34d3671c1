package sigv4

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/botocorevectors"
)

// Requests and short-term keys signed by botocore (a SigV4 implementation
// independent of the aws-sdk-go-v2 signer the emulator verifies with, and
// of another shape: content-length not signed, no X-Amz-Content-Sha256)
// verify, at the time they
// were signed (the emulator's clock a minute later, real time long past);
// changed after signing, or expired, they do not.
func TestBotocoreVectors(t *testing.T) {
	t.Parallel()
	v, err := botocorevectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	at := v.At
	store := NewStore()
	for _, c := range v.Credentials {
		cred := Credential{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken,
			Principal: "arn:cloud:identity::123456789012:user/botocore", Account: "123456789012"}
		if c.SessionToken != "" {
			cred.Expires = at.Add(24 * time.Hour)
		}
		store.Add(cred)
	}
	if len(v.Requests) < 4 || len(v.Tokens) < 2 {
		t.Fatalf("vectors.json of botocore %s holds %d requests and %d keys", v.Botocore, len(v.Requests), len(v.Tokens))
	}
	for _, rq := range v.Requests {
		for _, tamper := range []bool{false, true} {
			body := rq.Body
			if tamper {
				body += " "
				if rq.Body == "" {
					body = "{}"
				}
			}
			r := httptest.NewRequest(rq.Method, "http://127.0.0.1:8080"+rq.Path, strings.NewReader(body))
			for k, x := range rq.Headers {
				r.Header.Set(k, x)
			}
			caller, verr := store.Verify(r, []byte(body), rq.Service, at.Add(time.Minute))
			switch {
			case tamper && (verr == nil || verr.Condition != "signature"):
				t.Errorf("%s, body changed after signing: %v, want a signature refusal", rq.Name, verr)
			case !tamper && verr != nil:
				t.Errorf("%s: %v", rq.Name, verr)
			case !tamper && (caller.Region != "us-east-1" || !strings.Contains(rq.Headers["Authorization"], "Credential="+caller.AccessKeyID+"/") || caller.Session != (rq.Headers["X-Amz-Security-Token"] != "")):
				t.Errorf("%s: caller %+v", rq.Name, caller)
			}
		}
	}
	for _, tk := range v.Tokens {
		tok, verr := store.VerifyBearer(tk.Token, at.Add(time.Minute))
		if verr != nil {
			t.Errorf("%s: %v", tk.Name, verr)
			continue
		}
		if tok.Region != tk.Region || !tok.SignedAt.Equal(at) || !tok.ExpiresAt.Equal(at.Add(time.Duration(tk.Expires)*time.Second)) {
			t.Errorf("%s: verified as %+v", tk.Name, tok)
		}
		if _, verr := store.VerifyBearer(tk.Token, at.Add(time.Duration(tk.Expires)*time.Second)); verr == nil || verr.Condition != "expired" {
			t.Errorf("%s at its expiry: %v, want expired", tk.Name, verr)
		}
	}
}
