package diagnostics

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// The search service's remedies: cloud_search_domain_config's failed
// reads and changes, and its data sources' reads by id.

// NoSearchDomain says what to do when cloud_search_domain_config finds no
// domain of its domain_name.
func NoSearchDomain(domain string) string {
	return fmt.Sprintf("There is no search domain %q. cloud_search_domain_config manages the configuration of an existing domain; check domain_name.", domain)
}

// SearchUpdateError is the detail of a failed UpdateDomainConfig of
// domain: what happened to the change, err, and what to do.
func SearchUpdateError(domain string, err error) string {
	return searchUpdateRemedies.For(err, "domain", strconv.Quote(domain), "error", err.Error()).Text
}

// searchUpdateRemedies are the remedies for a failed UpdateDomainConfig.
// Their placeholders: {domain} (quoted) and {error}.
var searchUpdateRemedies = Remedies{
	ByKind: []Remedy{
		{Kinds: []error{client.ErrOutcomeUnknown}, Text: "The change to domain {domain} was sent but its answer was lost: {error}\n\nIf in doubt, run terraform plan: it reads the domain and shows what is left to do."},
		{Kinds: []error{client.ErrLimitExceeded}, Text: "The service refused the change to domain {domain}: {error}\n\nIf another change is running, wait for it (data source cloud_search_domain_change_progress shows it) and apply again."},
		{Kinds: []error{client.ErrValidation}, Text: "The service refused the change to domain {domain}: {error}\n\nIf the plan's dry run was clean, the service's verdict changed since the plan; plan again to review it."},
	},
	Otherwise: Remedy{Text: "Updating the configuration of domain {domain} failed: {error}"},
}

// SearchLookup is a search data source's read of something of a domain
// by its id (a change, a dry run), which the service answered with not
// found: it says so for the domain and for the id alike.
type SearchLookup struct {
	// Summary titles the diagnostic.
	Summary        string
	Domain, Region string
	// Thing names what was read ("change", "dry run"); ID is its id, and
	// IDAttribute the data source's attribute that holds it.
	Thing, ID, IDAttribute string
	// Use says which ids are of the domain's.
	Use string
}

// AddSearchNotFound reports a lookup the service answered with not found
// (err), blaming what is missing: the domain when it does not exist, the
// id when the domain exists. known is false when whether the domain
// exists could not be told.
func AddSearchNotFound(diags *diag.Diagnostics, l SearchLookup, exists, known bool, err error) {
	switch {
	case known && !exists:
		AddSearchDomainMissing(diags, l.Summary, l.Domain, l.Region, err)
	case known:
		diags.AddAttributeError(path.Root(l.IDAttribute), l.Summary,
			fmt.Sprintf("Domain %q has no %s with id %s. %s\n\n%s", l.Domain, l.Thing, l.ID, l.Use, err))
	default:
		diags.AddError(l.Summary, fmt.Sprintf("Either domain %q or its %s %s does not exist. Check domain_name and %s.\n\n%s", l.Domain, l.Thing, l.ID, l.IDAttribute, err))
	}
}

// AddSearchDomainMissing reports a domain a data source reads that does
// not exist.
func AddSearchDomainMissing(diags *diag.Diagnostics, summary, domain, region string, err error) {
	diags.AddAttributeError(path.Root("domain_name"), summary,
		fmt.Sprintf("The search domain %q does not exist in region %s. Check domain_name, and the provider's region and endpoints.\n\n%s", domain, region, err))
}

// AddDryRunStillRunning reports a dry run that the data source waited for
// longer than its read timeout: still status after after.
func AddDryRunStillRunning(diags *diag.Diagnostics, summary, domain, id, status string, after time.Duration) {
	diags.AddAttributeError(path.Root("wait_for_completion"), summary,
		fmt.Sprintf("Dry run %s of domain %q was still %q after %s. Raise timeouts.read, or set wait_for_completion = false to read the dry run as it is.",
			id, domain, status, after))
}

// AddDryRunReadError reports a failed read of dry run id of domain that
// neither missed nor ran out of time: a planned configuration asked of a
// dry run that keeps none, or what every read meets (AddReadError).
func AddDryRunReadError(diags *diag.Diagnostics, summary, domain, id string, err error) {
	if errors.Is(err, client.ErrDisabledOperation) {
		diags.AddAttributeError(path.Root("load_dry_run_config"), summary,
			fmt.Sprintf("The service keeps the planned configuration of Verbose dry runs only, and dry run %s was not one. Set load_dry_run_config = false, or plan the change with dry_run_mode = \"Verbose\" (the default of cloud_search_domain_config).\n\n%s", id, err))
		return
	}
	AddReadError(diags, summary, fmt.Sprintf("dry run %s of domain %q", id, domain), err)
}
