package provider_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfrun"
)

// TestAccCIGuide applies the CI guide's configuration
// (examples/guides/ci-oidc/main.tf) as GitHub Actions and HCP Terraform
// run it: the same file, the guide's trust policies, and the token in
// CLOUD_WEB_IDENTITY_TOKEN_FILE or TFC_WORKLOAD_IDENTITY_TOKEN.
func TestAccCIGuide(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	clearEnv(t)
	const guide = "../../examples/guides/ci-oidc/"
	mainTF, err := os.ReadFile(guide + "main.tf")
	if err != nil {
		t.Fatal(err)
	}
	emu := acctest.NewEmulator(t)
	t.Setenv("CLOUD_ENDPOINT_URL", emu.URL)

	cases := []struct {
		name, issuer, subject, trustFile, role string
		// env sets the token where the CI system puts it (in this process:
		// the provider is served from here).
		env func(t *testing.T, token string)
	}{
		{"GitHub Actions", "https://token.actions.githubusercontent.com", "repo:acme/infra:ref:refs/heads/main", "trust-github.json", "ci-github",
			func(t *testing.T, token string) {
				f := filepath.Join(t.TempDir(), "oidc-token")
				write(t, f, token)
				t.Setenv("CLOUD_WEB_IDENTITY_TOKEN_FILE", f)
			}},
		{"HCP Terraform", "https://app.terraform.io", "organization:acme:project:Default:workspace:infra:run_phase:apply", "trust-hcp-terraform.json", "ci-hcp",
			func(t *testing.T, token string) { t.Setenv("TFC_WORKLOAD_IDENTITY_TOKEN", token) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			signer := newTokenSigner(t)
			if _, err := emu.Identity.AddOIDCProvider(tc.issuer, []string{"sts.cloud.example"}, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{signer.jwk}}); err != nil {
				t.Fatal(err)
			}
			trust, err := os.ReadFile(guide + tc.trustFile)
			if err != nil {
				t.Fatal(err)
			}
			role := putRole(t, emu, tc.role, trust)
			token := signer.sign(t, tc.issuer, tc.subject, "sts.cloud.example", emu.Clock().Now().Add(10*time.Minute))

			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			env, stop, err := tfrun.Reattach(ctx, providerserver.NewProtocol6(provider.New("test")()))
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			env = append(env, "TF_VAR_ci_role_arn="+role.Arn)
			tc.env(t, token)
			ws := &tfrun.Workspace{CLI: os.Getenv("TF_ACC_TERRAFORM_PATH"), Dir: t.TempDir(), Env: env}
			if err := ws.Write(string(mainTF) + userResource); err != nil {
				t.Fatal(err)
			}
			emu.ClearCalls()
			for _, args := range [][]string{{"init", "-backend=false"}, {"apply", "-auto-approve"}} {
				if _, err := ws.Run(ctx, args...); err != nil {
					t.Fatal(err)
				}
			}
			if err := signedBy(emu, role.Arn)(nil); err != nil {
				t.Error(err)
			}
			if _, err := ws.Run(ctx, "destroy", "-auto-approve"); err != nil {
				t.Fatal(err)
			}
		})
	}
}
