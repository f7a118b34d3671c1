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

// dsCommonReadError reports errors every read shares: credentials,
// throttling and service failures.
func dsCommonReadError(diags *diag.Diagnostics, summary, what string, err error) {
	var remedy string
	switch {
	case errors.Is(err, client.ErrAuthentication):
		remedy = "The service did not accept the provider's credentials. Check access_key, secret_key and session_token (or the CLOUD_* environment variables) and the region."
	case errors.Is(err, client.ErrAccessDenied):
		remedy = "The credentials are not allowed to read it. Grant the caller the search read permissions for this domain."
	case errors.Is(err, client.ErrThrottled), errors.Is(err, client.ErrInternal):
		remedy = "The service is busy or failing. Run Terraform again later; raise max_retries in the provider block if this recurs."
	case errors.Is(err, client.ErrValidation), errors.Is(err, client.ErrBase):
		remedy = "The service refused the request; its message below says why."
	default:
		remedy = "Check the provider's endpoints and network access to the service, then try again."
	}
	diags.AddError(summary, fmt.Sprintf("Reading %s failed. %s\n\n%s", what, remedy, err))
}
