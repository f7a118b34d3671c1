package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// The CI guide's configurations and policies.
const ciGuide = "../../examples/guides/ci-oidc/"

// GitHub's OIDC token subjects of the guide's jobs.
const (
	subjectPullRequest = "repo:acme/infra:pull_request"
	subjectProduction  = "repo:acme/infra:environment:production"
)

// ciWorkspace runs Terraform in one working directory as the guide's
// GitHub Actions jobs do: each command under the role a job assumes with
// its OIDC token, both from the environment (CLOUD_ROLE_ARN,
// CLOUD_WEB_IDENTITY_TOKEN_FILE). The provider is served from this
// process, so the environment set here is the provider's.
type ciWorkspace struct {
	t      *testing.T
	ctx    context.Context
	emu    *acctest.Emulator
	ws     *tfrun.Workspace
	signer *tokenSigner
	token  string // the token file
}

// newCIWorkspace starts the provider, registers GitHub's issuer with the
// emulator and runs terraform init.
func newCIWorkspace(t *testing.T, emu *acctest.Emulator) *ciWorkspace {
	t.Helper()
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	t.Setenv("CLOUD_ENDPOINT_URL", emu.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	ws := acctest.NewWorkspace(ctx, t)
	c := &ciWorkspace{t: t, ctx: ctx, emu: emu, signer: newTokenSigner(t), token: filepath.Join(t.TempDir(), "oidc-token"),
		ws: ws}
	if _, err := emu.Identity.AddOIDCProvider("https://token.actions.githubusercontent.com", []string{"sts.cloud.example"}, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{c.signer.jwk}}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLOUD_WEB_IDENTITY_TOKEN_FILE", c.token)
	return c
}

// write replaces the configuration with the files named (read from the
// guide's directory) followed by extra.
func (c *ciWorkspace) write(files []string, extra string) {
	c.t.Helper()
	var b strings.Builder
	for _, f := range files {
		b.Write(readFile(c.t, ciGuide+f))
		b.WriteString("\n")
	}
	b.WriteString(extra)
	if err := c.ws.Write(b.String()); err != nil {
		c.t.Fatal(err)
	}
}

// as makes the next commands run as a job whose token has subject and
// which assumes roleArn.
func (c *ciWorkspace) as(roleArn, subject string) {
	c.t.Helper()
	write(c.t, c.token, c.signer.sign(c.t, "https://token.actions.githubusercontent.com", subject, "sts.cloud.example", c.emu.Clock().Now().Add(10*time.Minute)))
	c.t.Setenv("CLOUD_ROLE_ARN", roleArn)
}

// run runs one command and returns its output; a failure ends the test.
func (c *ciWorkspace) run(args ...string) string {
	c.t.Helper()
	_, out, err := c.ws.RunOutput(c.ctx, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// readOnlyRun runs a command that must only read: it clears the
// emulator's request log first and fails the test for any call that
// writes (every operation but reads, the policy simulation, the token
// service's and UpdateDomainConfig's dry run) or is refused.
func (c *ciWorkspace) readOnlyRun(args ...string) string {
	c.t.Helper()
	c.emu.ClearCalls()
	out := c.run(args...)
	if bad := writesOrRefusals(c.emu.Calls()); len(bad) > 0 {
		c.t.Errorf("terraform %s under the read-only role: %s", strings.Join(args, " "), strings.Join(bad, "; "))
	}
	return out
}

// writesOrRefusals names each call of calls that writes or was refused.
func writesOrRefusals(calls []emulator.Call) []string {
	var bad []string
	for _, call := range calls {
		switch {
		case !reads(call):
			bad = append(bad, fmt.Sprintf("wrote %s %s (status %d)", call.Service, call.Operation, call.Status))
		case call.Status == 403:
			bad = append(bad, fmt.Sprintf("%s %s refused (actions %v)", call.Service, call.Operation, call.Actions))
		}
	}
	return bad
}

// reads reports whether a call changes nothing in the cloud.
func reads(call emulator.Call) bool {
	op := call.Operation
	switch {
	case strings.HasPrefix(op, "Get"), strings.HasPrefix(op, "List"), strings.HasPrefix(op, "Describe"):
		return true
	case op == "SimulatePrincipalPolicy", op == "AssumeRole", op == "AssumeRoleWithWebIdentity":
		return true
	case op == "UpdateDomainConfig":
		return call.DryRun
	}
	return false
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
