package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client/auth"
)

// The AWS SDK's defaults must not leak in: AWS_* variables and ~/.aws are
// another cloud's.
func TestProfileIgnoresAWSDefaults(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAFROMAWSENV00001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret")
	t.Setenv("AWS_PROFILE", "default")
	if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("[default]\naws_access_key_id = AKIAFROMAWSFILE0001\naws_secret_access_key = x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := auth.Settings{Region: "us-east-1", STSEndpoint: "http://127.0.0.1:1",
		Profile: &auth.Profile{Name: "default", ConfigFiles: auth.DefaultConfigFiles(), CredentialsFiles: auth.DefaultCredentialsFiles()}}
	_, err := s.Provider(context.Background())
	var pe *auth.ProfileError
	if !errors.As(err, &pe) || pe.Reason != "is not in any of them" {
		t.Fatalf("got %v, want the profile missing from ~/.cloud", err)
	}
	if want := filepath.Join(home, ".cloud", "credentials"); !strings.Contains(err.Error(), want) {
		t.Errorf("%q does not name %s", err, want)
	}
}

func TestProfileKinds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	creds := filepath.Join(dir, "credentials")
	if err := os.WriteFile(creds, []byte("[keys]\naws_access_key_id = AKIDEXAMPLE0000001\naws_secret_access_key = s3cret\n[empty]\nregion = us-east-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	settings := func(name string) auth.Settings {
		return auth.Settings{Region: "us-east-1", STSEndpoint: "http://127.0.0.1:1", Profile: &auth.Profile{Name: name, ConfigFiles: []string{}, CredentialsFiles: []string{creds}}}
	}
	p, err := settings("keys").Provider(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Retrieve(context.Background())
	if err != nil || c.AccessKeyID != "AKIDEXAMPLE0000001" || c.SecretAccessKey != "s3cret" {
		t.Errorf("got %+v, %v", c.AccessKeyID, err)
	}
	_, err = settings("empty").Provider(context.Background())
	if err == nil || !strings.Contains(err.Error(), `profile "empty"`) || !strings.Contains(err.Error(), "has no credentials this provider can use") {
		t.Errorf("empty profile: %v", err)
	}
}

// A role session is renewed before it ends: with less than the renewal
// window left, the next use takes a new session; with more, the cached one
// is used, and its expiry is given 4 to 5 minutes early so that nothing
// signed with it outlives the renewal. Static keys keep their exact expiry.
func TestRoleSessionRenewedBeforeExpiry(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var left atomic.Int64 // how long each new session lasts
	var asked atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		asked.Store(r.FormValue("DurationSeconds"))
		end := time.Now().Add(time.Duration(left.Load())).UTC().Format(time.RFC3339)
		w.Header().Set("Content-Type", "text/xml")
		_, _ = fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIASESSION%07d</AccessKeyId><SecretAccessKey>s</SecretAccessKey><SessionToken>t</SessionToken><Expiration>%s</Expiration></Credentials><AssumedRoleUser><Arn>arn:cloud:identity::123456789012:assumed-role/deploy/x</Arn><AssumedRoleId>AROA:x</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></AssumeRoleResponse>`, n, end)
	}))
	t.Cleanup(srv.Close)
	s := auth.Settings{Region: "us-east-1", STSEndpoint: srv.URL,
		Static:     &auth.Static{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "secret"},
		AssumeRole: &auth.AssumeRole{RoleARN: "arn:cloud:identity::123456789012:role/deploy"}}
	ctx := context.Background()
	retrieve := func(p aws.CredentialsProvider) aws.Credentials {
		t.Helper()
		c, err := p.Retrieve(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	left.Store(int64(3 * time.Minute)) // inside the window
	p, err := s.Provider(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first, second := retrieve(p), retrieve(p)
	if d := asked.Load(); d != "3600" {
		t.Errorf("assume_role without duration asked for DurationSeconds %v, want the documented default 3600", d)
	}
	if calls.Load() != 2 || first.AccessKeyID == second.AccessKeyID {
		t.Errorf("a session with 3 minutes left was used again (%d AssumeRole calls, keys %s, %s); want a new one", calls.Load(), first.AccessKeyID, second.AccessKeyID)
	}

	calls.Store(0)
	left.Store(int64(time.Hour))
	p, err = s.Provider(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := retrieve(p)
	_ = retrieve(p)
	if calls.Load() != 1 {
		t.Errorf("a session with an hour left was renewed (%d AssumeRole calls); want it cached", calls.Load())
	}
	if early := time.Until(c.Expires); early > time.Hour-auth.RenewalWindow+auth.RenewalWindow/5+5*time.Second || early < time.Hour-auth.RenewalWindow-5*time.Second {
		t.Errorf("an hour's session is given as ending in %s; want 4 to 5 minutes before its end", early.Round(time.Second))
	}

	end := time.Now().Add(3 * time.Minute).UTC().Truncate(time.Second)
	static, err := auth.Settings{Static: &auth.Static{AccessKeyID: "ASIASTATIC0000001", SecretAccessKey: "s", SessionToken: "t", Expires: end}}.Provider(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := retrieve(static); !got.Expires.Equal(end) {
		t.Errorf("static keys expire %s, want their session_expiration %s", got.Expires, end)
	}
}
