package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/fanout"
	"github.com/cloudlabs/terraform-provider-cloud/internal/listing"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
)

var _ list.ListResourceWithConfigure = (*domainConfigList)(nil)

// NewDomainConfigList is the factory of the cloud_search_domain_config
// list resource: every domain of the provider's region, for terraform
// query (Terraform 1.14+).
func NewDomainConfigList() list.ListResource { return &domainConfigList{} }

// listFailed is the summary of the list's failures.
const listFailed = "Unable to List Search Domain Configs"

// domainConfigList shares the resource's Metadata (a list resource is named
// like its resource) and Configure.
type domainConfigList struct {
	domainConfigResource
}

func (l *domainConfigList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Every search domain of the provider's region (ListDomainNames), each with its identity and, with `include_resource = true`, its whole configuration as `cloud_search_domain_config` reads it (DescribeDomainConfig, one call per domain, up to the provider's `list_concurrency` (10 unless set) at once, the results in ListDomainNames' order). `terraform query -generate-config-out` writes a resource block with every section and an `import` block by identity, which plans as an import with no change (no dry run, no `UpdateDomainConfig`), also for a domain in the middle of someone else's change. Values the service never returns (the master user's name and password, SAML's master user and backend role) are null, and so left out of the generated configuration.",
	}
}

// List lists the region's domains with ListDomainNames and, when asked for
// the resources, reads each one as an import followed by a refresh would.
func (l *domainConfigList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	stream.Results = listing.Limited(req.Limit, func(push func(list.ListResult) bool) {
		if l.clients == nil {
			push(listing.Error(listFailed, "The provider is not configured; this is a bug in the provider."))
			return
		}
		// The account is the provider's, the same for every domain: one failure
		// to find it fails the list once rather than each result.
		account, err := resourceidentity.CallerAccount(ctx, l.clients)
		if err != nil {
			push(listing.Error(listFailed, fmt.Sprintf("Finding the account the provider runs in (GetCallerIdentity), which each domain's identity names, failed: %s", err)))
			return
		}
		domains, err := l.clients.Search.ListDomainNames(ctx, "")
		if err != nil {
			push(listing.Error(listFailed, fmt.Sprintf("Listing the domains of region %s (ListDomainNames) failed: %s", l.clients.Region, err)))
			return
		}
		// Each domain is read (DescribeDomainConfig) beside the others, at most
		// list_concurrency at once; the results keep ListDomainNames' order.
		// Once Limited has the list block's limit of results, the domains
		// past it are not read.
		names := func(_ context.Context, yield func(searchclient.DomainInfo) bool) error {
			for _, d := range domains {
				if !yield(d) {
					break
				}
			}
			return nil
		}
		read := func(ctx context.Context, d searchclient.DomainInfo) (domainResult, error) {
			res, ok := l.result(ctx, req, account, d.DomainName, d.EngineType)
			return domainResult{res, ok}, nil
		}
		for a := range fanout.Ordered(ctx, l.clients.ListConcurrency, names, read) {
			if a.Value.ok && !push(a.Value.ListResult) {
				return
			}
		}
	})
}

// domainResult is one domain's result; ok is false for a domain deleted
// since ListDomainNames.
type domainResult struct {
	list.ListResult
	ok bool
}

// result is one domain of account: its identity, its display name, and when asked
// its whole configuration. A domain deleted since ListDomainNames is no
// result (ok false).
func (l *domainConfigList) result(ctx context.Context, req list.ListRequest, account, name, engine string) (_ list.ListResult, ok bool) {
	res := req.NewListResult(ctx)
	res.DisplayName = fmt.Sprintf("%s (%s, %s)", name, engine, l.clients.Region)
	id := domainIdentity(name, l.clients.Region)
	id.Account = account
	if res.Diagnostics.Append(resourceidentity.Set(ctx, res.Identity, id)...); res.Diagnostics.HasError() || !req.IncludeResource {
		return res, true
	}
	st := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	if res.Diagnostics.Append(setImported(ctx, &st, name)...); res.Diagnostics.HasError() {
		return res, true
	}
	live, err := findDomainConfig(ctx, l.clients.Search, name, st.Raw)
	if errors.Is(err, errDomainNotFound) {
		tflog.Info(ctx, "Search domain deleted while listing, left out", map[string]any{"domain_name": name})
		return res, false
	}
	if err != nil {
		res.Diagnostics.AddError(listFailed, readError(name, err))
		return res, true
	}
	res.Diagnostics.Append(readInto(ctx, &st, name, live)...)
	res.Resource.Raw = st.Raw
	return res, true
}
