package search

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
)

// The data sources' not-found answers. The service answers
// ResourceNotFoundException both for a domain that does not exist and for
// an id the domain does not know; one DescribeDomainConfig tells which,
// and internal/diagnostics says what to do about it.

// dsNotFound reports a read by id that the service answered with not
// found (err), blaming the domain or the id (diagnostics.AddSearchNotFound).
func dsNotFound(ctx context.Context, c *searchclient.Client, diags *diag.Diagnostics, l diagnostics.SearchLookup, err error) {
	exists, known := dsDomainExists(ctx, c, l.Domain)
	diagnostics.AddSearchNotFound(diags, l, exists, known, err)
}

// dsDomainExists tells whether domain exists; known is false when that
// cannot be told (the read failed otherwise).
func dsDomainExists(ctx context.Context, c *searchclient.Client, domain string) (exists, known bool) {
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
