package provider_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

const userResource = `
resource "cloud_identity_user" "test" {
  user_name = "provider-test"
}
`

// permissionStep is one Terraform command of a scenario: the operation it
// counts for, the configuration it runs with (the previous one when
// empty) and its arguments.
type permissionStep struct {
	op     string
	config string
	// query, when set, is written to main.tfquery.hcl: the list blocks a
	// query step runs (args {"query"}).
	query string
	args  []string
}

func plan(config string) permissionStep {
	return permissionStep{op: opPlan, config: config, args: []string{"plan"}}
}

func apply(op, config string) permissionStep {
	return permissionStep{op: op, config: config, args: []string{"apply", "-auto-approve"}}
}

// lifecycle is the usual scenario: plan and apply a create, plan with no
// change and refresh-only, plan and apply update (when there is one),
// destroy; then terraform import of what imported names (made by the
// administrator; importArgs are the address and the id), the plan and
// apply of its import block, and destroy it.
func lifecycle(create, update, imported string, importArgs ...string) []permissionStep {
	steps := []permissionStep{plan(create), apply(opApply, ""), plan(""), refreshOnly}
	if update != "" {
		steps = append(steps, plan(update), apply(opApply, ""))
	}
	steps = append(steps, destroy,
		permissionStep{op: opImport, config: imported, args: append([]string{"import"}, importArgs...)},
		permissionStep{op: opImport, args: []string{"plan"}}, apply(opImport, ""), destroy)
	return steps
}

// newAdminWorkspace is an initialised working directory whose provider is
// served from this process.
func newAdminWorkspace(t *testing.T) *tfrun.Workspace {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	ws := acctest.NewWorkspace(ctx, t)
	write(t, filepath.Join(ws.Dir, "versions.tf"), `terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}
`)
	if _, err := ws.Run(ctx, "init", "-backend=false", "-input=false"); err != nil {
		t.Fatal(err)
	}
	return ws
}

// parseDocumented reads the documented table back into actions by type
// and operation.
func parseDocumented(t *testing.T) permissionTable {
	t.Helper()
	table := permissionTable{}
	sc := bufio.NewScanner(strings.NewReader(documentedTable(t)))
	for sc.Scan() {
		cells := strings.Split(strings.Trim(sc.Text(), "|"), "|")
		if len(cells) != 3 || !strings.HasPrefix(strings.TrimSpace(cells[0]), "`") {
			continue
		}
		typ, op := strings.Trim(strings.TrimSpace(cells[0]), "`"), strings.TrimSpace(cells[1])
		var actions []string
		for _, a := range strings.Split(cells[2], ",") {
			a, _ = strings.CutSuffix(strings.TrimSpace(a), dryRunOnly)
			if a = strings.Trim(a, "`"); a != "" && a != "none" {
				actions = append(actions, a)
			}
		}
		if table[typ] == nil {
			table[typ] = map[string][]string{}
		}
		table[typ][op] = actions
	}
	return table
}

// putRoleWith makes a role the administrator may assume whose policy
// allows exactly actions, on every resource, and returns its ARN.
func putRoleWith(t *testing.T, emu *acctest.Emulator, name string, actions []string) string {
	t.Helper()
	role, err := emu.Identity.PutRole(name, trustAdmin(""), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	quoted := make([]string, len(actions))
	for i, a := range actions {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	doc := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":[%s],"Resource":"*"}]}`, strings.Join(quoted, ","))
	if _, err := emu.Identity.AttachPrincipalPolicy(role.Arn, "exact", []byte(doc)); err != nil {
		t.Fatal(err)
	}
	return role.Arn
}

func adminConfig(emu *acctest.Emulator) client.Config {
	return client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}}
}

func makeUser(t *testing.T, emu *acctest.Emulator, name string) {
	t.Helper()
	if _, err := adminIdentity(t, emu).CreateUser(context.Background(), identityclient.CreateUserInput{UserName: name}); err != nil {
		t.Fatal(err)
	}
}

// providerWith is a provider block aimed at the emulator with no
// credentials but body's.
func providerWith(emu *acctest.Emulator, body string) string {
	return emu.ProviderConfig(emulatortest.Credentials("", ""), emulatortest.ProviderArguments(body))
}

// signedBy checks that the user was created with temporary credentials of
// a session of roleArn.
func signedBy(emu *acctest.Emulator, roleArn string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, c := range emu.Calls() {
			if c.Operation != "CreateUser" || c.Status >= 300 {
				continue
			}
			cred, ok := emu.Credentials().Get(c.AccessKeyID)
			if !ok || cred.SessionToken == "" || cred.Principal != roleArn {
				return fmt.Errorf("CreateUser was signed by %s (principal %q, session %t), want a session of %s", c.AccessKeyID, cred.Principal, cred.SessionToken != "", roleArn)
			}
			return nil
		}
		return fmt.Errorf("no CreateUser call in the emulator's log")
	}
}

func trustAdmin(condition string) []byte {
	return fmt.Appendf(nil, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:cloud:identity::123456789012:user/emulator-admin"},"Action":"sts:AssumeRole"%s}]}`, condition)
}

func run(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// tokenSigner signs web identity tokens as an OIDC issuer would.
type tokenSigner struct {
	key *rsa.PrivateKey
	jwk jose.JSONWebKey
}

func newTokenSigner(t *testing.T) *tokenSigner {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return &tokenSigner{key: key, jwk: jose.JSONWebKey{Key: &key.PublicKey, KeyID: "k1", Algorithm: string(jose.RS256), Use: "sig"}}
}

func (s *tokenSigner) token(t *testing.T, aud string, exp time.Time) string {
	t.Helper()
	return s.sign(t, issuer, subject, aud, exp)
}

func (s *tokenSigner) sign(t *testing.T, iss, sub, aud string, exp time.Time) string {
	t.Helper()
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: s.key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.Claims{Issuer: iss, Subject: sub, Audience: jwt.Audience{aud}, Expiry: jwt.NewNumericDate(exp), IssuedAt: jwt.NewNumericDate(exp.Add(-time.Hour))}
	tok, err := jwt.Signed(sig).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(strings.TrimLeft(content, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
}

// adminIdentity is an identity client of the emulator's administrator, to
// make what a test imports.
func adminIdentity(t *testing.T, emu *acctest.Emulator) *identityclient.Client {
	t.Helper()
	idc, err := identityclient.New(adminConfig(emu), emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	return idc
}
