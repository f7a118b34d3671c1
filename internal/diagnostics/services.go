package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// readRemedies are the remedies for a failed read of a SigV4-signed
// service (the search domain's data sources), for the errors every read
// shares: credentials, permissions, throttling and failures. AddReadError
// uses them.
var readRemedies = Remedies{
	ByKind: []Remedy{
		{Kinds: []error{client.ErrAuthentication}, Text: "The service did not accept the provider's credentials. Check access_key, secret_key and session_token (or the CLOUD_* environment variables) and the region."},
		{Kinds: []error{client.ErrAccessDenied}, Text: "The credentials are not allowed to read it. Grant the caller the search read permissions for this domain."},
		{Kinds: []error{client.ErrThrottled, client.ErrInternal}, Text: "The service is busy or failing. Run Terraform again later; raise max_retries in the provider block if this recurs."},
		{Kinds: []error{client.ErrValidation, client.ErrBase}, Text: "The service refused the request; its message below says why."},
	},
	Otherwise: Remedy{Text: "Check the provider's endpoints and network access to the service, then try again."},
}

// AddReadError reports a failed read of what (such as `dry run 12 of
// domain "logs"`) with its remedy and the error.
func AddReadError(diags *diag.Diagnostics, summary, what string, err error) {
	diags.AddError(summary, fmt.Sprintf("Reading %s failed. %s\n\n%s", what, readRemedies.For(err).Text, err))
}

// RuntimeRemedy is the remedy for a refused call to the model runtime
// (see runtimeRemedies).
func RuntimeRemedy(err error) Remedy { return runtimeRemedies.For(err) }

// runtimeRemedies are the remedies for a refused call to the model runtime
// with an API key (Authorization: Bearer).
var runtimeRemedies = Remedies{
	ByKind: []Remedy{
		{Kinds: []error{client.ErrAccessDenied}, Text: "Check that a long-term key is used in its own region, that it is Active, and that the key's user (or the principal that generated a short-term key) is allowed models:CallWithBearerToken, for example with ModelsLimitedAccess attached and no deny policy."},
		{Kinds: []error{client.ErrAuthentication}, Text: "The key is unknown, expired, reset or deleted: use a current key."},
		{Kinds: []error{client.ErrValidation, client.ErrNotFound}, Text: "Check model_id and prompt."},
	},
	Otherwise: Remedy{Text: "Try again later; if it persists, check the runtime URL."},
}
