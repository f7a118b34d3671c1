package diagnostics

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// Each kind of failed UpdateDomainConfig finds its remedy, the domain
// quoted as the other search diagnostics quote it, the error whole (even
// one that looks like a placeholder).
func TestSearchUpdateError(t *testing.T) {
	t.Parallel()
	kind := func(k error, msg string) error { return &client.APIError{Kind: k, Message: msg} }
	for _, tc := range []struct {
		err  error
		want string
	}{
		{kind(client.ErrOutcomeUnknown, "cut"), "The change to domain %q was sent but its answer was lost: %s\n\nIf in doubt, run terraform plan: it reads the domain and shows what is left to do."},
		{kind(client.ErrLimitExceeded, "busy"), "The service refused the change to domain %q: %s\n\nIf another change is running, wait for it (data source cloud_search_domain_change_progress shows it) and apply again."},
		{kind(client.ErrValidation, "no"), "The service refused the change to domain %q: %s\n\nIf the plan's dry run was clean, the service's verdict changed since the plan; plan again to review it."},
		{errors.New("odd {domain}"), "Updating the configuration of domain %q failed: %s"},
	} {
		if got, want := SearchUpdateError(`lo"gs`, tc.err), fmt.Sprintf(tc.want, `lo"gs`, tc.err); got != want {
			t.Errorf("SearchUpdateError(%v) =\n%s\nwant\n%s", tc.err, got, want)
		}
	}
}

// A not-found answer blames the domain, the id, or says it cannot tell.
func TestAddSearchNotFound(t *testing.T) {
	t.Parallel()
	l := SearchLookup{Summary: "Unable to Read", Domain: "logs", Region: "r1", Thing: "dry run", ID: "d1", IDAttribute: "dry_run_id", Use: "Use another."}
	err := errors.New("not found")
	for _, tc := range []struct {
		exists, known bool
		at, detail    string
	}{
		{false, true, "domain_name", "The search domain \"logs\" does not exist in region r1. Check domain_name, and the provider's region and endpoints.\n\nnot found"},
		{true, true, "dry_run_id", "Domain \"logs\" has no dry run with id d1. Use another.\n\nnot found"},
		{false, false, "", "Either domain \"logs\" or its dry run d1 does not exist. Check domain_name and dry_run_id.\n\nnot found"},
	} {
		var diags diag.Diagnostics
		AddSearchNotFound(&diags, l, tc.exists, tc.known, err)
		if len(diags) != 1 || diags[0].Summary() != l.Summary || diags[0].Detail() != tc.detail {
			t.Errorf("exists %v, known %v: %v", tc.exists, tc.known, diags)
			continue
		}
		at := ""
		if d, ok := diags[0].(diag.DiagnosticWithPath); ok {
			at = d.Path().String()
		}
		if at != tc.at {
			t.Errorf("exists %v, known %v: blames %q, want %q", tc.exists, tc.known, at, tc.at)
		}
	}
}

func TestAddDryRunReadErrors(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	AddDryRunStillRunning(&diags, "S", "logs", "d1", "pending", time.Minute)
	AddDryRunReadError(&diags, "S", "logs", "d1", &client.APIError{Kind: client.ErrDisabledOperation, Message: "Basic"})
	AddDryRunReadError(&diags, "S", "logs", "d1", &client.APIError{Kind: client.ErrThrottled, Message: "slow"})
	want := []string{
		"Dry run d1 of domain \"logs\" was still \"pending\" after 1m0s. Raise timeouts.read, or set wait_for_completion = false to read the dry run as it is.",
		"The service keeps the planned configuration of Verbose dry runs only, and dry run d1 was not one. Set load_dry_run_config = false, or plan the change with dry_run_mode = \"Verbose\" (the default of cloud_search_domain_config).\n\n",
		"Reading dry run d1 of domain \"logs\" failed. The service is busy or failing.",
	}
	if len(diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d: %v", len(diags), len(want), diags)
	}
	for i, w := range want {
		if d := diags[i].Detail(); len(d) < len(w) || d[:len(w)] != w {
			t.Errorf("diagnostic %d: %q, want it to start %q", i, d, w)
		}
	}
}
