package validators

import (
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Region checks that a string is a region name such as us-east-1
// (rules.RegionName).
func Region() validator.String { return StringRule(rules.RegionName)[0] }
