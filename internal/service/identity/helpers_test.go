package identity

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

func TestValidatorPatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		re   interface{ MatchString(string) bool }
		in   string
		want bool
	}{
		{"cloud policy", rules.PolicyARN.Form.Re, "arn:cloud:identity::cloud:policy/ModelsLimitedAccess", true},
		{"account policy", rules.PolicyARN.Form.Re, "arn:cloud:identity::123456789012:policy/team/Mine", true},
		{"short account", rules.PolicyARN.Form.Re, "arn:cloud:identity::1234:policy/Mine", false},
		{"other partition", rules.PolicyARN.Form.Re, "arn:aws:iam::aws:policy/AdministratorAccess", false},
		{"no policy name", rules.PolicyARN.Form.Re, "arn:cloud:identity::cloud:policy/", false},
		{"user arn", rules.PolicyARN.Form.Re, "arn:cloud:identity::123456789012:user/alice", false},
		{"credential id", rules.CredentialID.Form.Re, "ACCAABCDEFGHIJKLMNOPQ", true},
		{"credential id short", rules.CredentialID.Form.Re, "ACCA123", false},
		{"credential id slash", rules.CredentialID.Form.Re, "ACCAABCDEFGHIJ/KLMNOPQ", false},
		{"service name", rules.ServiceName.Form.Re, "models.cloud.example", true},
		{"service name caps", rules.ServiceName.Form.Re, "Models.cloud.example", false},
		{"service name no dot", rules.ServiceName.Form.Re, "models", false},
		{"user name", rules.UserName.Form.Re, "alice+ops@example.com", true},
		{"user name space", rules.UserName.Form.Re, "a b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.re.MatchString(tt.in); got != tt.want {
				t.Errorf("match(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestSameTriggers(t *testing.T) {
	t.Parallel()
	m := func(kv ...string) types.Map {
		el := map[string]attr.Value{}
		for i := 0; i+1 < len(kv); i += 2 {
			el[kv[i]] = types.StringValue(kv[i+1])
		}
		return types.MapValueMust(types.StringType, el)
	}
	tests := []struct {
		name string
		a, b types.Map
		want bool
	}{
		{"both null", types.MapNull(types.StringType), types.MapNull(types.StringType), true},
		{"null and empty", types.MapNull(types.StringType), m(), true},
		{"null and set", types.MapNull(types.StringType), m("a", "1"), false},
		{"same", m("a", "1", "b", "2"), m("b", "2", "a", "1"), true},
		{"value changed", m("a", "1"), m("a", "2"), false},
		{"key changed", m("a", "1"), m("b", "1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := sameTriggers(tt.a, tt.b); got != tt.want {
				t.Errorf("sameTriggers = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFlattenCredential(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		in   identityclient.ServiceSpecificCredential
		want serviceSpecificCredentialModel
	}{
		{
			"expiring",
			identityclient.ServiceSpecificCredential{UserName: "alice", ServiceName: "models.cloud.example", ServiceSpecificCredentialID: "ACCAABCDEFGHIJKLMNOPQ",
				ServiceAPIKeyValue: "CLOUDKsecret", Status: "Inactive", CreateDate: created, ExpirationDate: created.Add(90 * 24 * time.Hour)},
			serviceSpecificCredentialModel{
				ID: types.StringValue("alice/ACCAABCDEFGHIJKLMNOPQ"), UserName: types.StringValue("alice"), ServiceName: types.StringValue("models.cloud.example"),
				ServiceSpecificCredentialID: types.StringValue("ACCAABCDEFGHIJKLMNOPQ"), Status: types.StringValue("Inactive"),
				CreateDate: types.StringValue("2026-01-02T03:04:05Z"), ExpirationDate: types.StringValue("2026-04-02T03:04:05Z"), CredentialAgeDays: customtypes.NewInt64Value(90),
				ResetTriggers: types.MapNull(types.StringType),
			},
		},
		{
			"never expires",
			identityclient.ServiceSpecificCredential{UserName: "bob", ServiceName: "models.cloud.example", ServiceSpecificCredentialID: "ACCAABCDEFGHIJKLMNOPQ", Status: "Active", CreateDate: created},
			serviceSpecificCredentialModel{
				ID: types.StringValue("bob/ACCAABCDEFGHIJKLMNOPQ"), UserName: types.StringValue("bob"), ServiceName: types.StringValue("models.cloud.example"),
				ServiceSpecificCredentialID: types.StringValue("ACCAABCDEFGHIJKLMNOPQ"), Status: types.StringValue("Active"),
				CreateDate: types.StringValue("2026-01-02T03:04:05Z"), ExpirationDate: types.StringNull(), CredentialAgeDays: customtypes.NewInt64Null(),
				ResetTriggers: types.MapNull(types.StringType),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := serviceSpecificCredentialModel{ResetTriggers: types.MapNull(types.StringType)}
			flattenCredential(&tt.in, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("flatten (-want +got):\n%s", diff)
			}
			if !got.ServiceAPIKeyValue.IsNull() {
				t.Error("flatten copied the key value; only Create and Reset may set it")
			}
		})
	}
}
