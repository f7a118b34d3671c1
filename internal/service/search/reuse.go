package search

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// Terraform plans again at apply, from the same configuration, prior state
// and private state as the reviewed plan, and Create gets no private state
// at all, so neither can be handed the reviewed plan's dry run. Both can
// find it on the service: DescribeDryRunProgress without a DryRunId
// reports the domain's latest dry run, with the configuration it planned.
// A read costs a round trip; a dry run waits for the service's analysis.
// The rule for reusing that dry run instead of running another
// (contributing/design.md) is reusableDryRun's.

const (
	// reuseMaxAge is how old, by the service's clock, a dry run a plan
	// reuses may be: a saved plan is applied within it in a pipeline with
	// a review; after it the plan at apply dry-runs again.
	reuseMaxAge = time.Hour
	// createReuseAge bounds the dry run Create reuses: the one the plan at
	// apply made just before (Terraform runs Create right after it), whose
	// analysis took at most dryRunTimeout.
	createReuseAge = dryRunTimeout + time.Minute
)

// reusableDryRun is the domain's latest dry run when it stands for in
// exactly, else nil. It stands for in when it is a completed Verbose dry
// run whose verdict needs no clock (dynamic or none: the off-peak window
// rule reads the clock for blue/green), with in's accepted warnings, made
// no earlier than notBefore and at most maxAge ago, whose planned
// configuration has every member the configuration sets at its configured
// value and changes no member in does not set, and when in sets nothing
// the service never shows (a password, the master user), which no answer
// could confirm. prior supplies what the service never returns, as for a
// read. The caller checks that the domain shows no change since the dry
// run (its after).
func reusableDryRun(ctx context.Context, c *searchclient.Client, in *searchclient.UpdateDomainConfigInput, config, prior tftypes.Value, sections map[string]bool, notBefore time.Time, maxAge time.Duration) *dryRunResult {
	if shape.SetsHidden(config, sections) || setsPassword(in) {
		return nil
	}
	out, err := c.DescribeDryRunProgress(ctx, searchclient.DescribeDryRunProgressInput{DomainName: in.DomainName, LoadDryRunConfig: true})
	if err != nil || out.DryRunProgressStatus == nil || out.DryRunConfig == nil {
		// None yet, a Basic one (no planned configuration), or no answer.
		return nil
	}
	st, planned := out.DryRunProgressStatus, out.DryRunConfig
	dr := newDryRunResult(searchclient.DryRunModeVerbose, st, out.DryRunResults, planned.ModifyingProperties, changeID(planned.ChangeProgressDetails))
	if d := planned.ChangeProgressDetails; d != nil {
		dr.afterRunning = searchclient.ChangeRunning(searchclient.Deref(d.ConfigChangeStatus))
	}
	why := ""
	created, perr := time.Parse(time.RFC3339, searchclient.Deref(st.CreationDate))
	switch {
	case dr.status != searchclient.DryRunStatusCompleted:
		why = "not completed"
	case dr.deploymentType != searchclient.DeploymentTypeDynamic && dr.deploymentType != searchclient.DeploymentTypeNone:
		why = "deployment type " + dr.deploymentType
	case !slices.Equal(sortedCopy(st.AcceptedWarnings), sortedCopy(in.AcceptedWarnings)):
		why = "other accepted warnings"
	case perr != nil || !out.Clock.Known():
		why = "no creation date or service clock"
	case created.Before(notBefore):
		why = "made before Terraform last read the domain"
	case out.Clock.At.Sub(created) > maxAge:
		why = "too old"
	case !plansExactly(in, config, prior, planned):
		why = "another request"
	}
	if why != "" {
		tflog.Debug(ctx, "The domain's latest dry run does not stand for this change", map[string]any{"domain_name": in.DomainName, "dry_run_id": dr.id, "reason": why})
		return nil
	}
	return dr
}

