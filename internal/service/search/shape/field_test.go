package shape

import (
	"testing"
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
