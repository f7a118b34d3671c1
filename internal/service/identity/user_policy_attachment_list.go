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
)

var (
	_ list.ListResource              = (*userPolicyAttachmentList)(nil)
	_ list.ListResourceWithConfigure = (*userPolicyAttachmentList)(nil)
)

// NewUserPolicyAttachmentList is the factory of the
// cloud_identity_user_policy_attachment list resource.
func NewUserPolicyAttachmentList() list.ListResource { return &userPolicyAttachmentList{} }

// userPolicyAttachmentList shares the resource's Metadata and Configure.
type userPolicyAttachmentList struct {
	userPolicyAttachmentResource
}

type userPolicyAttachmentListModel struct {
	UserName types.String `tfsdk:"user_name"`
}

func (l *userPolicyAttachmentList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the managed policies attached to users: to one user, or to every user of the account. " +
			"Calls: one `GetCallerIdentity` for the account the identities name (once per provider), one `ListUsers` per page of up to 1,000 users (none with `user_name`), " +
			"then one `ListAttachedUserPolicies` per user (more for a user with over 100 attachments), up to the provider's `list_concurrency` (10 unless set) users at once; the results keep the users' name order. " +
			"Once `limit` attachments are found no more users are asked: at most `list_concurrency` - 1 listings beyond the last one needed were already under way, and their answers are dropped.",
		Attributes: map[string]listschema.Attribute{
			"user_name": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only this user's attachments. Default: every user's (one ListAttachedUserPolicies per user).",
				Validators:          userNameValidators(),
			},
		},
	}
}

func (l *userPolicyAttachmentList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg userPolicyAttachmentListModel
	if !listing.Config(ctx, req, stream, &cfg) {
		return
	}
	stream.Results = listing.Limited(req.Limit, func(push func(list.ListResult) bool) {
		account, err := resourceidentity.CallerAccount(ctx, l.clients)
		if err != nil {
			push(listing.Error("Unable to List Identity User Policy Attachments", fmt.Sprintf("The identity of the listed policy attachments names their account, which the provider learns from the token service (GetCallerIdentity); that call failed: %s", err)))
			return
		}
		eachListedUser(ctx, l.clients, cfg.UserName.ValueString(), "Unable to List Identity User Policy Attachments", push, l.clients.Identity.ListAttachedUserPolicies, func(user string, policies []identityclient.AttachedPolicy) bool {
			for _, p := range policies {
				if !push(attachmentResult(ctx, req, user, p, account)) {
					return false
				}
			}
			return true
		})
	})
}

// attachmentResult is one attachment as a list result.
func attachmentResult(ctx context.Context, req list.ListRequest, user string, p identityclient.AttachedPolicy, account string) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = fmt.Sprintf("%s attached to %s", p.PolicyName, user)
	result.Diagnostics.Append(resourceidentity.Set(ctx, result.Identity, withAccount(attachmentIdentity(user, p.PolicyArn), account))...)
	m := userPolicyAttachmentModel{ID: types.StringValue(user + "/" + p.PolicyArn), UserName: types.StringValue(user), PolicyArn: types.StringValue(p.PolicyArn)}
	listing.SetResource(ctx, req, &result, &m)
	return result
}
