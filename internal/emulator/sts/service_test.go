package sts_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

const account = "123456789012"

func setup(t *testing.T) (*emulator.Emulator, func(creds aws.CredentialsProvider) *sts.Client) {
	t.Helper()
	srv := emulatortest.New(t)
	e := srv.Emulator
	return e, func(creds aws.CredentialsProvider) *sts.Client {
		return sts.New(sts.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), Credentials: creds, RetryMaxAttempts: 1})
	}
}

func static(id, secret, token string) aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(id, secret, token)
}

func apiCode(t *testing.T, err error) (string, string) {
	t.Helper()
	var api smithy.APIError
	if !errors.As(err, &api) {
		t.Fatalf("want an API error, got %v", err)
	}
	return api.ErrorCode(), api.ErrorMessage()
}

func TestAssumeRole(t *testing.T) {
	t.Parallel()
	e, client := setup(t)
	ctx := context.Background()
	admin := client(static(e.AccessKeyID(), e.SecretAccessKey(), ""))
	trust := `{"Version":"2012-10-17","Statement":[{"Sid":"Admin","Effect":"Allow","Principal":{"AWS":"arn:cloud:identity::123456789012:user/emulator-admin"},"Action":"sts:AssumeRole","Condition":{"StringEquals":{"sts:ExternalId":"x-1"}}}]}`
	if _, err := e.Identity.PutRole("deploy", []byte(trust), nil, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Identity.PutRole("other", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:cloud:identity::999999999999:root"},"Action":"sts:AssumeRole"}]}`), nil, 0); err != nil {
		t.Fatal(err)
	}
	role := func(name string) *string { return aws.String("arn:cloud:identity::" + account + ":role/" + name) }

	for _, tc := range []struct {
		name     string
		in       sts.AssumeRoleInput
		code     string
		contains string
	}{
		{"unknown role", sts.AssumeRoleInput{RoleArn: role("nosuch"), RoleSessionName: aws.String("s1")}, "AccessDenied", "the role does not exist"},
		{"untrusted caller", sts.AssumeRoleInput{RoleArn: role("other"), RoleSessionName: aws.String("s1")}, "AccessDenied", "not authorized to perform: sts:AssumeRole"},
		{"no external id", sts.AssumeRoleInput{RoleArn: role("deploy"), RoleSessionName: aws.String("s1")}, "AccessDenied", "not authorized to perform: sts:AssumeRole"},
		{"wrong external id", sts.AssumeRoleInput{RoleArn: role("deploy"), RoleSessionName: aws.String("s1"), ExternalId: aws.String("x-2")}, "AccessDenied", "sts:ExternalId"},
		{"longer than the role allows", sts.AssumeRoleInput{RoleArn: role("deploy"), RoleSessionName: aws.String("s1"), ExternalId: aws.String("x-1"), DurationSeconds: aws.Int32(3 * 3600)}, "ValidationError", "MaxSessionDuration"},
		{"bad session name", sts.AssumeRoleInput{RoleArn: role("deploy"), RoleSessionName: aws.String("a b"), ExternalId: aws.String("x-1")}, "ValidationError", "RoleSessionName"},
	} {
		_, err := admin.AssumeRole(ctx, &tc.in)
		code, msg := apiCode(t, err)
		if code != tc.code || !strings.Contains(msg, tc.contains) {
			t.Errorf("%s: got %s %q, want %s containing %q", tc.name, code, msg, tc.code, tc.contains)
		}
	}

	out, err := admin.AssumeRole(ctx, &sts.AssumeRoleInput{RoleArn: role("deploy"), RoleSessionName: aws.String("ci-run"), ExternalId: aws.String("x-1"), DurationSeconds: aws.Int32(900)})
	if err != nil {
		t.Fatal(err)
	}
	c := out.Credentials
	session := client(static(*c.AccessKeyId, *c.SecretAccessKey, *c.SessionToken))
	id, err := session.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := aws.ToString(id.Arn), "arn:cloud:sts::123456789012:assumed-role/deploy/ci-run"; got != want {
		t.Errorf("caller %s, want %s", got, want)
	}
	if got := aws.ToString(out.AssumedRoleUser.Arn); got != aws.ToString(id.Arn) {
		t.Errorf("AssumedRoleUser %s, GetCallerIdentity %s", got, aws.ToString(id.Arn))
	}
	// Without the session token the key is refused, and after expiry too.
	if _, err := client(static(*c.AccessKeyId, *c.SecretAccessKey, "")).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}); err == nil {
		t.Error("a session key without its token was accepted")
	}
	e.Clock().Advance(16 * time.Minute)
	_, err = session.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if code, _ := apiCode(t, err); code != "ExpiredToken" {
		t.Errorf("expired session: got %s, want ExpiredToken", code)
	}
}

