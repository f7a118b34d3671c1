package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// errDomainNotFound is a domain the service does not know.
var errDomainNotFound = errors.New("search domain not found")

// domainState is a domain's configuration as Terraform values, with its
// change summary.
type domainState struct {
	sections map[string]tftypes.Value
	// latestChange and latestStatus name the domain's most recent change.
	latestChange, latestStatus string
	// running is the id of a change still running; "" when none is.
	running string
	// clock is the service's clock when it answered the read (zero when
	// not known: an UpdateDomainConfig answer).
	clock client.ServiceClock
}

// findDomainConfig reads a domain's configuration (DescribeDomainConfig):
// errDomainNotFound when there is no such domain. prior supplies what the
// service never returns. While a change runs, its pending values are laid
// over the active ones (see shape.WithPending).
func findDomainConfig(ctx context.Context, c *searchclient.Client, domain string, prior tftypes.Value) (*domainState, error) {
	dc, err := c.DescribeDomainConfig(ctx, domain)
	if errors.Is(err, client.ErrNotFound) {
		return nil, errors.Join(errDomainNotFound, err)
	}
	if err != nil {
		return nil, err
	}
	return newDomainState(dc, prior)
}

func newDomainState(dc *searchclient.DomainConfig, prior tftypes.Value) (*domainState, error) {
	secs, err := shape.Read(dc, prior)
	if err != nil {
		return nil, err
	}
	live := &domainState{sections: secs, clock: dc.Clock}
	if d := dc.ChangeProgressDetails; d != nil {
		live.latestChange, live.latestStatus = changeID(d), searchclient.Deref(d.ConfigChangeStatus)
	}
	if id, _ := dc.RunningChange(); id != "" {
		live.running = id
		shape.WithPending(live.sections, dc.ModifyingProperties)
	}
	return live, nil
}

// changeID is the id in a change summary; "" for none.
func changeID(d *searchclient.ChangeProgressDetails) string {
	if d == nil {
		return ""
	}
	return searchclient.Deref(d.ChangeId)
}

func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// readError is the diagnostic detail of a failed findDomainConfig.
func readError(domain string, err error) string {
	if errors.Is(err, errDomainNotFound) {
		return diagnostics.NoSearchDomain(domain) + "\n\n" + err.Error()
	}
	return fmt.Sprintf("Reading the configuration of domain %q failed: %s", domain, err)
}
