package provider_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"

	cloud "github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

// BenchmarkProviderSchema is the provider's schema as each provider process
// builds it (a plan starts three), with what it validates settings with.
func BenchmarkProviderSchema(b *testing.B) {
	ctx := context.Background()
	p := cloud.New("bench")()
	for b.Loop() {
		var resp provider.SchemaResponse
		p.Schema(ctx, provider.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			b.Fatal(resp.Diagnostics)
		}
	}
}
