// Package ststest serves fake token services to the tests of the clients
// and of the provider's credential check.
package ststest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// The secrets a fake token service is given and answers with: none may
// reach a log or a diagnostic.
const (
	// JWT is shaped as an OIDC token; its signature part, JWTSignature, is
	// what must never be shown.
	JWT          = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJyZXBvOmV4YW1wbGUifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"
	JWTSignature = "c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"
	// RoleSecret and RoleSession are the role session's secret access key
	// and session token.
	RoleSecret  = "role-session-secret-access-key-0123"
	RoleSession = "role-session-token-FwoGZXIvYXdzEXAMPLE"
)

// Silent is a token service that accepts requests and never answers;
// attempts counts the requests. It ends with the test.
func Silent(t testing.TB) (srv *httptest.Server, attempts *atomic.Int32) {
	t.Helper()
	attempts = new(atomic.Int32)
	srv = httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client go
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, attempts
}

// RoleSessions is a token service that answers AssumeRoleWithWebIdentity
// with a role session (RoleSecret, RoleSession) and GetCallerIdentity with
// the role's identity; any other action is a 400. It ends with the test.
func RoleSessions(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "text/xml")
		switch r.Form.Get("Action") {
		case "AssumeRoleWithWebIdentity":
			_, _ = w.Write([]byte(`<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>` +
				`<AccessKeyId>ASIAROLESESSION0001</AccessKeyId><SecretAccessKey>` + RoleSecret + `</SecretAccessKey>` +
				`<SessionToken>` + RoleSession + `</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>` +
				`</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`))
		case "GetCallerIdentity":
			_, _ = w.Write([]byte(`<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:cloud:sts::123456789012:assumed-role/deploy/ci</Arn>` +
				`<Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`))
		default:
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
