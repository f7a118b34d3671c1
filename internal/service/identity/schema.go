package identity

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Schema pieces the identity service's resources share.

// userNameRe is the identity service's rule for a user name.
var userNameRe = regexp.MustCompile(`^[\w+=,.@-]+$`)

// userNameValidators are the identity service's rules for a user name.
func userNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.LengthBetween(1, 64),
		stringvalidator.RegexMatches(userNameRe, "must contain only letters, digits and the characters +=,.@_-"),
	}
}

// userNameAttribute is the user a resource is or belongs to: a change
// replaces the resource.
func userNameAttribute(description string) schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: description,
		Validators:          userNameValidators(),
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}

// computedString is a value the service gives at creation, which stays
// until the resource is replaced.
func computedString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: description,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}
