package identity

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/listing"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
)

var (
	_ list.ListResource              = (*serviceSpecificCredentialList)(nil)
	_ list.ListResourceWithConfigure = (*serviceSpecificCredentialList)(nil)
)

// NewServiceSpecificCredentialList is the factory of the
// cloud_identity_service_specific_credential list resource.
func NewServiceSpecificCredentialList() list.ListResource { return &serviceSpecificCredentialList{} }

// serviceSpecificCredentialList shares the resource's Metadata and
// Configure.
type serviceSpecificCredentialList struct {
	serviceSpecificCredentialResource
}

type serviceSpecificCredentialListModel struct {
	UserName    types.String `tfsdk:"user_name"`
	ServiceName types.String `tfsdk:"service_name"`
	Status      types.String `tfsdk:"status"`
}

func (l *serviceSpecificCredentialList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists long-term API keys (service-specific credentials): one user's, or every user's. " +
			"The results never carry a key's value, which the service returns only when the key is created or reset. " +
			"Calls: one `GetCallerIdentity` for the account the identities name (once per provider), one `ListUsers` per page of up to 1,000 users (none with `user_name`), " +
			"then one `ListServiceSpecificCredentials` per user, up to the provider's `list_concurrency` (10 unless set) at once; the results keep the users' name order. " +
			"Once `limit` keys are found no more users are asked: at most `list_concurrency` - 1 listings beyond the last one needed were already under way, and their answers are dropped.",
		Attributes: map[string]listschema.Attribute{
			"user_name": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only this user's keys. Default: every user's (one ListServiceSpecificCredentials per user).",
				Validators:          userNameValidators(),
			},
			"service_name": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only keys for this service: `" + DefaultServiceName + "`, the one service that accepts these keys. Default: every service's.",
				Validators:          []validator.String{stringvalidator.OneOf(supportedServiceNames...)},
			},
			"status": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only keys in this status, `Active` or `Inactive`. Default: both.",
				Validators:          []validator.String{stringvalidator.OneOf(identityclient.StatusActive, identityclient.StatusInactive)},
			},
		},
	}
}

func (l *serviceSpecificCredentialList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg serviceSpecificCredentialListModel
	if !listing.Config(ctx, req, stream, &cfg) {
		return
	}
	service, status := cfg.ServiceName.ValueString(), cfg.Status.ValueString()
	stream.Results = listing.Limited(req.Limit, func(push func(list.ListResult) bool) {
		account, err := resourceidentity.CallerAccount(ctx, l.clients)
		if err != nil {
			push(listing.Error("Unable to List Identity Service Specific Credentials", fmt.Sprintf("The identity of the listed keys names their account, which the provider learns from the token service (GetCallerIdentity); that call failed: %s", err)))
			return
		}
		listKeys := func(ctx context.Context, user string) (*identityclient.ListServiceSpecificCredentialsOutput, error) {
			return l.clients.Identity.ListServiceSpecificCredentials(ctx, user, service)
		}
		eachListedUser(ctx, l.clients, cfg.UserName.ValueString(), "Unable to List Identity Service Specific Credentials", push, listKeys, func(_ string, out *identityclient.ListServiceSpecificCredentialsOutput) bool {
			for i := range out.Credentials {
				if status != "" && out.Credentials[i].Status != status {
					continue
				}
				if !push(l.keyResult(ctx, req, &out.Credentials[i], account)) {
					return false
				}
			}
			return true
		})
	})
}

// keyResult is one key as a list result; with include_resource, the key
// as an import reads it: no value, no reset_triggers or renew_before_days
// (they live only in configuration), and the provider's region (the
// service does not report a key's region).
func (l *serviceSpecificCredentialList) keyResult(ctx context.Context, req list.ListRequest, c *identityclient.ServiceSpecificCredential, account string) list.ListResult {
	result := req.NewListResult(ctx)
	expires := "never expires"
	if !c.ExpirationDate.IsZero() {
		expires = "expires " + c.ExpirationDate.UTC().Format(time.RFC3339)
	}
	result.DisplayName = fmt.Sprintf("%s of %s (%s, %s, %s)", c.ServiceSpecificCredentialID, c.UserName, c.ServiceName, c.Status, expires)
	m := serviceSpecificCredentialModel{
		ResetTriggers:      types.MapNull(types.StringType),
		RenewBeforeDays:    customtypes.NewInt64Null(),
		ServiceAPIKeyValue: types.StringNull(),
		Region:             types.StringValue(l.clients.Region),
	}
	flattenCredential(c, &m)
	result.Diagnostics.Append(resourceidentity.Set(ctx, result.Identity, withAccount(keyIdentity(c.UserName, c.ServiceSpecificCredentialID, l.clients.Region), account))...)
	listing.SetResource(ctx, req, &result, &m)
	return result
}
