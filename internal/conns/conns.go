// Package conns carries the configured API clients from the provider to its
// resources, data sources and ephemeral resources.
package conns

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// Clients is the provider's configured state.
type Clients struct {
	Region string
	// Config is the shared client configuration (credentials included), for
	// types that sign locally, such as the short-term API key.
	Config    client.Config
	Endpoints Endpoints
	// Caller is the principal the provider runs as.
	Caller *Caller
	// ApplyPrincipal is the ARN of the principal that will apply
	// (apply_principal_arn), when another one plans; "" for the caller.
	ApplyPrincipal string
	// PlanChecks remembers, for this provider instance, a plan-time
	// permission check that could not be made, so that a plan says so once.
	PlanChecks *PlanChecks
	// Simulations groups the plan-time policy simulations of the resources
	// planned at the same time into few calls.
	Simulations *Simulations
	// CreatedUsers are the users this provider instance created.
	CreatedUsers *CreatedUsers
	// Refreshed are the objects a refresh read in this provider instance.
	Refreshed *Refreshed
	// CreatedKeys are the keys this provider instance created or adopted.
	CreatedKeys *CreatedKeys
	// Listings are the users' key and tag listings that refresh and import
	// read, one call per user for this provider instance.
	Listings *Listings
	// DataDir is the Terraform data directory of the working directory
	// Terraform runs in, where a plan leaves notes for the plan Terraform
	// makes at apply (the search domain's dry run).
	DataDir string
	// ListConcurrency is how many calls a list resource makes at once
	// (list_concurrency).
	ListConcurrency int

	Identity *identity.Client
	Search   *searchclient.Client
	// Tokens are the short-term API keys made so far, reused while valid.
	Tokens *modelsclient.TokenCache
}

// Endpoints are the base URLs of the services.
type Endpoints struct {
	Identity string
	Search   string
	Models   string
	// STS is the token service's.
	STS string
}

// From turns the ProviderData of a Configure request into *Clients. It
// returns nil without a diagnostic when the provider is not configured yet
// (Terraform calls Configure of types early with nil data).
func From(data any, diags *diag.Diagnostics) *Clients {
	if data == nil {
		return nil
	}
	c, ok := data.(*Clients)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *conns.Clients, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return c
}
