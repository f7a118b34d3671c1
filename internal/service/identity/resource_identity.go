package identity

import (
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/resourceidentity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// The resource identities of the service's types (internal/resourceidentity
// writes and checks them). The service is global: a user's ARN names no
// region, so only a key, which works in the region it was created in,
// names one.
var (
	userIdentityType = resourceidentity.Type{Attributes: []resourceidentity.Attribute{userNameIdentity("Name of the user.")}}

	attachmentIdentityType = resourceidentity.Type{Attributes: []resourceidentity.Attribute{
		userNameIdentity("Name of the user."),
		{Name: "policy_arn", Description: "ARN of the attached managed policy.",
			Valid: func(s string) bool { return rules.PolicyARN.CheckString(s) == nil },
			Rule:  "a policy ARN such as arn:cloud:identity::cloud:policy/ModelsLimitedAccess"},
	}}

	keyIdentityType = resourceidentity.Type{
		Attributes: []resourceidentity.Attribute{
			userNameIdentity("Name of the user the key belongs to."),
			{Name: "service_specific_credential_id", Description: "Id of the key.",
				Valid: func(s string) bool { return rules.CredentialID.CheckString(s) == nil }, Rule: "20 to 128 letters and digits, such as ACCAEXAMPLE234567ABCDE"},
		},
		// A change of the provider's region plans the key's replacement
		// (the region attribute), so a recorded region is not refused.
		Region: &resourceidentity.RegionAttribute{
			Description: "Region the key works in. Defaults to the provider's region; another region is an error.",
			Bound:       "a key works only in the region it was created in",
		},
	}
)

// userNameIdentity is the user_name attribute of an identity.
func userNameIdentity(description string) resourceidentity.Attribute {
	return resourceidentity.Attribute{Name: "user_name", Description: description, Valid: validUserName, Rule: "1 to 64 letters, digits and +=,.@_-"}
}

// userIdentity is the identity of u; its ARN names its account.
func userIdentity(u *identityclient.User) resourceidentity.Identity {
	return resourceidentity.Identity{Attrs: map[string]string{"user_name": u.UserName}, Account: conns.ARNAccount(u.Arn)}
}

// attachmentIdentity is the identity of the attachment of policy to user,
// without its account.
func attachmentIdentity(user, policy string) resourceidentity.Identity {
	return resourceidentity.Identity{Attrs: map[string]string{"user_name": user, "policy_arn": policy}}
}

// keyIdentity is the identity of user's key id in region, without its
// account.
func keyIdentity(user, id, region string) resourceidentity.Identity {
	return resourceidentity.Identity{Attrs: map[string]string{"user_name": user, "service_specific_credential_id": id}, Region: region}
}

// keyIdentityOf is the identity of the key m, without its account.
func keyIdentityOf(m *serviceSpecificCredentialModel) resourceidentity.Identity {
	return keyIdentity(m.UserName.ValueString(), m.ServiceSpecificCredentialID.ValueString(), m.Region.ValueString())
}

// withAccount is id in account, for a listed object: a list learns the
// provider's account once for all its results.
func withAccount(id resourceidentity.Identity, account string) resourceidentity.Identity {
	id.Account = account
	return id
}
