package shape_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// TestValueRulesAgree: for every value rule, the provider's validator (the
// field's, in the section table) and the emulator's request check give the
// same verdict on values on both sides of each bound, so a plan is never
// refused by one and accepted by the other (issue 22). The dedicated
// master rule, checked by the plan, is TestDedicatedMasterRuleAgrees in
// the service package.
func TestValueRulesAgree(t *testing.T) {
	emu := acctest.NewEmulator(t)
	t.Parallel()
	c, err := searchclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}, MaxRetries: -1}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	type probe struct {
		path  []string
		value any // int64, string, or map[string]string
	}
	var probes []probe
	ints := func(r rules.IntRange, p ...string) {
		for _, v := range []int64{r.Min - 1, r.Min, r.Max, r.Max + 1, 10} {
			probes = append(probes, probe{p, v})
		}
	}
	ints(rules.InstanceCount, "ClusterConfig", "InstanceCount")
	ints(rules.DedicatedMasterCount, "ClusterConfig", "DedicatedMasterCount")
	ints(rules.WarmCount, "ClusterConfig", "WarmCount")
	ints(rules.AvailabilityZoneCount, "ClusterConfig", "ZoneAwarenessConfig", "AvailabilityZoneCount")
	ints(rules.Hour, "SnapshotOptions", "AutomatedSnapshotStartHour")
	ints(rules.Hour, "OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Hours")
	ints(rules.Minute, "OffPeakWindowOptions", "OffPeakWindow", "WindowStartTime", "Minutes")
	for key, values := range map[string][]string{
		rules.AllowExplicitIndex: {"true", "false", "yes", ""},
		rules.FielddataCacheSize: {"unbounded", "40", "40%", "100", "0", "101", "lots"},
		rules.MaxClauseCount:     {"1024", "1", "2147483647", "2147483648", "9999999999", "0", "01", "many"},
	} {
		for _, v := range values {
			probes = append(probes, probe{[]string{"AdvancedOptions"}, map[string]string{key: v}})
		}
	}
	// Lengths are counted in characters: a policy of multi-byte characters
	// at the limit passes both, one character more fails both.
	policy := func(n int) string {
		const frame = `{"a":""}`
		return `{"a":"` + strings.Repeat("é", n-len(frame)) + `"}`
	}
	for _, p := range []string{"", policy(rules.MaxAccessPoliciesChars), policy(rules.MaxAccessPoliciesChars + 1)} {
		probes = append(probes, probe{[]string{"AccessPolicies"}, p})
	}

	for _, p := range probes {
		name := fmt.Sprintf("%s=%.40v", strings.Join(p.path, "."), p.value)
		var tfValue attr.Value
		wire := p.value
		switch v := p.value.(type) {
		case int64:
			tfValue = types.Int64Value(v)
		case string:
			tfValue = types.StringValue(v)
		case map[string]string:
			elems := map[string]attr.Value{}
			m := map[string]any{}
			for k, s := range v {
				elems[k] = types.StringValue(s)
				m[k] = s
			}
			tfValue = types.MapValueMust(types.StringType, elems)
			wire = m
		}
		diags, err := shape.ValidateField(ctx, tfValue, p.path...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		providerRefuses := diags.HasError()

		// The value nested at its path, sent as a Basic dry run.
		for i := len(p.path) - 1; i > 0; i-- {
			wire = map[string]any{p.path[i]: wire}
		}
		_, err = c.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{
			DomainName: "demo", DryRun: ptr(true), DryRunMode: ptr(searchclient.DryRunModeBasic),
			Sections: map[string]any{p.path[0]: wire},
		})
		if err != nil && !errors.Is(err, client.ErrValidation) {
			t.Fatalf("%s: %v", name, err)
		}
		if emulatorRefuses := err != nil; emulatorRefuses != providerRefuses {
			t.Errorf("%s: provider refuses %v, emulator refuses %v (%v)", name, providerRefuses, emulatorRefuses, err)
		}
	}
}

func ptr[T any](v T) *T { return &v }
