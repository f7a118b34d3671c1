package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// domainIdentity is the resource identity of cloud_search_domain_config:
// a domain is named by its name, its region and its account.
type domainIdentity struct {
	DomainName types.String `tfsdk:"domain_name"`
	Region     types.String `tfsdk:"region"`
	AccountID  types.String `tfsdk:"account_id"`
}

func domainIdentitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"domain_name": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "Name of the domain.",
			},
			"region": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       "Region of the domain. Defaults to the provider's region; another region is an error (configure a provider for that region).",
			},
			"account_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       "Account of the domain. Defaults to the account the provider's credentials belong to; another account is an error.",
			},
		},
	}
}

// callerAccount is the account the provider runs in, from the caller's
// ARN (arn:cloud:<service>::<account>:...). The ARN comes from Configure's
// credential check, else from one GetCallerIdentity per provider instance.
func callerAccount(ctx context.Context, c *conns.Clients) (string, error) {
	arn, err := c.Caller.ARN(ctx)
	if err != nil {
		return "", err
	}
	return accountOf(arn)
}

// knownCallerAccount is the caller's account when it is known without a
// call; "" when it is not.
func knownCallerAccount(c *conns.Clients) string {
	arn, ok := c.Caller.Known()
	if !ok {
		return ""
	}
	account, err := accountOf(arn)
	if err != nil {
		return ""
	}
	return account
}

func accountOf(arn string) (string, error) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[4] == "" {
		return "", fmt.Errorf("the caller's ARN %q names no account", arn)
	}
	return parts[4], nil
}

// identityOf is the full identity of domain as this provider sees it: its
// region and the caller's account.
func identityOf(ctx context.Context, c *conns.Clients, domain string) (domainIdentity, error) {
	account, err := callerAccount(ctx, c)
	if err != nil {
		return domainIdentity{}, fmt.Errorf("finding the account the provider runs in (GetCallerIdentity): %w", err)
	}
	return domainIdentity{DomainName: types.StringValue(domain), Region: types.StringValue(c.Region), AccountID: types.StringValue(account)}, nil
}

// mismatch says why an identity names a domain this provider cannot reach
// (another region, another account); "" when it does not. An unset region
// or account matches.
func (id domainIdentity) mismatch(ctx context.Context, c *conns.Clients) (string, error) {
	if why := id.regionMismatch(c); why != "" {
		return why, nil
	}
	if a := id.AccountID.ValueString(); a != "" {
		account, err := callerAccount(ctx, c)
		if err != nil {
			return "", err
		}
		return id.accountMismatch(account), nil
	}
	return "", nil
}

// regionMismatch says why the identity's region is not the provider's;
// "" when it is, or is unset. It needs no call.
func (id domainIdentity) regionMismatch(c *conns.Clients) string {
	name := id.DomainName.ValueString()
	if r := id.Region.ValueString(); r != "" && r != c.Region {
		return fmt.Sprintf("The identity names domain %q in region %s, but the provider is configured for region %s: it reads and changes domains of %s only. Use a provider configured for %s (an aliased provider block with region = %q and provider = cloud.<alias> on the resource).", name, r, c.Region, c.Region, r, r)
	}
	return ""
}

// accountMismatch says why the identity's account is not account; "" when
// it is, or either is unset.
func (id domainIdentity) accountMismatch(account string) string {
	name := id.DomainName.ValueString()
	if a := id.AccountID.ValueString(); a != "" && account != "" && a != account {
		return fmt.Sprintf("The identity names domain %q in account %s, but the provider's credentials belong to account %s. Use credentials of account %s (or a provider that assumes a role there).", name, a, account, a)
	}
	return ""
}

// refreshIdentity is setIdentity for a refresh, which makes no call for
// it: the region is checked always, the account when the caller's is
// known already (Configure's credential check, or an earlier lookup). A
// prior identity keeps its account, none included; a state without one
// (written before identities existed, or by a CLI that keeps none, such
// as Terraform 1.11) gets the caller's account when it is known, else
// none: a refresh never fails for want of GetCallerIdentity.
func refreshIdentity(ctx context.Context, c *conns.Clients, domain string, in, out *tfsdk.ResourceIdentity, summary string) diag.Diagnostics {
	var diags diag.Diagnostics
	if out == nil {
		return diags // Terraform older than 1.12 carries no identity
	}
	account := types.StringNull()
	if known := knownCallerAccount(c); known != "" {
		account = types.StringValue(known)
	}
	if in != nil && !in.Raw.IsNull() {
		var prior domainIdentity
		if diags.Append(in.Get(ctx, &prior)...); diags.HasError() {
			return diags
		}
		if why := prior.regionMismatch(c); why != "" {
			diags.AddError(summary, why)
			return diags
		}
		if why := prior.accountMismatch(account.ValueString()); why != "" {
			diags.AddError(summary, why)
			return diags
		}
		// Terraform refuses an identity that changes, so an identity
		// without its account stays so.
		account = prior.AccountID
	}
	diags.Append(out.Set(ctx, domainIdentity{DomainName: types.StringValue(domain), Region: types.StringValue(c.Region), AccountID: account})...)
	return diags
}

// hasAccount reports whether the identity in names its account.
func hasAccount(ctx context.Context, in *tfsdk.ResourceIdentity) bool {
	if in == nil || in.Raw.IsNull() {
		return false
	}
	var id domainIdentity
	return !in.Get(ctx, &id).HasError() && id.AccountID.ValueString() != ""
}

// setIdentity writes domain's full identity into out, after checking that
// the identity in (the prior or imported one, possibly null) does not name
// another region or account.
func setIdentity(ctx context.Context, c *conns.Clients, domain string, in, out *tfsdk.ResourceIdentity, summary string) diag.Diagnostics {
	var diags diag.Diagnostics
	if out == nil {
		return diags // Terraform older than 1.12 carries no identity
	}
	if in != nil && !in.Raw.IsNull() {
		var prior domainIdentity
		if diags.Append(in.Get(ctx, &prior)...); diags.HasError() {
			return diags
		}
		why, err := prior.mismatch(ctx, c)
		if err != nil {
			diags.AddError(summary, fmt.Sprintf("Checking the identity of domain %q failed: %s", domain, err))
			return diags
		}
		if why != "" {
			diags.AddError(summary, why)
			return diags
		}
	}
	id, err := identityOf(ctx, c, domain)
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("The identity of domain %q needs %s", domain, err))
		return diags
	}
	diags.Append(out.Set(ctx, id)...)
	return diags
}
