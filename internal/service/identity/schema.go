package identity

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// Schema pieces the identity service's resources share.

// userNameValidators are the identity service's rules for a user name
// (rules.UserName, which the emulator applies too).
func userNameValidators() []validator.String { return validators.StringRule(rules.UserName) }

// validUserName reports whether name is a user name, for import ids.
func validUserName(name string) bool { return rules.UserName.CheckString(name) == nil }

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

// serviceNameAttribute is the service a key is for: only the model
// runtime's is accepted. A change replaces the key.
func serviceNameAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		Computed:            true,
		Default:             stringdefault.StaticString(DefaultServiceName),
		MarkdownDescription: "Service the key is for: `" + DefaultServiceName + "` (the default), the model runtime service, is the one service that accepts these keys; any other is refused at plan. Changing it replaces the key.",
		Validators:          append(validators.ASCIIStringRule(rules.ServiceName), stringvalidator.OneOf(supportedServiceNames...)),
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}

// credentialAgeDaysAttribute is a key's lifetime in days, chosen at its
// creation. A change replaces the key.
func credentialAgeDaysAttribute() schema.Int64Attribute {
	return schema.Int64Attribute{
		CustomType: customtypes.Int64Type{},
		Required:   true,
		MarkdownDescription: fmt.Sprintf("Days from creation until the key expires, %d to %d. Required: a long-term key lives until the expiration chosen at its creation "+
			"(a policy may cap the age, such as the documented 90-day cap). Changing it replaces the key.", rules.CredentialAgeDays.Range.Min, rules.CredentialAgeDays.Range.Max),
		Validators:    validators.Int64Rule(rules.CredentialAgeDays),
		PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
	}
}

// keyStatusAttribute is a key's status, changed in place.
func keyStatusAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		Computed:            true,
		Default:             stringdefault.StaticString(identityclient.StatusActive),
		MarkdownDescription: "`Active` (the default) or `Inactive`. An inactive key is refused by the runtime; changing the status updates the key in place, in both directions.",
		Validators:          []validator.String{stringvalidator.OneOf(identityclient.StatusActive, identityclient.StatusInactive)},
	}
}
