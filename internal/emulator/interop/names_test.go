package interop_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The harness renames the brand names only at the model's members, never
// inside a map of the user's (AdvancedOptions, the log types), and an
// answer already in the SDK's names (an emulator leaking them) or one that
// is not JSON is an error, not passed on as it came.
func TestNeutralNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want, err string
		answer              bool
	}{
		{name: "request", in: `{"EBSOptions":{"EBSEnabled":true},"AdvancedOptions":{"BlockVolumeEnabled":"x"},"LogPublishingOptions":{"AUDIT_LOGS":{"CloudWatchLogsLogGroupArn":"arn"}},"AdvancedSecurityOptions":{"IAMFederationOptions":{"Enabled":true}}}`,
			want: `{"BlockVolumeOptions":{"BlockVolumeEnabled":true},"AdvancedOptions":{"BlockVolumeEnabled":"x"},"LogPublishingOptions":{"AUDIT_LOGS":{"LogsLogGroupArn":"arn"}},"AdvancedSecurityOptions":{"IdentityFederationOptions":{"Enabled":true}}}`},
		{name: "request, an SDK name at no known path", in: `{"ClusterConfig":{"EBSOptions":{}}}`, err: "EBSOptions is left"},
		{name: "DomainConfig", answer: true,
			in:   `{"DomainConfig":{"BlockVolumeOptions":{"Options":{"BlockVolumeEnabled":true},"Status":{"State":"Active"}},"AdvancedOptions":{"Options":{"BlockVolumeEnabled":"x"}},"AIMLOptions":{"Options":{"ObjectStoreVectorsEngine":{"Enabled":true}}},"LogPublishingOptions":{"Options":{"AUDIT_LOGS":{"LogsLogGroupArn":"arn"}}},"ModifyingProperties":[{"Name":"BlockVolumeOptions.VolumeSize"}]}}`,
			want: `{"DomainConfig":{"EBSOptions":{"Options":{"EBSEnabled":true},"Status":{"State":"Active"}},"AdvancedOptions":{"Options":{"BlockVolumeEnabled":"x"}},"AIMLOptions":{"Options":{"S3VectorsEngine":{"Enabled":true}}},"LogPublishingOptions":{"Options":{"AUDIT_LOGS":{"CloudWatchLogsLogGroupArn":"arn"}}},"ModifyingProperties":[{"Name":"BlockVolumeOptions.VolumeSize"}]}}`},
		{name: "DryRunConfig", answer: true,
			in:   `{"DryRunConfig":{"UserPoolAuthOptions":{"Enabled":true},"WorkforceIdentityOptions":{"WorkforceIdentityInstanceARN":"arn"},"AdvancedOptions":{"UserPoolAuthOptions":"x"}}}`,
			want: `{"DryRunConfig":{"CognitoOptions":{"Enabled":true},"IdentityCenterOptions":{"IdentityCenterInstanceARN":"arn"},"AdvancedOptions":{"UserPoolAuthOptions":"x"}}}`},
		{name: "an answer in the SDK's names", answer: true, in: `{"DomainConfig":{"CognitoOptions":{"Options":{"Enabled":true}}}}`, err: "SDK's member name CognitoOptions"},
		{name: "an answer that is not JSON", answer: true, in: `<html>`, err: "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := renameBody([]byte(tc.in), tc.answer)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s: %v, want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.want), &w); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
