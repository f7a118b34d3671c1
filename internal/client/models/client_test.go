package models

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/botocorevectors"
)

func TestDecodeConverse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		body     string
		wantText string
		wantErr  string
		wantKind error
	}{
		{"ok", 200, `{"output":{"message":{"role":"assistant","content":[{"text":"hi "},{"text":"there"}]}},"stopReason":"end_turn","usage":{"inputTokens":2,"outputTokens":2,"totalTokens":4}}`, "hi there", "", nil},
		{"region", 403, `{"__type":"AccessDeniedException","message":"Credential should be scoped to a valid region"}`, "", "models Converse: HTTP 403 AccessDeniedException: Credential should be scoped to a valid region", client.ErrAccessDenied},
		{"message only", 403, `{"message":"Credential should be scoped to a valid region"}`, "", "models Converse: HTTP 403 Forbidden: Credential should be scoped to a valid region", client.ErrAccessDenied},
		{"qualified type", 403, `{"__type":"com.example#ExpiredTokenException:http://x","message":"expired"}`, "", "models Converse: HTTP 403 ExpiredTokenException: expired", client.ErrAuthentication},
		{"validation", 400, `{"__type":"ValidationException","message":"The request body needs a non-empty messages array."}`, "", "models Converse: HTTP 400 ValidationException: The request body needs a non-empty messages array.", client.ErrValidation},
		{"unauthenticated", 401, `{"__type":"MissingAuthenticationTokenException","message":"no key"}`, "", "models Converse: HTTP 401 MissingAuthenticationTokenException: no key", client.ErrAuthentication},
		{"not json", 502, `<html>bad gateway</html>`, "", "models Converse: HTTP 502 Bad Gateway: the runtime answered without a readable error message", client.ErrInternal},
		{"ok but garbage", 200, `nope`, "", "models Converse: the answer is not converse-shaped JSON: invalid character 'o' in literal null (expecting 'u')", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := decodeConverse(&client.Response{StatusCode: tt.status, Header: http.Header{}, Body: []byte(tt.body)})
			gotErr, gotText := "", ""
			if err != nil {
				gotErr = err.Error()
			} else {
				gotText = out.Text()
			}
			if diff := cmp.Diff([2]string{tt.wantErr, tt.wantText}, [2]string{gotErr, gotText}); diff != "" {
				t.Errorf("decode (-want +got):\n%s", diff)
			}
			if tt.wantKind != nil && !errors.Is(err, tt.wantKind) {
				t.Errorf("error %v is not %v", err, tt.wantKind)
			}
		})
	}
}

func TestGenerateToken(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	creds := client.Credentials{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "s"}
	session := creds
	session.SessionToken, session.Expires = "tok", now.Add(90*time.Minute)
	tests := []struct {
		name        string
		in          TokenRequest
		wantExpires string
		wantIn      string // X-Amz-Expires
		wantErr     string
	}{
		{"12h", TokenRequest{Host: "h.example", Region: "us-east-1", Credentials: creds, ExpiresIn: 12 * time.Hour, Now: now}, "2026-03-04T17:06:07Z", "43200", ""},
		{"session caps", TokenRequest{Host: "h.example", Region: "us-east-1", Credentials: session, ExpiresIn: 12 * time.Hour, Now: now}, "2026-03-04T06:36:07Z", "5400", ""},
		{"over 12h", TokenRequest{Host: "h.example", Region: "us-east-1", Credentials: creds, ExpiresIn: 13 * time.Hour, Now: now}, "", "", "the lifetime 13h0m0s must be between 1s and 12h0m0s"},
		{"session over", TokenRequest{Host: "h.example", Region: "us-east-1", Credentials: session, ExpiresIn: time.Hour, Now: now.Add(2 * time.Hour)}, "", "", "the signing credentials have expired (at 2026-03-04T06:36:07Z)"},
		{"no host", TokenRequest{Region: "us-east-1", Credentials: creds, ExpiresIn: time.Hour, Now: now}, "", "", `invalid models host ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tok, err := GenerateToken(context.Background(), tt.in)
			if err != nil {
				if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			u, derr := DecodeToken(tok.Value)
			if derr != nil {
				t.Fatal(derr)
			}
			q := u.Query()
			got := []string{tok.ExpiresAt.Format(time.RFC3339), q.Get("X-Amz-Expires"), u.Host, q.Get("Action"), q.Get("X-Amz-Security-Token")}
			want := []string{tt.wantExpires, tt.wantIn, "h.example", "CallWithBearerToken", tt.in.Credentials.SessionToken}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("token (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(q.Get("X-Amz-Credential"), "AKIDEXAMPLE000001/20260304/us-east-1/models/aws4_request") {
				t.Errorf("credential scope %q", q.Get("X-Amz-Credential"))
			}
		})
	}
}

// The provider's short-term keys are signed as the official token
// generators sign theirs: given the credentials, region, host, lifetime and
// time of each short-term key that botocore signed with SigV4QueryAuth (the
// vectors the emulator's sigv4 tests replay, internal/emulator/botocorevectors),
// GenerateToken makes the same presigned URL, parameter for parameter,
// signature included.
func TestGenerateTokenMatchesBotocore(t *testing.T) {
	t.Parallel()
	v, err := botocorevectors.Load()
	if err != nil || len(v.Tokens) == 0 {
		t.Fatalf("vectors.json: %v (%+v)", err, v)
	}
	at := v.At
	for _, tk := range v.Tokens {
		theirs, err := DecodeToken(tk.Token)
		if err != nil {
			t.Fatalf("%s: %v", tk.Name, err)
		}
		q := theirs.Query()
		in := TokenRequest{Host: theirs.Host, Region: tk.Region, Now: at, ExpiresIn: time.Duration(tk.Expires) * time.Second}
		for _, c := range v.Credentials {
			if strings.HasPrefix(q.Get("X-Amz-Credential"), c.AccessKeyID+"/") {
				in.Credentials = client.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken}
			}
		}
		tok, err := GenerateToken(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", tk.Name, err)
		}
		ours, err := DecodeToken(tok.Value)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(theirs.Query(), ours.Query()); diff != "" || ours.Host != theirs.Host || ours.Path != theirs.Path {
			t.Errorf("%s: ours differs from botocore's (-botocore +ours):\n%s\nours:   %s\ntheirs: %s", tk.Name, diff, ours, theirs)
		}
	}
}
