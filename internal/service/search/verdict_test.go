package search

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// requestKey tells requests apart by content, not by the order of accepted
// warnings, and never by (or with) the master password.
func TestRequestKey(t *testing.T) {
	t.Parallel()
	req := func(pw string, accepted ...string) *searchclient.UpdateDomainConfigInput {
		return &searchclient.UpdateDomainConfigInput{DomainName: "demo", AcceptedWarnings: accepted, Sections: map[string]any{
			"SnapshotOptions":         map[string]any{"AutomatedSnapshotStartHour": 5},
			"AdvancedSecurityOptions": map[string]any{"MasterUserOptions": map[string]any{"MasterUserPassword": pw}},
		}}
	}
	a, b := requestKey(req("s3cret-one", "ADV_A", "ADV_B")), requestKey(req("s3cret-two", "ADV_B", "ADV_A"))
	if a != b {
		t.Errorf("keys differ by password or accepted order: %s %s", a, b)
	}
	if strings.Contains(a, "s3cret") {
		t.Errorf("the key holds the password: %s", a)
	}
	other := req("s3cret-one", "ADV_A")
	if requestKey(other) == a {
		t.Error("a request with other accepted warnings has the same key")
	}
	other = req("s3cret-one", "ADV_A", "ADV_B")
	other.Sections["SnapshotOptions"] = map[string]any{"AutomatedSnapshotStartHour": 6}
	if requestKey(other) == a {
		t.Error("a request with another snapshot hour has the same key")
	}
	// The caller's request is not changed by masking.
	in := req("s3cret-one")
	_ = requestKey(in)
	if got := in.Sections["AdvancedSecurityOptions"].(map[string]any)["MasterUserOptions"].(map[string]any)["MasterUserPassword"]; got != "s3cret-one" {
		t.Errorf("requestKey changed the request's password to %v", got)
	}
}

// Verdicts compare status, deployment type and failures (code and
// severity), and say both in an error.
func TestVerdictEqual(t *testing.T) {
	t.Parallel()
	f := func(code, sev string) searchclient.ValidationFailure {
		return searchclient.ValidationFailure{Code: new(code), Severity: new(sev), Message: new("varies " + code)}
	}
	dyn := (&dryRunResult{status: "completed", deploymentType: "dynamic", failures: []searchclient.ValidationFailure{f("ADV_A", "Advisory")}}).verdict()
	same := (&dryRunResult{status: "completed", deploymentType: "dynamic", message: "another message", failures: []searchclient.ValidationFailure{{Code: new("ADV_A"), Severity: new("Advisory"), Message: new("reworded")}}}).verdict()
	if !dyn.equal(same) {
		t.Errorf("messages made verdicts differ: %s / %s", dyn, same)
	}
	for _, other := range []verdict{
		(&dryRunResult{status: "completed", deploymentType: "blue/green", failures: []searchclient.ValidationFailure{f("ADV_A", "Advisory")}}).verdict(),
		(&dryRunResult{status: "completed", deploymentType: "dynamic"}).verdict(),
		(&dryRunResult{status: "completed", deploymentType: "dynamic", failures: []searchclient.ValidationFailure{f("ADV_A", "Critical")}}).verdict(),
		(&dryRunResult{status: "failed", deploymentType: "dynamic", failures: []searchclient.ValidationFailure{f("ADV_A", "Advisory")}}).verdict(),
	} {
		if dyn.equal(other) {
			t.Errorf("%s equals %s", dyn, other)
		}
	}
	if got := dyn.String(); got != "deployment type dynamic, validation failures ADV_A (Advisory)" {
		t.Errorf("String() = %q", got)
	}
}

// Every dry_run value the provider builds fits the resource's schema: the
// plan's, the state's, Off's and the cleared one.
func TestDryRunValuesFitTheSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sr := resourceSchema(t)
	dr := &dryRunResult{id: "d", mode: "Verbose", status: "completed", deploymentType: "dynamic",
		failures:   []searchclient.ValidationFailure{{Code: new("ADV_X"), Message: new("m"), Severity: new("Advisory")}},
		properties: []searchclient.ModifyingProperty{{Name: new("ClusterConfig.InstanceType"), ActiveValue: new("a"), PendingValue: new("b")}}}
	for name, v := range map[string]types.Object{
		"planned": dr.plannedObject(), "applied": dr.object(), "off": dryRunOff(), "cleared": dryRunCleared(),
	} {
		st := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
		if diags := st.SetAttribute(ctx, path.Root("dry_run"), v); diags.HasError() {
			t.Errorf("%s: %v", name, diags)
		}
	}
}
