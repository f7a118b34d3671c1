package shape

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

func TestSnake(t *testing.T) {
	t.Parallel()
	for wire, want := range map[string]string{
		"ClusterConfig":                "cluster_config",
		"MultiAZWithStandbyEnabled":    "multi_az_with_standby_enabled",
		"AIMLOptions":                  "aiml_options",
		"IPAddressType":                "ip_address_type",
		"VPCId":                        "vpc_id",
		"EnabledAPIAccess":             "enabled_api_access",
		"EnforceHTTPS":                 "enforce_https",
		"JwksUrl":                      "jwks_url",
		"WorkforceIdentityInstanceARN": "workforce_identity_instance_arn",
		"DomainEndpointV2HostedZoneId": "domain_endpoint_v2_hosted_zone_id",
	} {
		if got := snake(wire); got != want {
			t.Errorf("snake(%q) = %q, want %q", wire, got, want)
		}
	}
}

func TestSensitiveProperty(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword": true,
		"AdvancedSecurityOptions.MasterUserOptions":                    true,
		"AdvancedSecurityOptions":                                      true,
		"ClusterConfig.InstanceType":                                   false,
		"LogPublishingOptions.AUDIT_LOGS.Enabled":                      false,
		"Unknown.Name": false,
	} {
		if got := SensitiveProperty(name); got != want {
			t.Errorf("SensitiveProperty(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestEpochString(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   *searchclient.EpochSeconds
		want *string
	}{
		{"nil stays nil", nil, nil},
		{"whole seconds", ptr(searchclient.EpochSeconds(1700000000)), ptr("2023-11-14T22:13:20Z")},
		{"milliseconds round to the second", ptr(searchclient.EpochSeconds(1700000000.6)), ptr("2023-11-14T22:13:21Z")},
		{"epoch", ptr(searchclient.EpochSeconds(0)), ptr("1970-01-01T00:00:00Z")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if d := cmp.Diff(tc.want, EpochString(tc.in)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
