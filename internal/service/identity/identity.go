// Package identity holds the identity service's Terraform types: users,
// policy attachments and service-specific credentials (long-term API keys).
package identity

import (
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
