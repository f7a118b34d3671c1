package provider_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// The permissions guide: its table between these markers is what
// TestAccPermissionsDocumented derives.
const (
	permissionsGuide = "../../templates/guides/permissions.md.tmpl"
	tableBegin       = "<!-- permissions table: begin -->"
	tableEnd         = "<!-- permissions table: end -->"
)

// The operations the guide lists permissions for, each a family of
// Terraform commands:
//   - plan: terraform plan of a create, of an update, of no change, and
//     with -refresh-only (what a plan role needs);
//   - apply: terraform apply of a create and of an update (its refresh and
//     its plan at apply included);
//   - import: terraform import, and terraform plan and apply of a
//     configuration whose import blocks bring the object in;
//   - query: terraform query of the type's list resource;
//   - destroy: terraform destroy.
const (
	opPlan    = "plan"
	opApply   = "apply"
	opImport  = "import"
	opQuery   = "query"
	opDestroy = "destroy"
)

var operations = []string{opPlan, opApply, opImport, opQuery, opDestroy}

// permissionScenario takes one Terraform type through its operations.
// steps makes what the type needs (a user for a key, a domain) with the
// emulator's administrator and returns the commands. A type gains a row
// by one more step: a list resource's query row is
//
//	permissionStep{op: opQuery, config: "<the resource's configuration>",
//		query: `list "cloud_identity_user" "all" { provider = cloud }`, args: []string{"query"}}
//
// appended to its type's steps (the query rows are compared only with a CLI
// that has terraform query, Terraform 1.14+).
type permissionScenario struct {
	typ   string
	steps func(t *testing.T, emu *acctest.Emulator) []permissionStep
}

// query is the query row of a type: its list resource, whole objects
// included (as -generate-config-out reads them), run before the
// scenario's lifecycle so that what was made by hand is listed.
func query(typ string) permissionStep {
	return permissionStep{op: opQuery, config: "\n", args: []string{"query"},
		query: fmt.Sprintf("list %q \"all\" {\n  provider         = cloud\n  include_resource = true\n}\n", typ)}
}

var (
	refreshOnly = permissionStep{op: opPlan, args: []string{"plan", "-refresh-only"}}
	destroy     = permissionStep{op: opDestroy, args: []string{"destroy", "-auto-approve"}}
)

const modelsPolicy = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"

