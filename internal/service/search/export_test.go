package search

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
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

// DryRunModes are dry_run_mode's values and the one that sends no dry run.
func DryRunModes() (modes []string, off string) { return dryRunModes, dryRunModeOff }

// ValidateAttribute runs the validators of cloud_search_domain_config's
// top-level attribute name (a string or a set of strings) on v.
func ValidateAttribute(ctx context.Context, name string, v attr.Value) (diag.Diagnostics, error) {
	var diags diag.Diagnostics
	p := path.Root(name)
	switch a := domainConfigSchema(ctx).Attributes[name].(type) {
	case schema.StringAttribute:
		sv, ok := v.(types.String)
		if !ok {
			return nil, fmt.Errorf("%s is a string, not a %T", name, v)
		}
		for _, x := range a.Validators {
			var resp validator.StringResponse
			x.ValidateString(ctx, validator.StringRequest{Path: p, ConfigValue: sv}, &resp)
			diags.Append(resp.Diagnostics...)
		}
	case schema.SetAttribute:
		sv, ok := v.(types.Set)
		if !ok {
			return nil, fmt.Errorf("%s is a set, not a %T", name, v)
		}
		for _, x := range a.Validators {
			var resp validator.SetResponse
			x.ValidateSet(ctx, validator.SetRequest{Path: p, ConfigValue: sv}, &resp)
			diags.Append(resp.Diagnostics...)
		}
	default:
		return nil, fmt.Errorf("no string or set attribute %s", name)
	}
	return diags, nil
}

// NotesDir is the notes' directory inside the Terraform data directory.
const NotesDir = handoffDir

// NoteName is the name of the note a plan of the search endpoint and
// region leaves for in, made from the read record read (the private
// state's domain_read, raw).
func NoteName(endpoint, region string, in *searchclient.UpdateDomainConfigInput, read []byte) string {
	return handoff{endpoint: endpoint, region: region}.handoffName(in, read)
}
