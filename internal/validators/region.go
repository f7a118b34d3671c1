package validators

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Region checks that a string is a region name such as us-east-1.
func Region() validator.String {
	return stringvalidator.RegexMatches(rules.Region, "must be a region name such as us-east-1")
}
