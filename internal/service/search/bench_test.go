package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// benchConfig is a domain configuration with most sections set.
const benchConfig = `{"DomainConfig":{
"ClusterConfig":{"Options":{"InstanceType":"r6g.large.search","InstanceCount":3,"DedicatedMasterEnabled":true,"DedicatedMasterType":"m6g.large.search","DedicatedMasterCount":3,"ZoneAwarenessEnabled":true,"ZoneAwarenessConfig":{"AvailabilityZoneCount":3}},"Status":{"CreationDate":1700000000,"UpdateDate":1700000000,"UpdateVersion":1,"State":"Active"}},
"BlockVolumeOptions":{"Options":{"BlockVolumeEnabled":true,"VolumeType":"gp3","VolumeSize":100},"Status":{"State":"Active"}},
"SnapshotOptions":{"Options":{"AutomatedSnapshotStartHour":0},"Status":{"State":"Active"}},
"AdvancedOptions":{"Options":{"rest.action.multi.allow_explicit_index":"true"},"Status":{"State":"Active"}},
"EncryptionAtRestOptions":{"Options":{"Enabled":true},"Status":{"State":"Active"}},
"NodeToNodeEncryptionOptions":{"Options":{"Enabled":true},"Status":{"State":"Active"}},
"DomainEndpointOptions":{"Options":{"EnforceHTTPS":true,"TLSSecurityPolicy":"Policy-Min-TLS-1-2-2019-07"},"Status":{"State":"Active"}},
"OffPeakWindowOptions":{"Options":{"Enabled":true,"OffPeakWindow":{"WindowStartTime":{"Hours":0,"Minutes":0}}},"Status":{"State":"Active"}},
"IPAddressType":{"Options":"ipv4","Status":{"State":"Active"}}
}}`

func benchDomainConfig(b *testing.B) *searchclient.DomainConfig {
	b.Helper()
	var out struct{ DomainConfig *searchclient.DomainConfig }
	if err := json.Unmarshal([]byte(benchConfig), &out); err != nil || out.DomainConfig == nil {
		b.Fatal(err)
	}
	return out.DomainConfig
}

// benchState is a state object with every attribute null.
func benchState(b *testing.B) tftypes.Value {
	b.Helper()
	var sr resource.SchemaResponse
	NewDomainConfigResource().Schema(context.Background(), resource.SchemaRequest{}, &sr)
	typ, ok := sr.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		b.Fatal("the schema is not an object")
	}
	attrs := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(t, nil)
	}
	return tftypes.NewValue(typ, attrs)
}

// BenchmarkDecodeDomainConfig is the JSON decoding of DescribeDomainConfig's answer.
func BenchmarkDecodeDomainConfig(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var out struct{ DomainConfig *searchclient.DomainConfig }
		if err := json.Unmarshal([]byte(benchConfig), &out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadSections turns the answer into Terraform values (refresh).
func BenchmarkReadSections(b *testing.B) {
	cfg := benchDomainConfig(b)
	prior := benchState(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := shape.Read(cfg, prior); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRequestSections builds a request of every set section.
func BenchmarkRequestSections(b *testing.B) {
	secs, err := shape.Read(benchDomainConfig(b), benchState(b))
	if err != nil {
		b.Fatal(err)
	}
	raw, err := tfvalue.WithAttributes(benchState(b), secs)
	if err != nil {
		b.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range []string{"cluster_config", "block_volume_options", "snapshot_options", "advanced_options", "encryption_at_rest_options", "node_to_node_encryption_options", "domain_endpoint_options", "off_peak_window_options", "ip_address_type"} {
		names[n] = true
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := shape.Request(raw, names); err != nil {
			b.Fatal(err)
		}
	}
}