var permissionScenarios = []permissionScenario{
	{"cloud_identity_user", func(t *testing.T, emu *acctest.Emulator) []permissionStep {
		makeUser(t, emu, "made-by-hand")
		return append([]permissionStep{query("cloud_identity_user")}, lifecycle(
			`resource "cloud_identity_user" "u" { user_name = "perm" }`,
			`resource "cloud_identity_user" "u" {
  user_name     = "perm"
  force_destroy = true
}`,
			`import {
  to = cloud_identity_user.u
  id = "made-by-hand"
}
resource "cloud_identity_user" "u" { user_name = "made-by-hand" }`, "cloud_identity_user.u", "made-by-hand")...)
	}},
	{"cloud_identity_user_policy_attachment", func(t *testing.T, emu *acctest.Emulator) []permissionStep {
		makeUser(t, emu, "perm")
		idc := adminIdentity(t, emu)
		makeUser(t, emu, "made-by-hand")
		if err := idc.AttachUserPolicy(context.Background(), "made-by-hand", modelsPolicy); err != nil {
			t.Fatal(err)
		}
		return append([]permissionStep{query("cloud_identity_user_policy_attachment")}, lifecycle(
			fmt.Sprintf(`resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = "perm"
  policy_arn = %q
}`, modelsPolicy), "",
			fmt.Sprintf(`import {
  to = cloud_identity_user_policy_attachment.a
  id = "made-by-hand/%[1]s"
}
resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = "made-by-hand"
  policy_arn = %[1]q
}`, modelsPolicy), "cloud_identity_user_policy_attachment.a", "made-by-hand/"+modelsPolicy)...)
	}},
	{"cloud_identity_service_specific_credential", func(t *testing.T, emu *acctest.Emulator) []permissionStep {
		makeUser(t, emu, "perm")
		makeUser(t, emu, "made-by-hand")
		// The key is made by hand while a create of another configuration,
		// interrupted, is recorded on the user: its import reads the tags
		// (identity:ListUserTags), and its apply marks it (identity:TagUser).
		start := emu.Clock().Now().Add(-time.Second)
		if err := adminIdentity(t, emu).TagUser(context.Background(), "made-by-hand", []identityclient.Tag{{Key: "terraform-cloud:creating:interrupted",
			Value: fmt.Sprintf("models.cloud.example %d %d", start.Unix(), start.Add(5*time.Second).Unix())}}); err != nil {
			t.Fatal(err)
		}
		id, _, err := emu.Identity.CreateCredentialBehindTheBack("made-by-hand", "models.cloud.example", 30, emu.Region())
		if err != nil {
			t.Fatal(err)
		}
		emu.Clock().Advance(2 * time.Minute)
		key := func(user, extra string) string {
			return fmt.Sprintf(`resource "cloud_identity_service_specific_credential" "k" {
  user_name           = %q
  credential_age_days = 30
%s}
`, user, extra)
		}
		return append([]permissionStep{query("cloud_identity_service_specific_credential")}, lifecycle(key("perm", ""), key("perm", "  status = \"Inactive\"\n  reset_triggers = { rotation = \"1\" }\n"),
			fmt.Sprintf("import {\n  to = cloud_identity_service_specific_credential.k\n  id = \"made-by-hand/%s\"\n}\n", id)+key("made-by-hand", ""),
			"cloud_identity_service_specific_credential.k", "made-by-hand/"+id)...)
	}},
	{"cloud_search_domain_config", func(t *testing.T, emu *acctest.Emulator) []permissionStep {
		if err := emu.Search.AddDomain(emusearch.DomainSpec{DomainName: "logs"}); err != nil {
			t.Fatal(err)
		}
		domain := func(name string, hour int) string {
			return fmt.Sprintf(`resource "cloud_search_domain_config" "d" {
  domain_name      = %q
  snapshot_options = { automated_snapshot_start_hour = %d }
}
`, name, hour)
		}
		return append([]permissionStep{query("cloud_search_domain_config")}, lifecycle(domain("demo", 3), domain("demo", 5), "import {\n  to = cloud_search_domain_config.d\n  id = \"logs\"\n}\n"+domain("logs", 0),
			"cloud_search_domain_config.d", "logs")...)
	}},
	{"cloud_search_domain_change_progress", func(*testing.T, *acctest.Emulator) []permissionStep {
		return []permissionStep{plan(`data "cloud_search_domain_change_progress" "p" { domain_name = "demo" }`)}
	}},
	{"cloud_search_domain_dry_run", func(t *testing.T, emu *acctest.Emulator) []permissionStep {
		sc, err := searchclient.New(adminConfig(emu), emu.URL)
		if err != nil {
			t.Fatal(err)
		}
		dry, mode := true, "Verbose"
		out, err := sc.UpdateDomainConfig(context.Background(), &searchclient.UpdateDomainConfigInput{DomainName: "demo",
			Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 7}}, DryRun: &dry, DryRunMode: &mode})
		if err != nil || out.DryRunProgressStatus == nil || out.DryRunProgressStatus.DryRunId == nil {
			t.Fatalf("dry run: %v %v", out, err)
		}
		return []permissionStep{plan(fmt.Sprintf(`data "cloud_search_domain_dry_run" "r" {
  domain_name         = "demo"
  dry_run_id          = %q
  load_dry_run_config = true
}`, *out.DryRunProgressStatus.DryRunId))}
	}},
}

// dryRunOnly marks an action whose every call in an operation was a dry
// run (UpdateDomainConfig with DryRun true, search:DryRun = "true").
const dryRunOnly = " (dry run only)"

// permissionTable is, by type and operation, the actions the emulator
// authorized for the calls of that operation.
type permissionTable map[string]map[string][]string

// derivePermissions runs every scenario as the emulator's administrator
// (every action allowed) and collects, per type and operation, the
// actions the emulator authorized.
func derivePermissions(t *testing.T) permissionTable {
	t.Helper()
	query, why := acctest.CLISupports(t, acctest.FeatureQuery)
	if !query {
		t.Logf("the query rows are not derived: %s", why)
	}
	table := permissionTable{}
	for _, sc := range permissionScenarios {
		emu := acctest.NewEmulator(t)
		if err := emu.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: 100 * time.Millisecond, Dynamic: 100 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		ws := newAdminWorkspace(t)
		// ops holds, by operation, each action and whether every call it
		// was authorized for was a dry run.
		ops := map[string]map[string]bool{}
		for _, st := range sc.steps(t, emu) {
			if st.op == opQuery && !query {
				continue
			}
			if st.query != "" {
				write(t, filepath.Join(ws.Dir, "main.tfquery.hcl"), st.query)
			}
			if st.config != "" {
				if err := ws.Write(emu.ProviderConfig() + st.config); err != nil {
					t.Fatal(err)
				}
			}
			emu.ClearCalls()
			// Options go before the arguments (terraform import's address and id).
			args := append([]string{st.args[0], "-no-color"}, st.args[1:]...)
			if st.op != opQuery { // terraform query takes no -input
				args = append(args[:1], append([]string{"-input=false"}, args[1:]...)...)
			}
			if _, err := ws.Run(context.Background(), args...); err != nil {
				t.Fatalf("%s, %s: %v", sc.typ, st.op, err)
			}
			if st.args[0] == "plan" || st.args[0] == "query" || st.args[0] == "import" {
				// A plan, a query and terraform import never write.
				if bad := writesOrRefusals(emu.Calls()); len(bad) > 0 {
					t.Errorf("%s, terraform %s: %s", sc.typ, strings.Join(st.args, " "), strings.Join(bad, "; "))
				}
			}
			if ops[st.op] == nil {
				ops[st.op] = map[string]bool{}
			}
			for _, call := range emu.Calls() {
				for _, a := range call.Actions {
					dryOnly, seen := ops[st.op][a]
					ops[st.op][a] = call.DryRun && (dryOnly || !seen)
				}
			}
		}
		table[sc.typ] = map[string][]string{}
		for op, set := range ops {
			actions := make([]string, 0, len(set))
			for a, dryOnly := range set {
				if dryOnly {
					a += dryRunOnly
				}
				actions = append(actions, a)
			}
			sort.Strings(actions)
			table[sc.typ][op] = actions
		}
	}
	return table
}

