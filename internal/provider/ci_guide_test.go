package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
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
	acctest.ClearProviderEnv(t)
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
			role, err := emu.Identity.PutRole(tc.role, trust, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := emu.Identity.AttachPrincipalPolicy(role.Arn, "policy-one-role.json", readFile(t, guide+"policy-one-role.json")); err != nil {
				t.Fatal(err)
			}
			token := signer.sign(t, tc.issuer, tc.subject, "sts.cloud.example", emu.Clock().Now().Add(10*time.Minute))

			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			ws := acctest.NewWorkspace(ctx, t)
			ws.Env = append(ws.Env, "TF_VAR_ci_role_arn="+role.Arn)
			tc.env(t, token)
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

// The infrastructure the two-role test manages: a user with its policy
// and key, a domain's configuration adopted (demo) and one imported
// (logs), each of whose settings come from variables so a step can plan
// an update.
const twoRolesInfra = `
variable "key_status" {
  type    = string
  default = "Active"
}

variable "snapshot_hour" {
  type    = number
  default = 3
}

resource "cloud_identity_user" "app" {
  user_name = "app"
}

resource "cloud_identity_user_policy_attachment" "app" {
  user_name  = cloud_identity_user.app.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

resource "cloud_identity_service_specific_credential" "app" {
  user_name           = cloud_identity_user.app.user_name
  credential_age_days = 30
  status              = var.key_status
}

resource "cloud_search_domain_config" "demo" {
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = var.snapshot_hour }
}
`

// What the import step brings under management: made by hand, then
// imported with import blocks.
const twoRolesImported = `
import {
  to = cloud_identity_user.legacy
  id = "legacy"
}

resource "cloud_identity_user" "legacy" {
  user_name = "legacy"
}

import {
  to = cloud_identity_user_policy_attachment.legacy
  id = "legacy/arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

resource "cloud_identity_user_policy_attachment" "legacy" {
  user_name  = cloud_identity_user.legacy.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

import {
  to = cloud_identity_service_specific_credential.legacy
  id = "legacy/%s"
}

resource "cloud_identity_service_specific_credential" "legacy" {
  user_name           = cloud_identity_user.legacy.user_name
  credential_age_days = 30
}

import {
  to = cloud_search_domain_config.logs
  id = "logs"
}

resource "cloud_search_domain_config" "logs" {
  domain_name = "logs"
}
`

// TestAccCIGuideTwoRoles runs the CI guide's two-role configuration
// (two-roles/main.tf, its trust and permission policies) as its GitHub
// Actions workflow does: every plan under the plan role, which may only
// read (and dry-run), saved with -out and applied by the apply role. Each
// plan path of each resource is taken (create, no-op refresh,
// refresh-only, update, import, destroy), and the emulator's request log
// shows no write and no refusal in any of them.
func TestAccCIGuideTwoRoles(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// The apply role's policy allows exactly what the permissions guide
	// lists for the types' plan, apply, import and destroy.
	documented := parseDocumented(t)
	want := map[string]bool{}
	for _, rows := range documented {
		for _, op := range []string{opPlan, opApply, opImport, opDestroy} {
			for _, a := range rows[op] {
				want[a] = true
			}
		}
	}
	for _, f := range []string{"policy-apply.json", "policy-one-role.json"} {
		if got := policyActions(t, ciGuide+f); !maps.Equal(got, want) {
			t.Errorf("%s allows %v; the permissions guide lists %v", f, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
	emu := acctest.NewEmulator(t)
	c := newCIWorkspace(t, emu)
	planRole := guideRole(t, emu, "terraform-plan", "trust-github-plan.json", "policy-plan.json")
	applyRole := guideRole(t, emu, "terraform-apply", "trust-github-apply.json", "policy-apply.json")
	t.Setenv("CLOUD_APPLY_PRINCIPAL_ARN", applyRole)
	plan := func(args ...string) string {
		t.Helper()
		c.as(planRole, subjectPullRequest)
		return c.readOnlyRun(append([]string{"plan", "-input=false", "-no-color"}, args...)...)
	}
	apply := func() {
		t.Helper()
		c.as(applyRole, subjectProduction)
		c.emu.ClearCalls()
		c.run("apply", "-input=false", "-no-color", "tfplan")
		if err := signedBy(emu, applyRole)(nil); err != nil && emu.Answered("CreateUser", false) > 0 {
			t.Error(err)
		}
	}

	c.write([]string{"two-roles/main.tf"}, twoRolesInfra)
	c.run("init", "-backend=false")
	// Create: the key's permission check asks about the apply role.
	out := plan("-out=tfplan")
	if !strings.Contains(out, "4 to add") || strings.Contains(out, "Permission Check Skipped") {
		t.Errorf("the create plan under the plan role:\n%s", out)
	}
	emu.ExpectCalls(t, "SimulatePrincipalPolicy", 1, "the create plan simulates the apply role")
	apply()
	// No-op refresh, and refresh-only.
	if out := plan("-detailed-exitcode"); !strings.Contains(out, "No changes") {
		t.Errorf("the refresh plan after the apply:\n%s", out)
	}
	plan("-refresh-only")
	// Update: the key deactivated, the domain's snapshot hour moved (a dry run).
	t.Setenv("TF_VAR_key_status", "Inactive")
	t.Setenv("TF_VAR_snapshot_hour", "5")
	if out := plan("-out=tfplan"); !strings.Contains(out, "2 to change") {
		t.Errorf("the update plan:\n%s", out)
	}
	emu.ExpectCalls(t, "UpdateDomainConfig", 1, "the update plan's one dry run")
	apply()

	// Import what was made by hand.
	idc := adminIdentity(t, emu)
	if _, err := idc.CreateUser(c.ctx, identityclient.CreateUserInput{UserName: "legacy"}); err != nil {
		t.Fatal(err)
	}
	if err := idc.AttachUserPolicy(c.ctx, "legacy", "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"); err != nil {
		t.Fatal(err)
	}
	keyID, _, err := emu.Identity.CreateCredentialBehindTheBack("legacy", "models.cloud.example", 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "logs"}); err != nil {
		t.Fatal(err)
	}
	c.write([]string{"two-roles/main.tf"}, twoRolesInfra+fmt.Sprintf(twoRolesImported, keyID))
	// The imported key is marked as held by the apply: the plan shows it.
	if out := plan("-out=tfplan"); !strings.Contains(out, "4 to import") || !strings.Contains(out, "held") {
		t.Errorf("the import plan:\n%s", out)
	}
	apply()
	if _, ok := emu.Identity.UserTags("legacy")["terraform-cloud:key:"+keyID]; !ok {
		t.Errorf("the apply of the import did not mark key %s as held: %v", keyID, emu.Identity.UserTags("legacy"))
	}
	if out := plan("-detailed-exitcode"); !strings.Contains(out, "No changes") {
		t.Errorf("the refresh plan after the import:\n%s", out)
	}

	// Destroy.
	if out := plan("-destroy", "-out=tfplan"); !strings.Contains(out, "8 to destroy") {
		t.Errorf("the destroy plan:\n%s", out)
	}
	apply()
	if names := emu.Identity.UserNames(); len(names) != 0 {
		t.Errorf("users left after the destroy: %v", names)
	}
}

// guideRole makes the role name with the guide's trust policy and
// permission policy files, and returns its ARN.
func guideRole(t *testing.T, emu *acctest.Emulator, name, trustFile, policyFile string) string {
	t.Helper()
	role, err := emu.Identity.PutRole(name, readFile(t, ciGuide+trustFile), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.Identity.AttachPrincipalPolicy(role.Arn, policyFile, readFile(t, ciGuide+policyFile)); err != nil {
		t.Fatal(err)
	}
	return role.Arn
}

// policyActions are the actions a policy document's statements name.
func policyActions(t *testing.T, file string) map[string]bool {
	t.Helper()
	var doc struct {
		Statement []struct {
			Action any
		}
	}
	if err := json.Unmarshal(readFile(t, file), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, st := range doc.Statement {
		switch a := st.Action.(type) {
		case string:
			out[a] = true
		case []any:
			for _, v := range a {
				out[fmt.Sprint(v)] = true
			}
		}
	}
	return out
}
