package validators

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// RegionPattern is a region name such as us-east-1.
var RegionPattern = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-\d+$`)

// Region checks that a string is a region name such as us-east-1.
func Region() validator.String {
	return stringvalidator.RegexMatches(RegionPattern, "must be a region name such as us-east-1")
}
