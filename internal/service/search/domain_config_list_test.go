package search_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// secretsOfEverySection are the values EverySectionDomain sets that the
// service never returns: none may appear in query output or generated
// configuration.
var secretsOfEverySection = []string{"Fixture-Passw0rd!", `"admin"`, "saml-admins", "saml-admin"}

// TestAccDomainConfigList_query: terraform query lists exactly the domains
// of the provider's region, each with its identity and display name, and
// with include_resource its whole configuration, without any value the
// service never returns.
func TestAccDomainConfigList_query(t *testing.T) {
	emu := acctest.NewEmulator(t)
	now := emu.Clock().Now()
	addDomains(t, emu,
		emusearch.EverySectionDomain("full", "", now),
		emusearch.DomainSpec{DomainName: "legacy", EngineVersion: "Elasticsearch_7.10"},
		emusearch.EverySectionDomain("west", "us-west-2", now),
		emusearch.DomainSpec{DomainName: "west-logs", Region: "us-west-2"},
	)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: emu.ProviderConfig()},
			{
				Query: true,
				Config: `
list "cloud_search_domain_config" "all" {
  provider         = cloud
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("cloud_search_domain_config.all", 3),
					querycheck.ExpectIdentity("cloud_search_domain_config.all", idOf(emu, "demo")),
					querycheck.ExpectIdentity("cloud_search_domain_config.all", idOf(emu, "full")),
					querycheck.ExpectIdentity("cloud_search_domain_config.all", idOf(emu, "legacy")),
					querycheck.ExpectResourceDisplayName("cloud_search_domain_config.all", queryfilter.ByResourceIdentity(idOf(emu, "legacy")),
						knownvalue.StringExact("legacy (Elasticsearch, us-east-1)")),
					querycheck.ExpectResourceKnownValues("cloud_search_domain_config.all", queryfilter.ByResourceIdentity(idOf(emu, "full")), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("domain_name"), KnownValue: knownvalue.StringExact("full")},
						{Path: tfjsonpath.New("cluster_config").AtMapKey("instance_count"), KnownValue: knownvalue.Int64Exact(6)},
						{Path: tfjsonpath.New("snapshot_options").AtMapKey("automated_snapshot_start_hour"), KnownValue: knownvalue.Int64Exact(5)},
						{Path: tfjsonpath.New("advanced_security_options").AtMapKey("saml_options").AtMapKey("roles_key"), KnownValue: knownvalue.StringExact("saml-roles")},
						{Path: tfjsonpath.New("advanced_security_options").AtMapKey("master_user_options"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("master_user_password_wo"), KnownValue: knownvalue.Null()},
					}),
				},
			},
		},
	})
}

// TestAccDomainConfigList_domainDeletedWhileListing: a domain that
// DescribeDomainConfig no longer finds after ListDomainNames named it is
// left out, and the others are still listed.
func TestAccDomainConfigList_domainDeletedWhileListing(t *testing.T) {
	emu := acctest.NewEmulator(t)
	addDomains(t, emu, emusearch.DomainSpec{DomainName: "logs"})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: oneReadAtATime(emu)}, // so that demo's read is the first
			{
				PreConfig: func() {
					// The first read, demo's, answers as for a deleted domain.
					if err := emu.InjectFault(emulator.Fault{Service: "search", Operation: "DescribeDomainConfig", Kind: emulator.FaultError,
						Status: http.StatusConflict, Code: "ResourceNotFoundException"}); err != nil {
						t.Fatal(err)
					}
				},
				Query:  true,
				Config: "list \"cloud_search_domain_config\" \"all\" {\n  provider = cloud\n  include_resource = true\n}\n",
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("cloud_search_domain_config.all", 1),
					querycheck.ExpectIdentity("cloud_search_domain_config.all", idOf(emu, "logs")),
				},
			},
		},
	})
}

// TestAccDomainConfigList_limit: a query's limit bounds the results, and
// the domains past it are not read (one read at a time here; side by side,
// TestAccDomainConfigList_sideBySide bounds the reads past it).
func TestAccDomainConfigList_limit(t *testing.T) {
	emu := acctest.NewEmulator(t)
	addDomains(t, emu, emusearch.DomainSpec{DomainName: "logs"}, emusearch.DomainSpec{DomainName: "metrics"})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: oneReadAtATime(emu)},
			{
				PreConfig: emu.ClearCalls,
				Query:     true,
				Config:    "list \"cloud_search_domain_config\" \"two\" {\n  provider = cloud\n  include_resource = true\n  limit = 2\n}\n",
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("cloud_search_domain_config.two", 2),
					querycheck.ExpectIdentity("cloud_search_domain_config.two", idOf(emu, "demo")),
					querycheck.ExpectIdentity("cloud_search_domain_config.two", idOf(emu, "logs")),
				},
			},
			{
				PreConfig: func() {
					if n := emu.Sent("DescribeDomainConfig"); n != 2 {
						t.Errorf("the query with limit 2 read %d domains, want 2", n)
					}
				},
				Config: oneReadAtATime(emu),
			},
		},
	})
}

// TestAccDomainConfigList_generateConfig: the configuration terraform query
// -generate-config-out writes for a domain with every section set (each
// one in its block) and for an Elasticsearch domain plans as
// a pure import (no change, no UpdateDomainConfig at all, not even a dry
// run), holds no value the service never returns, and applies without a
// write; the next plan is empty. A domain in the middle of someone's
// change imports with the change's pending values and plans no change
// either: apply neither sends anything nor waits for that change, and a
// later refresh records its end.
func TestAccDomainConfigList_generateConfig(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
	emu := acctest.NewEmulator(t)
	// A blue/green change of an hour a stage stays running through the test.
	setPace(t, emu, emusearch.Pace{DryRun: time.Hour, BlueGreenStage: time.Hour, Dynamic: time.Hour})
	emu.ClockToOffPeak()
	full := emusearch.EverySectionDomain("full", "", emu.Clock().Now())
	addDomains(t, emu, full, emusearch.EverySectionDomain("west", "us-west-2", emu.Clock().Now()),
		emusearch.DomainSpec{DomainName: "legacy", EngineVersion: "Elasticsearch_7.10"})
	// demo is in the middle of a colleague's change: its configuration is
	// the change's pending values.
	if _, err := searchClient(t, emu).UpdateDomainConfig(testCtx(t), &searchclient.UpdateDomainConfigInput{
		DomainName: "demo",
		Sections:   map[string]any{"ClusterConfig": map[string]any{"InstanceType": "r6g.xlarge.search"}},
	}); err != nil {
		t.Fatal(err)
	}
	emu.Clock().Advance(90 * time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewWorkspace(ctx, t)
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig()); err != nil {
		t.Fatal(err)
	}
	// The documentation's example is the query.
	query, err := os.ReadFile("../../../examples/list-resources/cloud_search_domain_config/list-resource.tfquery.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws.Dir, "adopt.tfquery.hcl"), query, 0o600); err != nil {
		t.Fatal(err)
	}
	emu.ClearCalls()
	for _, args := range [][]string{{"init", "-backend=false"}, {"query", "-generate-config-out=generated.tf"}} {
		if _, err := ws.Run(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	// The query's own output, as a user or a pipeline reads it.
	shownJSON, err := ws.Output(ctx, "query", "-json")
	if err != nil {
		t.Fatal(err)
	}
	shown := string(shownJSON)
	if !strings.Contains(shown, "full (OpenSearch, us-east-1)") {
		t.Errorf("terraform query -json does not list the domain full:\n%s", shown)
	}
	for _, secret := range secretsOfEverySection {
		if strings.Contains(shown, secret) {
			t.Errorf("terraform query -json shows %s, a value the service never returns", secret)
		}
	}
	generated, err := os.ReadFile(filepath.Join(ws.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	gen := string(generated)
	for _, want := range []string{`domain_name = "full"`, `domain_name = "demo"`, `instance_type                 = "r6g.xlarge.search"`, "identity = {", `account_id  = "` + emu.Account() + `"`} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated configuration lacks %s:\n%s", want, gen)
		}
	}
	// Every section full has is set in its generated block.
	var fullBlock string
	for _, b := range strings.Split(gen, "\nresource ") {
		if strings.Contains(b, `domain_name = "full"`) {
			fullBlock = b
		}
	}
	for _, attr := range sectionAttributes(t, full) {
		if !regexp.MustCompile(`(?m)^  ` + attr + ` +=`).MatchString(fullBlock) {
			t.Errorf("the generated block of full does not set %s:\n%s", attr, fullBlock)
		}
	}
	if !strings.Contains(gen, `domain_name = "legacy"`) {
		t.Errorf("generated configuration lacks the Elasticsearch domain legacy:\n%s", gen)
	}
	if strings.Contains(gen, `"west"`) {
		t.Errorf("generated configuration has us-west-2's domain:\n%s", gen)
	}
	for _, secret := range secretsOfEverySection {
		if strings.Contains(gen, secret) {
			t.Errorf("generated configuration holds %s, a value the service never returns:\n%s", secret, gen)
		}
	}
	if n := emu.Sent("UpdateDomainConfig"); n != 0 {
		t.Errorf("terraform query made %d UpdateDomainConfig calls, want 0", n)
	}

	// The generated configuration plans as import and nothing else.
	emu.ClearCalls()
	if _, err := ws.Run(ctx, "plan", "-out=adopt.tfplan"); err != nil {
		t.Fatal(err)
	}
	planJSON, err := ws.Output(ctx, "show", "-json", "adopt.tfplan")
	if err != nil {
		t.Fatal(err)
	}
	out := string(planJSON)
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions      []string                   `json:"actions"`
				Importing    json.RawMessage            `json:"importing"`
				Before       map[string]json.RawMessage `json:"before"`
				After        map[string]json.RawMessage `json:"after"`
				AfterUnknown map[string]json.RawMessage `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	actions := map[string]string{}
	for _, rc := range plan.ResourceChanges {
		c := rc.Change
		actions[rc.Address] = strings.Join(c.Actions, ",")
		if len(c.Importing) == 0 {
			t.Errorf("%s: not an import", rc.Address)
		}
		if d := cmp.Diff(c.Before, c.After); d != "" {
			t.Errorf("%s: the import plans a change (-before +after):\n%s", rc.Address, d)
		}
		if unknown, _ := json.Marshal(c.AfterUnknown); strings.Contains(string(unknown), "true") {
			t.Errorf("%s: the import plans values known only after apply: %s", rc.Address, unknown)
		}
	}
	// demo's running change is someone else's: nothing to send, so no wait.
	want := map[string]string{"cloud_search_domain_config.all_0": "no-op", "cloud_search_domain_config.all_1": "no-op", "cloud_search_domain_config.all_2": "no-op"}
	if d := cmp.Diff(want, actions); d != "" {
		t.Errorf("planned actions of demo (all_0, change running), full (all_1) and legacy (all_2, Elasticsearch) (-want +got):\n%s", d)
	}
	for _, secret := range secretsOfEverySection {
		if strings.Contains(out, secret) {
			t.Errorf("the plan holds %s, a value the service never returns", secret)
		}
	}
	// The apply imports while the colleague's change still runs: it does
	// not wait for it (the clock stands still, so a wait would time out).
	if _, err := ws.Run(ctx, "apply", "adopt.tfplan"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after adopting, the change still running, is not empty: %v", err)
	}
	// The change completes; the next refresh records its status, and
	// still nothing is planned.
	emu.Clock().Advance(5 * time.Hour)
	if _, err := ws.Run(ctx, "apply", "-refresh-only", "-auto-approve"); err != nil {
		t.Fatal(err)
	}
	stateJSON, err := ws.Output(ctx, "show", "-json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(stateJSON), `"config_change_status":"Completed"`) {
		t.Errorf("the refresh after the colleague's change ended did not record Completed:\n%s", stateJSON)
	}
	if _, err := ws.Run(ctx, "plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after the change ended is not empty: %v", err)
	}
	if n := emu.Sent("UpdateDomainConfig"); n != 0 {
		t.Errorf("plan and apply of the generated configuration made %d UpdateDomainConfig calls (dry runs included), want 0", n)
	}
}

