package auth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
