package models

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"

	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// runtimeURL validates runtime_url: an http(s) URL, the scheme in any case,
// with a host and no query.
var runtimeURL = validators.AnyCaseHTTPURL("Invalid Runtime URL", func(_ path.Path, value string, _ error) string {
	return fmt.Sprintf("The runtime URL %q must be an http(s) URL with a host and no query, such as https://runtime.models.us-east-1.cloud.example.", value)
})

// keyLifetime validates expires_in: a short-term key's lifetime, from a
// minute to the service's limit.
var keyLifetime = validators.Duration{
	Min: time.Minute, Max: modelsclient.MaxTokenLifetime,
	Desc:         fmt.Sprintf("must be a duration such as 1h or 30m, from %s to %s", time.Minute, modelsclient.MaxTokenLifetime),
	Summary:      "Invalid Duration",
	RangeSummary: "Duration Out of Range",
	NotDuration: func(v string) string {
		return fmt.Sprintf("%q is not a duration. Use a number with a unit, such as 1h, 90m or 12h.", v)
	},
	OutOfRange: func(v string) string {
		return fmt.Sprintf("%q is outside the allowed range: a short-term API key lives from %s to %s (the service's limit is 12 hours).", v, time.Minute, modelsclient.MaxTokenLifetime)
	},
}
