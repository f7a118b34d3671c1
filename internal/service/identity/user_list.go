package identity

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/listing"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

var (
	_ list.ListResource              = (*userList)(nil)
	_ list.ListResourceWithConfigure = (*userList)(nil)
)

// userPageSize is the MaxItems of each ListUsers page: the most the
// service allows, so thousands of users take a few calls.
const userPageSize = rules.MaxListItems

// NewUserList is the factory of the cloud_identity_user list resource.
func NewUserList() list.ListResource { return &userList{} }

// userList shares the resource's Metadata (a list resource is named like
// its resource) and Configure.
type userList struct {
	userResource
}

type userListModel struct {
	PathPrefix types.String `tfsdk:"path_prefix"`
}

func (l *userList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the account's identity-service users, in name order, following ListUsers' pages. " +
			"Calls: one `ListUsers` per page of up to 1,000 users, one after another (a `limit` below 1,000 asks for no more than it keeps), and nothing per user: the pages hold all a result shows.",
		Attributes: map[string]listschema.Attribute{
			"path_prefix": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only users whose path begins with this, such as `/apps/`. Default: every user.",
				Validators:          validators.ASCIIStringRule(rules.UserPathPrefix),
			},
		},
	}
}

func (l *userList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg userListModel
	if !listing.Config(ctx, req, stream, &cfg) {
		return
	}
	stream.Results = listing.Limited(req.Limit, func(push func(list.ListResult) bool) {
		err := eachUser(ctx, l.clients, cfg.PathPrefix.ValueString(), req.Limit, func(u *identityclient.User) bool {
			return push(userResult(ctx, req, u))
		})
		if err != nil {
			push(listing.Error("Unable to List Identity Users", fmt.Sprintf("ListUsers failed: %s", err)))
		}
	})
}

// userResult is u as a list result: its identity, its name and path, and
// with include_resource the whole user as an import would read it.
func userResult(ctx context.Context, req list.ListRequest, u *identityclient.User) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = u.Path + u.UserName
	result.Diagnostics.Append(resourceidentity.Set(ctx, result.Identity, userIdentity(u))...)
	m := userModel{ForceDestroy: types.BoolValue(false)}
	flattenUser(u, &m)
	listing.SetResource(ctx, req, &result, &m)
	return result
}
