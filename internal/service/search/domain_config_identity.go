package search

import (
	"fmt"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
)

// domainIdentityType is the resource identity of cloud_search_domain_config
// (internal/resourceidentity writes and checks it): a domain is named by
// its name, its region and its account. A recorded identity of another
// region is refused before any read: the provider would read a domain of
// the same name elsewhere.
var domainIdentityType = resourceidentity.Type{
	Attributes: []resourceidentity.Attribute{{
		Name: "domain_name", Description: "Name of the domain.",
		Valid: func(s string) bool { return searchclient.ValidDomainName(s) == nil },
		Rule:  "3 to 28 lower-case letters, digits and hyphens, starting with a letter",
	}},
	Region: &resourceidentity.RegionAttribute{
		Description:    "Region of the domain. Defaults to the provider's region; another region is an error (configure a provider for that region).",
		Bound:          "it reads and changes the domains of that region only",
		RefuseRecorded: true,
	},
	// Every write checks the account first, and a refresh that finds no
	// domain leads to an adoption that fails, never to a create.
	RefreshWithoutCall: true,
}

// domainIdentity is the identity of domain in region, without its account.
func domainIdentity(domain, region string) resourceidentity.Identity {
	return resourceidentity.Identity{Attrs: map[string]string{"domain_name": domain}, Region: region}
}

// domainWhat names domain in a diagnostic about its identity.
func domainWhat(domain string) string { return fmt.Sprintf("domain %q", domain) }