// plansExactly reports whether planned, a dry run's DryRunConfig, is what
// in makes of the domain: every member the configuration sets has its
// configured value there, and every property the dry run changes is one in
// sets, shown with its values.
func plansExactly(in *searchclient.UpdateDomainConfigInput, config, prior tftypes.Value, planned *searchclient.DomainStatus) bool {
	for _, p := range planned.ModifyingProperties {
		if p.ActiveValue == nil && p.PendingValue == nil || !setsProperty(in.Sections, searchclient.Deref(p.Name)) {
			return false
		}
	}
	secs, err := shape.ReadPlanned(planned, prior)
	if err != nil {
		return false
	}
	current, err := tfvalue.WithAttributes(prior, secs)
	if err != nil {
		return false
	}
	ch := changeOf(config, current, false)
	return ch.empty() && !ch.unknown
}

// setsProperty reports whether a request value v sets the property name,
// a dotted wire path as ModifyingProperties name it
// ("AdvancedOptions.indices.fielddata.cache.size"): a leaf or list of v at
// that path or above it. An object v sets only in part does not count.
func setsProperty(v any, name string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return true
	}
	for k, sub := range m {
		if _, obj := sub.(map[string]any); name == k && !obj {
			return true
		}
		if rest, ok := strings.CutPrefix(name, k+"."); ok && setsProperty(sub, rest) {
			return true
		}
	}
	return false
}

// setsPassword reports whether in carries the master user password.
func setsPassword(in *searchclient.UpdateDomainConfigInput) bool {
	aso, _ := in.Sections["AdvancedSecurityOptions"].(map[string]any)
	mu, _ := aso["MasterUserOptions"].(map[string]any)
	_, ok := mu["MasterUserPassword"]
	return ok
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}

// reuseDryRun is the plan's verdict without a dry run of its own, when the
// domain's latest dry run stands for in (reusableDryRun) and was made on
// the domain as Terraform last read it (rd: this plan's refresh; the
// record of domain_read.go), which shows no change since: then it is the
// reviewed plan's own dry run, and this the plan Terraform makes at apply.
// prior is the state the plan compares with, sections the sections the
// change sets. nil otherwise: with no record (creation), or after any
// change to the domain since the read, the plan dry-runs. The caller
// reuses only Verbose dry runs.
func reuseDryRun(ctx context.Context, c *searchclient.Client, rd *domainRead, in *searchclient.UpdateDomainConfigInput, config, prior tftypes.Value, sections map[string]bool) *dryRunResult {
	if rd == nil || rd.Running || rd.ReadAt.IsZero() {
		return nil
	}
	dr := reusableDryRun(ctx, c, in, config, prior, sections, rd.ReadAt, reuseMaxAge)
	if dr == nil || dr.after != rd.Change || dr.afterRunning {
		return nil
	}
	dc, err := c.DescribeDomainConfig(ctx, in.DomainName)
	if err != nil || changeID(dc.ChangeProgressDetails) != rd.Change {
		return nil
	}
	if running, _ := dc.RunningChange(); running != "" {
		return nil
	}
	tflog.Info(ctx, "Search domain dry run reused", map[string]any{"domain_name": in.DomainName, "dry_run_id": dr.id, "deployment_type": dr.deploymentType})
	return dr
}

// reviewedAtCreate is the dry run Create may send on (sendReviewed), found
// on the service: the one the plan at apply made just before, when it
// stands for in (reusableDryRun) and its verdict is planned, the one the
// plan showed. plan is the planned values, sections the sections the
// change sets. nil when there is none; sendReviewed then dry-runs again.
// sendReviewed still checks that the domain shows no change since it.
func reviewedAtCreate(ctx context.Context, c *searchclient.Client, in *searchclient.UpdateDomainConfigInput, config, plan tftypes.Value, sections map[string]bool, planned verdict) *dryRunResult {
	dr := reusableDryRun(ctx, c, in, config, plan, sections, time.Time{}, createReuseAge)
	if dr == nil || dr.afterRunning || !dr.verdict().equal(planned) {
		return nil
	}
	return dr
}
