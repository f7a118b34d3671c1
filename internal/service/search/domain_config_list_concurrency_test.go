package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// oneReadAtATime is a provider block for emu whose list resource reads one
// domain at a time, so that a test knows which read comes first and counts
// exactly the reads a limit leaves out.
func oneReadAtATime(emu *acctest.Emulator) string {
	return emu.ProviderConfig(emulatortest.ProviderArguments("  list_concurrency = 1\n"))
}

// TestAccDomainConfigList_sideBySide: with include_resource the domains'
// configurations are read side by side, never more than list_concurrency
// at once, and listed in ListDomainNames' order; with a limit, at most
// list_concurrency-1 domains past it are read.
func TestAccDomainConfigList_sideBySide(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipUnlessCLISupports(t, acctest.FeatureQuery)
	emu := acctest.NewEmulator(t)
	names := []string{"demo"} // the emulator's own
	for i := range 7 {
		name := fmt.Sprintf("fan-%02d", i)
		addDomains(t, emu, emusearch.DomainSpec{DomainName: name})
		names = append(names, name)
	}
	// Each read takes long enough that the next ones start before it ends.
	if err := emu.InjectFault(emulator.Fault{Operation: "DescribeDomainConfig", Kind: emulator.FaultDelay, Delay: 400 * time.Millisecond, Times: -1}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := acctest.NewWorkspace(ctx, t)
	if err := ws.Write(emulatortest.RequiredProvidersBlock + emu.ProviderConfig(emulatortest.ProviderArguments("  list_concurrency = 3\n"))); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Run(ctx, "init", "-backend=false"); err != nil {
		t.Fatal(err)
	}
	query := func(limit int) []string {
		t.Helper()
		block := fmt.Sprintf("list \"cloud_search_domain_config\" \"all\" {\n  provider = cloud\n  include_resource = true\n  limit = %d\n}\n", limit)
		if err := os.WriteFile(filepath.Join(ws.Dir, "adopt.tfquery.hcl"), []byte(block), 0o600); err != nil {
			t.Fatal(err)
		}
		emu.ClearCalls()
		out, err := ws.Output(ctx, "query", "-json")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var found []string
		for line := range strings.Lines(string(out)) {
			var m struct {
				Type  string `json:"type"`
				Found struct {
					Identity map[string]any `json:"identity"`
				} `json:"list_resource_found"`
				Diagnostic struct{ Severity, Summary, Detail string } `json:"diagnostic"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			switch {
			case m.Type == "list_resource_found":
				name, _ := m.Found.Identity["domain_name"].(string)
				found = append(found, name)
			case m.Type == "diagnostic" && m.Diagnostic.Severity == "error":
				t.Errorf("%s: %s", m.Diagnostic.Summary, m.Diagnostic.Detail)
			}
		}
		return found
	}

	if got := query(100); !slices.Equal(got, names) {
		t.Errorf("domains found %v, want %v (ListDomainNames' order)", got, names)
	}
	if n := emulator.MostInFlight(emu.Calls(), "DescribeDomainConfig"); n < 2 || n > 3 {
		t.Errorf("%d DescribeDomainConfig answered at once, want 2 or 3 (side by side, list_concurrency = 3)", n)
	}

	if got := query(2); !slices.Equal(got, names[:2]) {
		t.Errorf("domains found with limit 2: %v, want %v", got, names[:2])
	}
	if n := emu.Sent("DescribeDomainConfig"); n < 2 || n > 2+2 {
		t.Errorf("the query with limit 2 read %d domains, want 2 to 4 (at most list_concurrency-1 past the limit)", n)
	}
}