// TestAccDomainConfigList_accountUnknown: when the provider cannot find
// its account (skip_credentials_validation, and GetCallerIdentity fails),
// the query fails once with the provider's reason, before listing or
// reading any domain, rather than as a failure of some domain.
func TestAccDomainConfigList_accountUnknown(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
	emu := acctest.NewEmulator(t)
	addDomains(t, emu, emusearch.DomainSpec{DomainName: "logs"}, emusearch.DomainSpec{DomainName: "metrics"})
	if err := emu.InjectFault(emulator.Fault{Service: "sts", Operation: "GetCallerIdentity", Kind: emulator.FaultError, Status: http.StatusInternalServerError, Times: -1}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewWorkspace(ctx, t)
	skipping := emu.ProviderConfig(emulatortest.ProviderArguments("  skip_credentials_validation = true\n"))
	if err := ws.Write(emulatortest.RequiredProvidersBlock + skipping); err != nil {
		t.Fatal(err)
	}
	query := "list \"cloud_search_domain_config\" \"all\" {\n  provider = cloud\n  include_resource = true\n}\n"
	if err := os.WriteFile(filepath.Join(ws.Dir, "all.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "init", "-backend=false"); err != nil {
		t.Fatal(err)
	}
	_, err := ws.Run(ctx, "query")
	if err == nil {
		t.Fatal("terraform query succeeded without the provider's account")
	}
	out := err.Error()
	if n := strings.Count(out, "Unable to List Search Domain Configs"); n != 1 {
		t.Errorf("terraform query reported the failure %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "GetCallerIdentity") || strings.Contains(out, `domain "`) {
		t.Errorf("the error does not say what failed, or blames a domain:\n%s", out)
	}
	for _, op := range []string{"ListDomainNames", "DescribeDomainConfig"} {
		if n := emu.Sent(op); n != 0 {
			t.Errorf("the query made %d %s calls, want 0: it cannot name any result's account", n, op)
		}
	}
}

// sectionAttributes are the resource's attributes for the top-level
// sections spec sets: the attribute whose name, without underscores, is
// the section's wire name (ClusterConfig is cluster_config).
func sectionAttributes(t *testing.T, spec emusearch.DomainSpec) []string {
	t.Helper()
	var sections map[string]json.RawMessage
	if err := json.Unmarshal(spec.Config, &sections); err != nil {
		t.Fatal(err)
	}
	byWire := map[string]string{}
	for attr := range shape.ResourceAttributes() {
		byWire[strings.ReplaceAll(attr, "_", "")] = attr
	}
	var out []string
	for wire := range sections {
		attr, ok := byWire[strings.ToLower(wire)]
		if !ok {
			t.Fatalf("section %s of the fixture is no attribute of the resource", wire)
		}
		out = append(out, attr)
	}
	sort.Strings(out)
	return out
}

// TestAccDomainConfigList_readFailures: a failing ListDomainNames, and a
// DescribeDomainConfig of the second domain failing otherwise than with
// ResourceNotFoundException, fail terraform query with an error that says
// which (naming the domain), and no configuration is generated.
func TestAccDomainConfigList_readFailures(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
	for name, tc := range map[string]struct {
		faults []emulator.Fault
		want   string
	}{
		"ListDomainNames": {
			faults: []emulator.Fault{{Service: "search", Operation: "ListDomainNames", Kind: emulator.FaultError, Status: http.StatusInternalServerError, Times: -1}},
			want:   "(ListDomainNames) failed",
		},
		"DescribeDomainConfig of the second domain": {
			faults: []emulator.Fault{
				// demo's read goes through; logs' is refused (one read at a
				// time, so demo's is the first).
				{Service: "search", Operation: "DescribeDomainConfig", Kind: emulator.FaultDelay, Delay: time.Millisecond},
				{Service: "search", Operation: "DescribeDomainConfig", Kind: emulator.FaultError, Status: http.StatusForbidden, Code: "AccessDeniedException", Times: -1},
			},
			want: `"logs"`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			emu := acctest.NewEmulator(t)
			addDomains(t, emu, emusearch.DomainSpec{DomainName: "logs"})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			ws := acctest.NewWorkspace(ctx, t)
			if err := ws.Write(emulatortest.RequiredProvidersBlock + oneReadAtATime(emu)); err != nil {
				t.Fatal(err)
			}
			query := "list \"cloud_search_domain_config\" \"all\" {\n  provider = cloud\n  include_resource = true\n}\n"
			if err := os.WriteFile(filepath.Join(ws.Dir, "all.tfquery.hcl"), []byte(query), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := ws.Run(ctx, "init", "-backend=false"); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.faults {
				if err := emu.InjectFault(f); err != nil {
					t.Fatal(err)
				}
			}
			_, err := ws.Run(ctx, "query", "-generate-config-out=generated.tf")
			if err == nil {
				t.Fatal("terraform query succeeded")
			}
			if out := err.Error(); !strings.Contains(out, "Unable to List Search Domain Configs") || !strings.Contains(out, tc.want) {
				t.Errorf("the error does not say %s:\n%s", tc.want, out)
			}
			if gen, err := os.ReadFile(filepath.Join(ws.Dir, "generated.tf")); err == nil {
				t.Errorf("a failed query generated configuration:\n%s", gen)
			}
		})
	}
}
