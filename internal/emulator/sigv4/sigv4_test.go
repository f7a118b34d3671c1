package sigv4

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

var testCred = Credential{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret", Principal: "arn:cloud:identity::123456789012:user/t", Account: "123456789012"}

// signed builds a POST signed the way a client does: shape edits the
// request before signing, after may edit it after signing (what the wire
// carries).
func signed(t *testing.T, cred Credential, service string, at time.Time, body string, shape func(*http.Request), after func(*http.Request)) (*http.Request, []byte) {
	t.Helper()
	b := []byte(body)
	r, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://127.0.0.1:8080/", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	if shape != nil {
		shape(r)
	}
	sum := sha256.Sum256(b)
	creds := aws.Credentials{AccessKeyID: cred.AccessKeyID, SecretAccessKey: cred.SecretAccessKey, SessionToken: cred.SessionToken}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, r, hex.EncodeToString(sum[:]), service, "us-east-1", at); err != nil {
		t.Fatal(err)
	}
	if after != nil {
		after(r)
	}
	return r, b
}

// botocoreShape signs as botocore and the AWS CLI do: content-length is
// not signed (it is set later, by the HTTP layer) and no
// X-Amz-Content-Sha256 header is sent.
func botocoreShape(r *http.Request) { r.ContentLength = 0 }

func restoreLength(body string) func(*http.Request) {
	return func(r *http.Request) { r.ContentLength = int64(len(body)) }
}

func TestVerify(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC().Truncate(time.Second)
	session := testCred
	session.AccessKeyID, session.SessionToken = "ASIAEXAMPLE", "session-token"
	store := NewStore(testCred, session)
	const body = "Action=ListUsers&Version=2010-05-08"
	withSHA := func(r *http.Request) {
		sum := sha256.Sum256([]byte(body))
		r.Header.Set("X-Amz-Content-Sha256", hex.EncodeToString(sum[:]))
	}
	for _, tc := range []struct {
		name        string
		cred        Credential
		service     string
		at          time.Time
		clock       time.Time // the emulator's clock (now when zero)
		shape       func(*http.Request)
		after       func(*http.Request)
		tamper      bool   // the body on the wire is not the one signed
		wantCond    string // "" for accepted
		wantMessage string
	}{
		{name: "this provider's shape: content-length and the body hash signed", shape: withSHA},
		{name: "botocore's shape: content-length not signed, no body hash header", shape: botocoreShape, after: restoreLength(body)},
		{name: "a session token", cred: session, shape: botocoreShape, after: restoreLength(body)},
		{name: "a header added after signing is not signed", shape: botocoreShape, after: func(r *http.Request) {
			r.ContentLength = int64(len(body))
			r.Header.Set("X-Forwarded-For", "10.0.0.1")
		}},
		{name: "a tampered body, hash header sent", shape: withSHA, tamper: true, wantCond: "signature", wantMessage: "X-Amz-Content-Sha256 header does not match"},
		{name: "a tampered body, no hash header", shape: botocoreShape, after: restoreLength(body), tamper: true, wantCond: "signature", wantMessage: "signature we calculated does not match"},
		{name: "a signed header changed", shape: botocoreShape, after: func(r *http.Request) {
			r.ContentLength = int64(len(body))
			r.Header.Set("Content-Type", "application/json")
		}, wantCond: "signature", wantMessage: "does not match"},
		{name: "a signed header dropped", shape: botocoreShape, after: func(r *http.Request) {
			r.ContentLength = int64(len(body))
			r.Header.Del("Content-Type")
		}, wantCond: "signature", wantMessage: "cannot be verified"},
		{name: "host not signed", after: func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "SignedHeaders=content-length;content-type;host;", "SignedHeaders=content-length;content-type;", 1))
		}, wantCond: "signature", wantMessage: "must include host"},
		{name: "another service's scope", service: "iam", wantCond: "signature", wantMessage: "scoped to correct service: 'identity'"},
		{name: "signed an hour ago", at: now.Add(-time.Hour), wantCond: "signature", wantMessage: "Signature expired"},
		{name: "signed at the emulator's clock, two hours ahead", at: now.Add(2 * time.Hour), clock: now.Add(2 * time.Hour)},
		{name: "signed at real time, the emulator's clock two hours ahead", clock: now.Add(2 * time.Hour)},
		{name: "signed an hour before the emulator's clock, two hours ahead", at: now.Add(time.Hour), clock: now.Add(2 * time.Hour), wantCond: "signature", wantMessage: "Signature expired"},
		{name: "signed 16 minutes ahead of real time and of the emulator's clock", at: now.Add(16 * time.Minute), wantCond: "signature", wantMessage: "Signature expired"},
		{name: "signed 14 minutes ahead of real time and of the emulator's clock", at: now.Add(14 * time.Minute)},
		{name: "an unknown key", cred: Credential{AccessKeyID: "AKIDUNKNOWN", SecretAccessKey: "x"}, wantCond: "unknown"},
		{name: "a wrong secret", cred: Credential{AccessKeyID: testCred.AccessKeyID, SecretAccessKey: "wrong"}, wantCond: "signature", wantMessage: "does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cred, service, at := tc.cred, tc.service, tc.at
			if cred.AccessKeyID == "" {
				cred = testCred
			}
			if service == "" {
				service = "identity"
			}
			if at.IsZero() {
				at = now
			}
			r, b := signed(t, cred, service, at, body, tc.shape, tc.after)
			if tc.tamper {
				b = []byte(body + "&UserName=mallory")
			}
			clock := tc.clock
			if clock.IsZero() {
				clock = now
			}
			caller, err := store.Verify(r, b, "identity", clock)
			switch {
			case tc.wantCond == "" && err != nil:
				t.Fatalf("refused: %v (Authorization %s)", err, r.Header.Get("Authorization"))
			case tc.wantCond == "" && caller.AccessKeyID != cred.AccessKeyID:
				t.Fatalf("caller %+v", caller)
			case tc.wantCond != "" && err == nil:
				t.Fatalf("accepted, want %s", tc.wantCond)
			case tc.wantCond != "" && (err.Condition != tc.wantCond || !strings.Contains(err.Message, tc.wantMessage)):
				t.Fatalf("refused with %s %q, want %s %q", err.Condition, err.Message, tc.wantCond, tc.wantMessage)
			}
		})
	}
}

// A key added again with a new secret verifies with the new secret only.
func TestVerifyAfterSecretChange(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC().Truncate(time.Second)
	old := Credential{AccessKeyID: "AKIDROTATED00000001", SecretAccessKey: "old-secret", Principal: "arn:cloud:identity::123456789012:user/r"}
	store := NewStore()
	store.Add(old)
	const body = "Action=ListUsers&Version=2010-05-08"
	verify := func(secret string) string {
		c := old
		c.SecretAccessKey = secret
		r, b := signed(t, c, "identity", now, body, botocoreShape, restoreLength(body))
		if _, err := store.Verify(r, b, "identity", now); err != nil {
			return err.Condition
		}
		return "ok"
	}
	if got := verify("old-secret"); got != "ok" {
		t.Fatalf("the old secret before the change: %s", got)
	}
	renewed := old
	renewed.SecretAccessKey = "new-secret"
	store.Add(renewed)
	if got := []string{verify("new-secret"), verify("old-secret")}; got[0] != "ok" || got[1] != "signature" {
		t.Errorf("after the change, new and old secret: %v, want [ok signature]", got)
	}
}
