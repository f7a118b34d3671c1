package rules_test

import (
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// TestValueChecks: a rule's checks and their words: lengths in characters
// (not bytes), a minimum-only length, a form, a range, an array's items
// and each item.
func TestValueChecks(t *testing.T) {
	t.Parallel()
	pw := rules.DomainConfig["AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword"]
	ids := rules.DomainConfig["VPCOptions.SubnetIds"]
	jwks := rules.DomainConfig["AdvancedSecurityOptions.JWTOptions.JwksUrl"]
	size := rules.DomainConfig["BlockVolumeOptions.VolumeSize"]
	typ := rules.DomainConfig["ClusterConfig.InstanceType"]
	policy := rules.DomainConfig["AccessPolicies"]
	tests := []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"128 two-byte characters", pw.CheckString(strings.Repeat("é", 128)), ""},
		{"129 characters", pw.CheckString(strings.Repeat("é", 129)), "must be between 8 and 128 characters long, not 129"},
		{"7 characters", pw.CheckString("1234567"), "must be between 8 and 128 characters long, not 7"},
		{"empty type", typ.CheckString(""), "must be at least 1 character long, not 0"},
		{"a type", typ.CheckString("r6g.large.search"), ""},
		{"policy over the limit", policy.CheckString(strings.Repeat("x", rules.MaxAccessPoliciesChars+1)), "must be at most 102400 characters long"},
		{"https URL", jwks.CheckString("https://idp.example.com/jwks.json"), ""},
		{"http URL", jwks.CheckString("http://x"), "must be an https URL"},
		{"volume 0", size.CheckWholeNumber(0), "must be between 1 and 65536, not 0"},
		{"volume 2^53+1", size.CheckWholeNumber(1<<53 + 1), "not 9007199254740993"},
		{"6 subnets", ids.CheckStrings([]string{"a", "b", "c", "d", "e", "f"}), ""},
		{"7 subnets", ids.CheckStrings([]string{"a", "b", "c", "d", "e", "f", "g"}), "must hold at most 6 items, not 7"},
		{"an empty subnet", ids.CheckStrings([]string{"a", ""}), "item 1 must be at least 1 character long, not 0"},
		{"11 node options", rules.DomainConfig["ClusterConfig.NodeOptions"].CheckCount(11), "must hold at most 10 items, not 11"},
		{"any string", rules.AnyString.CheckString(""), ""},
		{"warning code with a space", rules.WarningCode.CheckString("has space"), "must be a validation code"},
		{"26 warnings", rules.AcceptedWarnings.CheckStrings(make([]string, 26)), "must hold at most 25 items, not 26"},
	}
	for _, tt := range tests {
		got := ""
		if tt.err != nil {
			got = tt.err.Error()
		}
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestFormExamplesFit: every form's example is of its form, so the tests
// that derive values from a rule start from a valid one.
func TestFormExamplesFit(t *testing.T) {
	t.Parallel()
	all := map[string]rules.Value{"WarningCode": rules.WarningCode, "ModelID": rules.ModelID, "UserName": rules.UserName, "UserPath": rules.UserPath, "PolicyARN": rules.PolicyARN}
	for k, v := range rules.DomainConfig {
		all[k] = v
	}
	for name, v := range all {
		if v.Form != nil {
			if err := v.CheckString(v.Form.Example); err != nil {
				t.Errorf("%s: the example %q: %v", name, v.Form.Example, err)
			}
		}
	}
}

// TestDescribe: a rule's sentence for the documentation.
func TestDescribe(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"AdvancedSecurityOptions.MasterUserOptions.MasterUserName": "Between 1 and 64 characters.",
		"AccessPolicies":                             "At most 102400 characters.",
		"BlockVolumeOptions.Iops":                    "From 0 to 256000.",
		"ClusterConfig.InstanceType":                 "Not empty.",
		"VPCOptions.SubnetIds":                       "At most 6 items, each not empty.",
		"ClusterConfig.NodeOptions":                  "At most 10 items.",
		"AdvancedSecurityOptions.JWTOptions.JwksUrl": "Must be an https URL such as https://idp.example.com/.well-known/jwks.json.",
		"EncryptionAtRestOptions.KmsKeyId":           "",
	} {
		if got := rules.DomainConfig[key].Describe(); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}
