// Package identity holds the identity service's Terraform types: users,
// policy attachments and service-specific credentials (long-term API keys).
package identity

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Resources lists the service's resources.
func Resources() []func() resource.Resource {
	return []func() resource.Resource{
		NewUserResource,
		NewUserPolicyAttachmentResource,
		NewServiceSpecificCredentialResource,
	}
}

// ListResources lists the service's list resources, one per resource, for
// terraform query.
func ListResources() []func() list.ListResource {
	return []func() list.ListResource{
		NewUserList,
		NewUserPolicyAttachmentList,
		NewServiceSpecificCredentialList,
	}
}
