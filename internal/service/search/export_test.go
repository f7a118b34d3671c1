package search

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// DedicatedMastersRefused reports whether the plan refuses, before any
// call, a cluster_config that sets dedicated_master_enabled and
// dedicated_master_count.
func DedicatedMastersRefused(enabled bool, count int64) bool {
	var diags diag.Diagnostics
	checkDedicatedMasters(map[string]tftypes.Value{
		"dedicated_master_enabled": tftypes.NewValue(tftypes.Bool, enabled),
		"dedicated_master_count":   tftypes.NewValue(tftypes.Number, count),
	}, nil, "demo", &diags)
	return diags.HasError()
}