// markdown renders the table as the guide has it: one row per type and
// operation the type has, in the order of permissionScenarios and
// operations.
func (p permissionTable) markdown() string {
	var b strings.Builder
	b.WriteString("| Type | Operation | Actions |\n|---|---|---|\n")
	for _, sc := range permissionScenarios {
		for _, op := range operations {
			actions, ok := p[sc.typ][op]
			if !ok {
				continue
			}
			cell := "none"
			if len(actions) > 0 {
				quoted := make([]string, len(actions))
				for i, a := range actions {
					name, dry := strings.CutSuffix(a, dryRunOnly)
					quoted[i] = "`" + name + "`"
					if dry {
						quoted[i] += dryRunOnly
					}
				}
				cell = strings.Join(quoted, ", ")
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", sc.typ, op, cell)
		}
	}
	return b.String()
}

// documentedTable is the table of the permissions guide, as written.
func documentedTable(t *testing.T) string {
	t.Helper()
	doc := readFile(t, permissionsGuide)
	_, rest, ok := bytes.Cut(doc, []byte(tableBegin))
	table, _, ok2 := bytes.Cut(rest, []byte(tableEnd))
	if !ok || !ok2 {
		t.Fatalf("%s has no table between %q and %q", permissionsGuide, tableBegin, tableEnd)
	}
	return strings.TrimSpace(string(table)) + "\n"
}

// withoutQueryRows is table without its query rows, for a CLI that cannot
// derive them.
func withoutQueryRows(table string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(table, "\n") {
		if !strings.Contains(line, "| "+opQuery+" |") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestAccPermissionsDocumented derives, from the emulator's authorization
// of every call each operation makes, the actions each type needs per
// operation, and fails when the permissions guide lists others, printing
// the table it should have.
func TestAccPermissionsDocumented(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	derived := derivePermissions(t).markdown()
	documented := documentedTable(t)
	if ok, _ := acctest.CLISupports(t, acctest.FeatureQuery); !ok {
		documented = withoutQueryRows(documented)
	}
	if documented != derived {
		t.Errorf("the table of %s differs from the actions the operations need; it should read:\n\n%s", permissionsGuide, derived)
	}
}

// The resources an apply role manages in TestAccPermissionsExactPolicy.
var applyRoleTypes = []string{"cloud_identity_user", "cloud_identity_user_policy_attachment", "cloud_identity_service_specific_credential", "cloud_search_domain_config"}

// applyRoleInfra is a user, its policy and key, and a domain's
// configuration; its variables let a second apply update the key (status
// and a reset) and the domain, and add a second key for the user.
const applyRoleInfra = `
variable "changed" {
  type    = bool
  default = false
}

resource "cloud_identity_user" "app" {
  user_name     = "app"
  force_destroy = true
}

resource "cloud_identity_user_policy_attachment" "app" {
  user_name  = cloud_identity_user.app.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}

resource "cloud_identity_service_specific_credential" "app" {
  user_name           = cloud_identity_user.app.user_name
  credential_age_days = 30
  status              = var.changed ? "Inactive" : "Active"
  reset_triggers      = { rotation = var.changed ? "2" : "1" }
}

# A key for a user an earlier apply created: its create reads the user's
# records of interrupted creates (identity:ListUserTags), which a key for a
# user created by the same apply skips.
resource "cloud_identity_service_specific_credential" "later" {
  count               = var.changed ? 1 : 0
  user_name           = cloud_identity_user.app.user_name
  credential_age_days = 30
}

resource "cloud_search_domain_config" "demo" {
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = var.changed ? 5 : 3 }
}
`

// TestAccPermissionsExactPolicy creates, updates and destroys a user, its
// policy attachment and key, and a domain's configuration under a role
// whose policy allows exactly the actions the permissions guide lists for
// their plan, apply and destroy: all three succeed. With any one of those
// actions taken away, one of them fails with an error that names the
// action, or, for the actions the guide says a missing permission only
// warns about, all succeed and a warning names it.
func TestAccPermissionsExactPolicy(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	documented := parseDocumented(t)
	set := map[string]bool{}
	for _, typ := range applyRoleTypes {
		for _, op := range []string{opPlan, opApply, opDestroy} {
			for _, a := range documented[typ][op] {
				set[a] = true
			}
		}
	}
	var actions []string
	for a := range set {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	if len(actions) == 0 {
		t.Fatal("the permissions guide lists no action for the apply role's types")
	}
	warnOnly := warnOnlyActions(t)

	// lifecycle applies, applies a change and destroys under a role
	// allowed exactly allowed; it stops at the first command that fails.
	lifecycle := func(t *testing.T, allowed []string) (string, error) {
		emu := acctest.NewEmulator(t)
		if err := emu.Search.SetPace(emusearch.Pace{DryRun: 100 * time.Millisecond, BlueGreenStage: 100 * time.Millisecond, Dynamic: 100 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		role := putRoleWith(t, emu, "apply", allowed)
		ws := newAdminWorkspace(t)
		cfg := providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }\n", emu.AccessKeyID(), emu.SecretAccessKey(), role)) + applyRoleInfra
		if err := ws.Write(cfg); err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, args := range [][]string{{"apply", "-auto-approve"}, {"apply", "-auto-approve", "-var=changed=true"}, {"destroy", "-auto-approve", "-var=changed=true"}} {
			_, out, err := ws.RunOutput(context.Background(), append(args, "-input=false", "-no-color")...)
			all.WriteString(out)
			if err != nil {
				return strings.Join(strings.Fields(all.String()), " "), err
			}
		}
		return strings.Join(strings.Fields(all.String()), " "), nil
	}
	t.Run("exactly the documented actions", func(t *testing.T) {
		if out, err := lifecycle(t, actions); err != nil || strings.Contains(out, "not authorized") {
			t.Errorf("under exactly %v: %v\n%s", actions, err, out)
		}
	})
	for _, missing := range actions {
		t.Run("without "+missing, func(t *testing.T) {
			out, err := lifecycle(t, slices.DeleteFunc(slices.Clone(actions), func(a string) bool { return a == missing }))
			switch {
			case !strings.Contains(out, missing):
				t.Errorf("without %s, nothing names it (error %v):\n%s", missing, err, out)
			case err == nil && !warnOnly[missing]:
				t.Errorf("without %s, everything succeeded; the guide does not say it only warns:\n%s", missing, out)
			case err != nil && warnOnly[missing]:
				t.Errorf("without %s, a command failed; the guide says it only warns: %v", missing, err)
			}
		})
	}
}

// warnOnlyActions are the actions the permissions guide marks as ones
// whose absence the provider reports in a warning and works around.
func warnOnlyActions(t *testing.T) map[string]bool {
	t.Helper()
	doc := string(readFile(t, permissionsGuide))
	_, rest, _ := strings.Cut(doc, "<!-- warn only: begin -->")
	list, _, _ := strings.Cut(rest, "<!-- warn only: end -->")
	out := map[string]bool{}
	for _, line := range strings.Split(list, "\n") {
		// Each bullet starts with its action: "- `identity:ListUserTags`: ...".
		if rest, ok := strings.CutPrefix(line, "- `"); ok {
			if a, _, ok := strings.Cut(rest, "`"); ok {
				out[a] = true
			}
		}
	}
	return out
}

// A plan role without the dry run (search:UpdateDomainConfig with
// search:DryRun = "true") still plans a domain's change: one warning says
// the dry run could not be had, dry_run is known only after apply, and
// nothing is written.
func TestAccPermissionsPlanWithoutDryRun(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	acctest.ClearProviderEnv(t)
	emu := acctest.NewEmulator(t)
	role := putRoleWith(t, emu, "plan", []string{"identity:Get*", "identity:List*", "search:Describe*"})
	ws := newAdminWorkspace(t)
	cfg := providerWith(emu, fmt.Sprintf("access_key = %q\n  secret_key = %q\n  assume_role {\n    role_arn = %q\n  }\n", emu.AccessKeyID(), emu.SecretAccessKey(), role)) + `
resource "cloud_search_domain_config" "demo" {
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = 3 }
}
`
	if err := ws.Write(cfg); err != nil {
		t.Fatal(err)
	}
	emu.ClearCalls()
	_, out, err := ws.RunOutput(context.Background(), "plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Warning: Dry Run Unavailable", "search:UpdateDomainConfig", "dry_run = (known after apply)", "1 to add"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	for _, call := range emu.Calls() {
		if !reads(call) {
			t.Errorf("the plan wrote: %s %s", call.Service, call.Operation)
		}
	}
}
