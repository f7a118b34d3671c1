package diagnostics

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// Each identity remedy lands on the argument it is about, with its
// placeholders filled and the service's error last.
func TestAddIdentityError(t *testing.T) {
	cases := []struct {
		rs     Remedies
		err    error
		fields []string
		attr   string
		text   string
	}{
		{KeyCreate, fmt.Errorf("refused: %w", client.ErrAccessDenied), []string{"user", `"kim"`, "service", "models.cloud.example", "age", "credential_age_days = 90"},
			"credential_age_days", `A policy of the principal Terraform runs as refuses a key for user "kim" with credential_age_days = 90 for models.cloud.example. ` + KeyPolicyAdvice + "\n\nrefused: "},
		{KeyCreate, fmt.Errorf("full: %w", client.ErrLimitExceeded), []string{"user", `"kim"`, "service", "models.cloud.example", "age", "", "keys", "K1 (held); K2 (held)"},
			"user_name", `User "kim" already holds the most keys the service allows for models.cloud.example (2 per user per service): K1 (held); K2 (held).`},
		{KeyCreate, fmt.Errorf("boom"), []string{"user", `"kim"`, "service", "s", "age", ""},
			"", `Creating a key for user "kim" failed: boom`},
		{PolicyAttach, fmt.Errorf("bad: %w", client.ErrInvalidInput), []string{"user", `"kim"`, "arn", `"arn:x"`},
			"policy_arn", `The service refused the policy ARN "arn:x".`},
		{UserDelete, fmt.Errorf("busy: %w", client.ErrDeleteConflict), []string{"user", `"kim"`},
			"", `User "kim" still has attached policies or service-specific credentials (API keys)`},
	}
	for _, c := range cases {
		var diags diag.Diagnostics
		AddIdentityError(&diags, "Summary", c.rs, c.err, c.fields...)
		if len(diags) != 1 {
			t.Fatalf("%v: %d diagnostics, want 1", c.err, len(diags))
		}
		d := diags[0]
		if !strings.Contains(d.Detail(), c.text) || !strings.HasSuffix(d.Detail(), c.err.Error()) {
			t.Errorf("%v: detail %q, want it to contain %q and end with the error", c.err, d.Detail(), c.text)
		}
		var got string
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			got = wp.Path().String()
		}
		if want := path.Root(c.attr).String(); c.attr != "" && got != want || c.attr == "" && got != "" {
			t.Errorf("%v: on %q, want %q", c.err, got, c.attr)
		}
	}
}
