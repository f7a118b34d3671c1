package provider_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

var updateCalls = flag.Bool("update-calls", false, "rewrite testdata/api_calls.txt with the counts measured")

const callsFile = "testdata/api_calls.txt"

// callStep is one Terraform command whose API calls are counted. A step
// named "" prepares the next ones and is not counted.
type callStep struct {
	name   string
	config string
	args   []string
}

// TestAccAPICalls counts the API calls each Terraform operation makes on
// each resource type, from the emulator's request log, and fails when any
// count rises above the committed table (testdata/api_calls.txt). The
// emulator's work is immediate, so a wait costs one poll and the counts do
// not depend on timing; how often a longer wait polls is package poll's
// test.
//
// After lowering a count, run with -update-calls to commit the new table.
func TestAccAPICalls(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	acctest.PreCheck(t)
	emu := acctest.NewEmulator(t)
	if err := emu.Search.SetPace(emusearch.Pace{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewWorkspace(ctx, t)

	header := emu.ProviderConfig(emulatortest.RequiredProviders())
	user := `
resource "cloud_identity_user" "u" {
  user_name = "calls-user"
}
`
	attachment := `
resource "cloud_identity_user_policy_attachment" "a" {
  user_name  = cloud_identity_user.u.user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}
`
	key := func(status string) string {
		return fmt.Sprintf(`
resource "cloud_identity_service_specific_credential" "k" {
  user_name    = cloud_identity_user.u.user_name
  service_name = "models.cloud.example"
  status       = %q

  credential_age_days = 30
}
`, status)
	}
	domain := func(hour int) string {
		return fmt.Sprintf(`
resource "cloud_search_domain_config" "d" {
  domain_name      = "demo"
  snapshot_options = { automated_snapshot_start_hour = %d }
}
`, hour)
	}
	lifecycle := func(prefix, setup, v1, v2 string) []callStep {
		steps := []callStep{}
		if setup != "" {
			steps = append(steps, callStep{"", setup, []string{"apply", "-auto-approve"}})
		}
		steps = append(steps,
			callStep{prefix + " plan", setup + v1, []string{"plan", "-out=tfplan"}},
			callStep{prefix + " apply create", setup + v1, []string{"apply", "tfplan"}},
			callStep{prefix + " refresh", setup + v1, []string{"apply", "-refresh-only", "-auto-approve"}},
			callStep{prefix + " plan unchanged", setup + v1, []string{"plan"}},
		)
		if v2 != "" {
			steps = append(steps,
				callStep{prefix + " plan update", setup + v2, []string{"plan", "-out=tfplan"}},
				callStep{prefix + " apply update", setup + v2, []string{"apply", "tfplan"}},
			)
		}
		steps = append(steps, callStep{prefix + " destroy", setup, []string{"apply", "-auto-approve"}})
		if setup != "" {
			steps = append(steps, callStep{"", "", []string{"apply", "-auto-approve"}})
		}
		return steps
	}
	var steps []callStep
	steps = append(steps, lifecycle("cloud_identity_user", "", user, "")...)
	steps = append(steps, lifecycle("cloud_identity_user_policy_attachment", user, attachment, "")...)
	steps = append(steps, lifecycle("cloud_identity_service_specific_credential", user, key("Active"), key("Inactive"))...)
	steps = append(steps, lifecycle("cloud_search_domain_config", "", domain(3), domain(4))...)
	// With skip_credentials_validation the caller is found by one
	// GetCallerIdentity when a type needs it: a create records the
	// domain's account in its identity, a refresh makes no call.
	steps = append(steps, skippingLifecycle(emu, domain, lifecycle)...)

	if err := ws.Write(header); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "init", "-backend=false"); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	var order []string
	for _, s := range steps {
		if err := ws.Write(header + s.config); err != nil {
			t.Fatal(err)
		}
		emu.ClearCalls()
		if _, err := ws.Run(ctx, s.args...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.name == "" {
			continue
		}
		calls := map[string]int{}
		total := 0
		for _, c := range emu.Calls() {
			op := c.Operation
			if c.DryRun {
				op += "(DryRun)"
			}
			calls[op]++
			total++
		}
		key := s.name + " | total"
		got[key] = total
		order = append(order, key)
		ops := make([]string, 0, len(calls))
		for op := range calls {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			key := s.name + " | " + op
			got[key] = calls[op]
			order = append(order, key)
		}
	}

	if *updateCalls {
		var b strings.Builder
		b.WriteString("# API calls per Terraform operation, counted from the emulator's request log by\n")
		b.WriteString("# TestAccAPICalls (internal/provider/calls_test.go). The test fails when a\n")
		b.WriteString("# count rises. Rewrite with: TF_ACC=1 go test ./internal/provider -run TestAccAPICalls -update-calls\n")
		b.WriteString("# Each Configure checks the credentials with one GetCallerIdentity (skip_credentials_validation\n")
		b.WriteString("# turns it off); apply -auto-approve configures the provider twice, for its plan and its apply.\n")
		b.WriteString("# A key's or user's create records itself on the user in the service (TagUser, UntagUser, and\n")
		b.WriteString("# ListUserTags/ListServiceSpecificCredentials when an earlier record needs resolving), so that any\n")
		b.WriteString("# machine can recover an interrupted create; a key's plan asks the identity service whether the\n")
		b.WriteString("# caller (the ARN Configure's GetCallerIdentity found) may create it (SimulatePrincipalPolicy).\n")
		b.WriteString("# A fresh plan of a domain config change runs its own dry run and leaves its id in the working\n")
		b.WriteString("# directory's .terraform; the plan Terraform makes at apply takes it and reuses that dry run when it is\n")
		b.WriteString("# still the domain's latest (DescribeDryRunProgress) and the domain shows no change since\n")
		b.WriteString("# (DescribeDomainConfig), and Create reuses the plan at apply's, handed on in memory: one dry run (which\n")
		b.WriteString("# waits for the service's analysis; immediate here) fewer per apply. Apply sends only when the service\n")
		b.WriteString("# shows no change since (DescribeDomainConfig) and reads that dry run for the state (DescribeDryRunProgress).\n")
		for _, k := range order {
			fmt.Fprintf(&b, "%s | %d\n", k, got[k])
		}
		if err := os.WriteFile(callsFile, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readCalls(t)
	for _, k := range order {
		w, ok := want[k]
		switch {
		case !ok:
			t.Errorf("%s: %d calls, not in %s (a new call: justify it, then run with -update-calls)", k, got[k], callsFile)
		case got[k] > w:
			t.Errorf("%s: %d calls, want at most %d", k, got[k], w)
		case got[k] < w:
			t.Logf("%s: %d calls, fewer than the %d in %s: run with -update-calls to lock it in", k, got[k], w, callsFile)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Logf("%s: no longer called (table says %d): run with -update-calls", k, want[k])
		}
	}
}

func readCalls(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Clean(callsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndex(line, " | ")
		n, err := strconv.Atoi(line[i+3:])
		if i < 0 || err != nil {
			t.Fatalf("%s: bad line %q", callsFile, line)
		}
		out[line[:i]] = n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// skippingLifecycle is the lifecycle of the domain config through a
// provider with skip_credentials_validation (an alias, "skip").
func skippingLifecycle(emu *acctest.Emulator, domain func(int) string, lifecycle func(prefix, setup, v1, v2 string) []callStep) []callStep {
	skipping := emu.ProviderConfig(emulatortest.ProviderArguments("  alias = \"skip\"\n  skip_credentials_validation = true\n"))
	skipDomain := func(hour int) string {
		return strings.Replace(domain(hour), `domain_name      = "demo"`, "provider = cloud.skip\n  domain_name      = \"demo\"", 1)
	}
	return lifecycle("cloud_search_domain_config skip_credentials_validation", skipping, skipDomain(3), skipDomain(4))
}
