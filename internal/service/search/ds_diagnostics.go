package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// dsDomainExists tells whether a not-found answer was about the domain or
// about the id asked for. The service answers ResourceNotFoundException for
// both, so one DescribeDomainConfig settles it; when that fails too, the
// answer is "unknown" (ok false).
func dsDomainExists(ctx context.Context, c *searchclient.Client, domain string) (exists, ok bool) {
	_, err := c.DescribeDomainConfig(ctx, domain)
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, client.ErrNotFound):
		return false, true
	default:
		return false, false
	}
}

// dsUnknownDomain reports a domain that does not exist.
func dsUnknownDomain(diags *diag.Diagnostics, summary, domain, region string, err error) {
	diags.AddAttributeError(path.Root("domain_name"), summary,
		fmt.Sprintf("The search domain %q does not exist in region %s. Check domain_name, and the provider's region and endpoints.\n\n%s", domain, region, err))
}