func TestAssumeRoleWithWebIdentity(t *testing.T) {
	t.Parallel()
	e, client := setup(t)
	ctx := context.Background()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	const iss = "https://issuer.example/oidc"
	arn, err := e.Identity.AddOIDCProvider(iss, []string{"aud-1"}, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k", Algorithm: "ES256"}}})
	if err != nil {
		t.Fatal(err)
	}
	if arn != "arn:cloud:identity::123456789012:oidc-provider/issuer.example/oidc" {
		t.Errorf("provider ARN %s", arn)
	}
	trust := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Federated":"` + arn + `"},"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringEquals":{"issuer.example/oidc:sub":"good"}}}]}`
	if _, err := e.Identity.PutRole("ci", []byte(trust), nil, 0); err != nil {
		t.Fatal(err)
	}
	sign := func(c jwt.Claims) string {
		s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, nil)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := jwt.Signed(s).Claims(c).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	now := e.Clock().Now()
	exp := jwt.NewNumericDate(now.Add(time.Hour))
	anon := client(aws.AnonymousCredentials{})
	call := func(token string) (*sts.AssumeRoleWithWebIdentityOutput, error) {
		return anon.AssumeRoleWithWebIdentity(ctx, &sts.AssumeRoleWithWebIdentityInput{
			RoleArn: aws.String("arn:cloud:identity::123456789012:role/ci"), RoleSessionName: aws.String("job"), WebIdentityToken: aws.String(token),
		})
	}
	for _, tc := range []struct {
		name, token, code, contains string
	}{
		{"not a JWT", "abcd", "InvalidIdentityToken", "not a signed JWT"},
		{"shorter than any token", "abc", "ValidationError", "WebIdentityToken must be 4 to 20000 characters"},
		{"unknown issuer", sign(jwt.Claims{Issuer: "https://other.example", Subject: "good", Audience: jwt.Audience{"aud-1"}, Expiry: exp}), "InvalidIdentityToken", "No OpenIDConnect provider found"},
		{"wrong audience", sign(jwt.Claims{Issuer: iss, Subject: "good", Audience: jwt.Audience{"aud-2"}, Expiry: exp}), "InvalidIdentityToken", "Incorrect token audience"},
		{"expired", sign(jwt.Claims{Issuer: iss, Subject: "good", Audience: jwt.Audience{"aud-1"}, Expiry: jwt.NewNumericDate(now.Add(-time.Second))}), "ExpiredTokenException", "Token expired"},
		{"no expiry", sign(jwt.Claims{Issuer: iss, Subject: "good", Audience: jwt.Audience{"aud-1"}}), "InvalidIdentityToken", "no expiry"},
		{"untrusted subject", sign(jwt.Claims{Issuer: iss, Subject: "bad", Audience: jwt.Audience{"aud-1"}, Expiry: exp}), "AccessDenied", `subject "bad"`},
	} {
		_, err := call(tc.token)
		code, msg := apiCode(t, err)
		if code != tc.code || !strings.Contains(msg, tc.contains) {
			t.Errorf("%s: got %s %q, want %s containing %q", tc.name, code, msg, tc.code, tc.contains)
		}
	}
	out, err := call(sign(jwt.Claims{Issuer: iss, Subject: "good", Audience: jwt.Audience{"aud-1"}, Expiry: exp}))
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(out.SubjectFromWebIdentityToken) != "good" || aws.ToString(out.Provider) != arn || aws.ToString(out.Audience) != "aud-1" {
		t.Errorf("answer %+v", out)
	}
	cred, ok := e.Credentials().Get(aws.ToString(out.Credentials.AccessKeyId))
	if !ok || cred.Principal != "arn:cloud:identity::123456789012:role/ci" {
		t.Errorf("session credential %+v", cred)
	}
}
