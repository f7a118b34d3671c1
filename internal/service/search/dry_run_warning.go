package search

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// The plan's words on its dry run: one warning with the whole verdict,
// an error for each thing in it that blocks the change (verdict.go), and
// what apply does when the plan showed no verdict.

// deferredNote says what apply does when the plan showed no verdict.
const deferredNote = "Apply dry-runs the change before sending it and stops without sending anything if the service's verdict is a blue/green deployment while allow_blue_green is false, or has a Critical failure or an Advisory warning whose code is not in accepted_warnings."

// reportDryRun turns the dry run into the plan's diagnostics: one warning
// with the whole verdict (summary), and an error for each problem.
func reportDryRun(dr *dryRunResult, set settings, domain string, diags *diag.Diagnostics) {
	diags.AddWarning(fmt.Sprintf("Dry Run of the Change to Domain %q: %s", domain, dr.deploymentType), dr.summary(domain, set))
	ref := fmt.Sprintf("Dry run %s of domain %q. ", dr.id, domain)
	for _, p := range dr.problems(set) {
		if p.at != "" {
			diags.AddAttributeError(path.Root(p.at), p.summary, ref+p.detail)
		} else {
			diags.AddError(p.summary, ref+p.detail)
		}
	}
}

// summary is the plan's one warning about its dry run: the verdict, every
// validation failure with whether it is accepted, what the deployment type
// means, and what each property would become. One warning, whose title
// names the domain, so that Terraform's folding of warnings with the same
// title hides nothing; errors for what blocks the change come on their own
// (reportDryRun).
func (dr *dryRunResult) summary(domain string, set settings) string {
	accepted := set.acceptedCodes()
	var b strings.Builder
	fmt.Fprintf(&b, "Dry run %s (%s) of the change to domain %q: deployment type %s", dr.id, dr.mode, domain, dr.deploymentType)
	switch {
	case dr.mode == searchclient.DryRunModeBasic:
		b.WriteString("; nothing validated (dry_run_mode Basic).")
	case len(dr.failures) == 0:
		b.WriteString("; no validation failures.")
	default:
		b.WriteString("; validation failures:")
		for _, f := range dr.failures {
			code, sev := searchclient.Deref(f.Code), searchclient.Deref(f.Severity)
			note := "blocks the change"
			if sev == searchclient.SeverityAdvisory && accepted[code] {
				note = "accepted in accepted_warnings, so apply goes ahead"
			}
			fmt.Fprintf(&b, "\n  - %s (%s, %s): %s", code, sev, note, searchclient.Deref(f.Message))
		}
	}
	if dr.status == searchclient.DryRunStatusFailed {
		b.WriteString("\nThe dry run finished with status failed.")
	}
	switch dr.deploymentType {
	case searchclient.DeploymentTypeDynamic, searchclient.DeploymentTypeNone:
	case searchclient.DeploymentTypeBlueGreen:
		b.WriteString("\nA blue/green deployment builds a new environment and copies the data, which can take hours.")
	default:
		fmt.Fprintf(&b, "\nThis provider does not know deployment type %q; treat it as possibly blue/green.", dr.deploymentType)
	}
	if dr.message != "" {
		b.WriteString("\nThe service says: " + dr.message)
	}
	for _, p := range dr.properties {
		name := searchclient.Deref(p.Name)
		switch {
		case shape.SensitiveProperty(name):
			fmt.Fprintf(&b, "\n  %s: %s", name, shape.SensitiveValue)
		case p.ActiveValue == nil && p.PendingValue == nil:
			fmt.Fprintf(&b, "\n  %s: (value not shown by the service)", name)
		default:
			fmt.Fprintf(&b, "\n  %s: %q -> %q", name, clip(searchclient.Deref(p.ActiveValue)), clip(searchclient.Deref(p.PendingValue)))
		}
	}
	return b.String()
}

// clip shortens a long value (a policy document) for a diagnostic; the
// plan's dry_run holds it whole.
func clip(s string) string {
	const most = 120
	if r := []rune(s); len(r) > most {
		return string(r[:most]) + "…"
	}
	return s
}
