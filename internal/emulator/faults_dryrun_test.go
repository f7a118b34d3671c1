package emulator_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// dryRun sends a Verbose dry run of a dynamic change (the snapshot hour)
// to domain and returns its verdict and findings; real sends a real change.
func dryRun(t *testing.T, c *searchclient.Client, domain string, real bool) (string, []string) {
	t.Helper()
	dry, verbose, hour := !real, "Verbose", 7
	if real {
		hour = 9 // so the dry runs after it still change the hour
	}
	in := &searchclient.UpdateDomainConfigInput{
		DomainName: domain,
		Sections:   map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": hour}},
		DryRun:     &dry,
	}
	if dry {
		in.DryRunMode = &verbose
	}
	out, err := c.UpdateDomainConfig(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if real {
		return "", nil
	}
	var codes []string
	for _, f := range out.DryRunProgressStatus.ValidationFailures {
		codes = append(codes, *f.Code+" "+*f.Severity+" "+*f.Message)
	}
	return *out.DryRunResults.DeploymentType, codes
}

// A verdict fault makes a domain's dry runs report its deployment type and
// the findings follow it; a validation_failure fault adds its failure; both
// hit one dry run together, only the domain named, never a real change,
// and only as many times as they were told.
func TestDryRunFaults(t *testing.T) {
	t.Parallel()
	e := emulator.New(emulator.Options{})
	e.Clock().Hold()
	e.Clock().Set(time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)) // outside the demo domain's off-peak window (00:00-10:00)
	if err := e.Search.SetPace(search.Pace{}); err != nil {
		t.Fatal(err)
	}
	if err := e.Search.AddDomain(search.DomainSpec{DomainName: "other"}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	c, err := searchclient.New(client.Config{
		Region:      e.Region(),
		Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()},
		MaxRetries:  -1,
	}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}

	if kind, codes := dryRun(t, c, "demo", false); kind != "dynamic" || len(codes) != 0 {
		t.Fatalf("without a fault: %s %v; want dynamic, no findings", kind, codes)
	}
	for _, f := range []emulator.Fault{
		{Kind: emulator.FaultVerdict, Domain: "demo", DeploymentType: "blue/green", Times: 2},
		{Kind: emulator.FaultValidationFailure, Domain: "demo", Code: "ADV_SHARD_COUNT_HIGH", Severity: "Advisory", Message: "Too many shards."},
	} {
		if err := e.InjectFault(f); err != nil {
			t.Fatal(err)
		}
	}
	if kind, _ := dryRun(t, c, "other", false); kind != "dynamic" {
		t.Errorf("another domain's dry run: %s, want dynamic", kind)
	}
	dryRun(t, c, "demo", true) // a real change: not hit
	kind, codes := dryRun(t, c, "demo", false)
	want := []string{
		"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK Advisory ",
		"ADV_SHARD_COUNT_HIGH Advisory Too many shards.",
	}
	if kind != "blue/green" || len(codes) != 2 || codes[0][:len(want[0])] != want[0] || codes[1] != want[1] {
		t.Errorf("with both faults: %s %q; want blue/green %q", kind, codes, want)
	}
	if kind, codes := dryRun(t, c, "demo", false); kind != "blue/green" || len(codes) != 1 {
		t.Errorf("second hit of the verdict (the failure used): %s %q", kind, codes)
	}
	if kind, codes := dryRun(t, c, "demo", false); kind != "dynamic" || len(codes) != 0 {
		t.Errorf("faults used up: %s %q; want dynamic, no findings", kind, codes)
	}
	var logged []string
	for _, call := range e.Calls() {
		if call.Fault != "" {
			logged = append(logged, string(call.Fault))
		}
	}
	if !slices.Equal(logged, []string{"verdict", "verdict"}) {
		t.Errorf("faults in the request log: %v", logged)
	}
}
