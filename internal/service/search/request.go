package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// change is what a configuration asks of a domain: the sections whose
// configured values differ from current, and whether the write-only
// password is to be sent.
type change struct {
	sections  map[string]bool
	woChanged bool
	// unknown: a configured value is unknown, so the change cannot be
	// computed yet.
	unknown bool
}

// names are the changed sections' names, sorted, for the logs.
func (c change) names() string {
	return strings.Join(slices.Sorted(maps.Keys(c.sections)), ",")
}

// empty reports a change that sends nothing.
func (c change) empty() bool { return len(c.sections) == 0 && !c.woChanged }

// changeOf compares the configuration with current: the state, or the
// domain's configuration as the service has it (creation, or after someone
// else's change).
func changeOf(config, current tftypes.Value, woChanged bool) change {
	secs, unknown := shape.Changed(config, current)
	return change{sections: secs, woChanged: woChanged, unknown: unknown}
}

// changeRequest is the one place the UpdateDomainConfig of a change is
// built: the changed sections as the configuration sets them, the accepted
// warnings, and the write-only password when its version changed. The
// plan's dry run, Create and Update all send what it builds (a dry run adds
// DryRun and DryRunMode and nothing else), so the request a plan analysed
// and the one apply sends cannot drift apart.
func changeRequest(ctx context.Context, config tfsdk.Config, set settings, ch change) (*searchclient.UpdateDomainConfigInput, error) {
	secs, err := shape.Request(config.Raw, ch.sections)
	if err != nil {
		return nil, err
	}
	if ch.woChanged {
		var pw types.String
		if diags := config.GetAttribute(ctx, path.Root("master_user_password_wo"), &pw); diags.HasError() {
			return nil, fmt.Errorf("reading master_user_password_wo: %v", diags)
		}
		if !pw.IsNull() && !pw.IsUnknown() {
			aso, _ := secs["AdvancedSecurityOptions"].(map[string]any)
			if aso == nil {
				aso = map[string]any{}
			}
			mu, _ := aso["MasterUserOptions"].(map[string]any)
			if mu == nil {
				mu = map[string]any{}
			}
			mu["MasterUserPassword"] = pw.ValueString()
			aso["MasterUserOptions"] = mu
			secs["AdvancedSecurityOptions"] = aso
		}
	}
	return &searchclient.UpdateDomainConfigInput{
		DomainName:       set.DomainName.ValueString(),
		Sections:         secs,
		AcceptedWarnings: stringList(ctx, set.AcceptedWarnings),
	}, nil
}

// asDryRun is in as a dry run in mode: the same request, nothing else added.
func asDryRun(in *searchclient.UpdateDomainConfigInput, mode string) *searchclient.UpdateDomainConfigInput {
	dry := *in
	dry.DryRun, dry.DryRunMode = ptr(true), ptr(mode)
	return &dry
}

// requestKey identifies a request by its content (sections, accepted
// warnings, domain), so that apply can tell whether it is about to send
// exactly the request a dry run analysed. The master password is replaced
// by a marker before hashing: the key is kept in the plan's private state
// and must not let anyone test guesses of the password.
func requestKey(in *searchclient.UpdateDomainConfigInput) string {
	secs := make(map[string]any, len(in.Sections))
	for k, v := range in.Sections {
		secs[k] = v
	}
	if aso, ok := secs["AdvancedSecurityOptions"].(map[string]any); ok {
		if mu, ok := aso["MasterUserOptions"].(map[string]any); ok {
			if _, ok := mu["MasterUserPassword"]; ok {
				masked := map[string]any{}
				for k, v := range mu {
					masked[k] = v
				}
				masked["MasterUserPassword"] = "(set)"
				a := map[string]any{}
				for k, v := range aso {
					a[k] = v
				}
				a["MasterUserOptions"] = masked
				secs["AdvancedSecurityOptions"] = a
			}
		}
	}
	accepted := append([]string{}, in.AcceptedWarnings...)
	sort.Strings(accepted)
	// encoding/json sorts map keys, so equal requests give equal bytes.
	b, err := json.Marshal(map[string]any{"DomainName": in.DomainName, "Sections": shape.Normalise(secs), "AcceptedWarnings": accepted})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// stringList is a set of strings as a sorted slice.
func stringList(ctx context.Context, v types.Set) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	var out []string
	_ = v.ElementsAs(ctx, &out, false)
	sort.Strings(out)
	return out
}

func ptr[T any](v T) *T { return &v }
