package search

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// reportDryRun treats what the service says and the provider does not know
// conservatively: an unknown severity blocks like Critical, even when its
// code is accepted; an unknown deployment type is reported as it is and
// never passes for dynamic. Every dry run gives exactly one warning, the
// whole verdict (Terraform folds warnings that share a title).
func TestReportDryRun(t *testing.T) {
	t.Parallel()
	failure := func(code, sev string) searchclient.ValidationFailure {
		return searchclient.ValidationFailure{Code: new(code), Message: new("msg of " + code), Severity: new(sev)}
	}
	type want struct {
		errors int
		text   []string // each appears in some summary or detail
	}
	cases := []struct {
		name     string
		dr       dryRunResult
		accepted []string
		allowBG  bool
		want     want
	}{
		{"clean dynamic", dryRunResult{deploymentType: "dynamic", status: "completed"}, nil, true, want{}},
		{"none", dryRunResult{deploymentType: "none", status: "completed"}, nil, false, want{}},
		{"blue/green allowed", dryRunResult{deploymentType: "blue/green"}, nil, true, want{text: []string{"blue/green deployment builds a new environment"}}},
		{"blue/green refused", dryRunResult{deploymentType: "blue/green"}, nil, false, want{errors: 1, text: []string{"Blue/Green Deployment Not Allowed"}}},
		{"unknown deployment type, blue/green allowed", dryRunResult{deploymentType: "rolling"}, nil, true, want{text: []string{`does not know deployment type "rolling"`}}},
		{"unknown deployment type, blue/green refused", dryRunResult{deploymentType: "rolling"}, nil, false, want{errors: 1, text: []string{`"rolling"`, "allow_blue_green is false"}}},
		{"empty deployment type is not dynamic", dryRunResult{deploymentType: ""}, nil, false, want{errors: 1, text: []string{"Unknown Deployment Type"}}},
		{"deployment type in another case", dryRunResult{deploymentType: "Dynamic"}, nil, true, want{text: []string{`"Dynamic"`}}},
		{"critical", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("CRIT_X", "Critical")}}, nil, true, want{errors: 1, text: []string{"Critical Failure", "CRIT_X"}}},
		{"critical accepted still blocks", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("CRIT_X", "Critical")}}, []string{"CRIT_X"}, true, want{errors: 1}},
		{"advisory unaccepted", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("ADV_X", "Advisory")}}, nil, true, want{errors: 1, text: []string{"Unaccepted Dry Run Warning", `adding "ADV_X" to accepted_warnings`}}},
		{"advisory accepted", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("ADV_X", "Advisory")}}, []string{"ADV_X"}, true, want{text: []string{"ADV_X (Advisory, accepted in accepted_warnings"}}},
		{"unknown severity blocks", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("NEW_X", "Severe")}}, nil, true, want{errors: 1, text: []string{"Unknown Severity", `"Severe"`, "like a Critical failure"}}},
		{"unknown severity blocks even when accepted", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("NEW_X", "Severe")}}, []string{"NEW_X"}, true, want{errors: 1, text: []string{"Unknown Severity"}}},
		{"severity in another case blocks", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{failure("ADV_Y", "advisory")}}, []string{"ADV_Y"}, true, want{errors: 1, text: []string{"Unknown Severity"}}},
		{"missing severity blocks", dryRunResult{deploymentType: "dynamic", failures: []searchclient.ValidationFailure{{Code: new("X")}}}, nil, true, want{errors: 1, text: []string{"Unknown Severity"}}},
		{"failed dry run warns", dryRunResult{deploymentType: "dynamic", status: "failed", message: "boom"}, nil, true, want{text: []string{"finished with status failed", "boom"}}},
		{"unknown dry run status with an unknown type", dryRunResult{deploymentType: "canary", status: "paused"}, nil, false, want{errors: 1, text: []string{`"canary"`}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			acc := make([]attr.Value, 0, len(tc.accepted))
			for _, c := range tc.accepted {
				acc = append(acc, types.StringValue(c))
			}
			set := settings{
				DomainName:       types.StringValue("demo"),
				AcceptedWarnings: types.SetValueMust(types.StringType, acc),
				AllowBlueGreen:   types.BoolValue(tc.allowBG),
			}
			var diags diag.Diagnostics
			dr := tc.dr
			dr.id = "3f1c9a2e-4b7d-4e8f-9a0b-1c2d3e4f5a6b"
			reportDryRun(&dr, set, "demo", &diags)
			if got := diags.ErrorsCount(); got != tc.want.errors {
				t.Errorf("errors = %d, want %d: %v", got, tc.want.errors, diags)
			}
			if got := diags.WarningsCount(); got != 1 {
				t.Errorf("warnings = %d, want 1: %v", got, diags)
			}
			var all strings.Builder
			for _, d := range diags {
				all.WriteString(d.Summary() + "\n" + d.Detail() + "\n")
			}
			for _, s := range tc.want.text {
				if !strings.Contains(all.String(), s) {
					t.Errorf("no diagnostic says %q:\n%s", s, all.String())
				}
			}
			if strings.Contains(all.String(), "deployment type \"dynamic\"") && tc.dr.deploymentType != "dynamic" {
				t.Errorf("an unknown deployment type was reported as dynamic:\n%s", all.String())
			}
		})
	}
}
