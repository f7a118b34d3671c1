package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// benchConfig is a domain configuration with most sections set.
const benchConfig = `{"DomainConfig":{
"ClusterConfig":{"Options":{"InstanceType":"r6g.large.search","InstanceCount":3,"DedicatedMasterEnabled":true,"DedicatedMasterType":"m6g.large.search","DedicatedMasterCount":3,"ZoneAwarenessEnabled":true,"ZoneAwarenessConfig":{"AvailabilityZoneCount":3}},"Status":{"CreationDate":1700000000,"UpdateDate":1700000000,"UpdateVersion":1,"State":"Active"}},
"EBSOptions":{"Options":{"EBSEnabled":true,"VolumeType":"gp3","VolumeSize":100},"Status":{"State":"Active"}},
"SnapshotOptions":{"Options":{"AutomatedSnapshotStartHour":0},"Status":{"State":"Active"}},
"AdvancedOptions":{"Options":{"rest.action.multi.allow_explicit_index":"true"},"Status":{"State":"Active"}},
"EncryptionAtRestOptions":{"Options":{"Enabled":true},"Status":{"State":"Active"}},
"NodeToNodeEncryptionOptions":{"Options":{"Enabled":true},"Status":{"State":"Active"}},
"DomainEndpointOptions":{"Options":{"EnforceHTTPS":true,"TLSSecurityPolicy":"Policy-Min-TLS-1-2-2019-07"},"Status":{"State":"Active"}},
"OffPeakWindowOptions":{"Options":{"Enabled":true,"OffPeakWindow":{"WindowStartTime":{"Hours":0,"Minutes":0}}},"Status":{"State":"Active"}},
"IPAddressType":{"Options":"ipv4","Status":{"State":"Active"}}
}}`

func benchDomainConfig(b *testing.B) *sc.DomainConfig {
	b.Helper()
	var out struct{ DomainConfig *sc.DomainConfig }
	if err := json.Unmarshal([]byte(benchConfig), &out); err != nil || out.DomainConfig == nil {
		b.Fatal(err)
	}
	return out.DomainConfig
}

func benchModel() domainConfigModel {
	return newModel(settings{DomainName: types.StringValue("demo"), AcceptedWarnings: types.SetNull(types.StringType)})
}

// BenchmarkDecodeDomainConfig is the JSON decoding of DescribeDomainConfig's answer.
func BenchmarkDecodeDomainConfig(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var out struct{ DomainConfig *sc.DomainConfig }
		if err := json.Unmarshal([]byte(benchConfig), &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFlattenDomainConfig(b *testing.B) {
	cfg := benchDomainConfig(b)
	b.ReportAllocs()
	for b.Loop() {
		m := benchModel()
		flattenDomainConfig(cfg, &m)
	}
}

func BenchmarkExpandRequest(b *testing.B) {
	m := benchModel()
	flattenDomainConfig(benchDomainConfig(b), &m)
	names := map[string]bool{}
	for _, n := range []string{"cluster_config", "block_volume_options", "snapshot_options", "advanced_options", "encryption_at_rest_options", "node_to_node_encryption_options", "domain_endpoint_options", "off_peak_window_options", "ip_address_type"} {
		names[n] = true
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if in := expandRequest(ctx, &m, names); in == nil {
			b.Fatal("nil request")
		}
	}
}
