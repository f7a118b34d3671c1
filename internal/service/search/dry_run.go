package search

import (
	"context"
	"errors"
	"sort"
	"time"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// Running a dry run: sending a change with DryRun true, waiting for the
// service's analysis (wait.go), and reading one back by id. What the
// result means is verdict.go's; how the plan shows it, dry_run_warning.go
// and dry_run_values.go.

// dryRunTimeout bounds the plan-time wait for a dry run.
const dryRunTimeout = 5 * time.Minute

// dryRunResult is what a finished dry run says.
type dryRunResult struct {
	id, mode, status, deploymentType, message string
	failures                                  []searchclient.ValidationFailure
	properties                                []searchclient.ModifyingProperty
	// after is the domain's latest change when the dry run was made, by
	// the service's record ("" for none); afterRunning, whether it was
	// still running.
	after        string
	afterRunning bool
}

// dryRun runs the dry run in and waits for its verdict.
func dryRun(ctx context.Context, c *searchclient.Client, in *searchclient.UpdateDomainConfigInput) (*dryRunResult, error) {
	mode := searchclient.Deref(in.DryRunMode)
	submitted := time.Now()
	up, err := c.UpdateDomainConfig(ctx, in)
	if err != nil {
		return nil, err
	}
	status, results := up.DryRunProgressStatus, up.DryRunResults
	if status == nil || status.DryRunId == nil {
		return nil, errors.New("the service's answer to the dry run has no DryRunId")
	}
	var props []searchclient.ModifyingProperty
	after, afterRunning := "", false
	if up.DomainConfig != nil {
		props = up.DomainConfig.ModifyingProperties
		after = changeID(up.DomainConfig.ChangeProgressDetails)
		running, _ := up.DomainConfig.RunningChange()
		afterRunning = running != ""
	}
	if dryRunRunning(status) || (props == nil && mode == searchclient.DryRunModeVerbose) {
		// The planned configuration (with ModifyingProperties) is kept for
		// Verbose dry runs only.
		load := mode == searchclient.DryRunModeVerbose
		var started time.Time
		if dryRunRunning(status) {
			started = submitted
		}
		out, err := waitForDryRun(ctx, c, searchclient.DescribeDryRunProgressInput{DomainName: in.DomainName, DryRunID: *status.DryRunId, LoadDryRunConfig: load}, started, dryRunTimeout)
		if err != nil {
			return nil, err
		}
		if out.DryRunProgressStatus != nil {
			status = out.DryRunProgressStatus
		}
		if out.DryRunResults != nil {
			results = out.DryRunResults
		}
		if out.DryRunConfig != nil {
			props = out.DryRunConfig.ModifyingProperties
		}
	}
	dr := newDryRunResult(mode, status, results, props, after)
	dr.afterRunning = afterRunning
	return dr, nil
}

func newDryRunResult(mode string, status *searchclient.DryRunProgressStatus, results *searchclient.DryRunResults, props []searchclient.ModifyingProperty, after string) *dryRunResult {
	dr := &dryRunResult{
		mode: mode, id: searchclient.Deref(status.DryRunId), status: searchclient.Deref(status.DryRunStatus),
		failures:   append([]searchclient.ValidationFailure(nil), status.ValidationFailures...),
		properties: append([]searchclient.ModifyingProperty(nil), props...),
		after:      after,
	}
	if results != nil {
		dr.deploymentType, dr.message = searchclient.Deref(results.DeploymentType), searchclient.Deref(results.Message)
	}
	sort.SliceStable(dr.failures, func(i, j int) bool {
		a, b := dr.failures[i], dr.failures[j]
		if searchclient.Deref(a.Code) != searchclient.Deref(b.Code) {
			return searchclient.Deref(a.Code) < searchclient.Deref(b.Code)
		}
		return searchclient.Deref(a.Severity) < searchclient.Deref(b.Severity)
	})
	sort.SliceStable(dr.properties, func(i, j int) bool {
		return searchclient.Deref(dr.properties[i].Name) < searchclient.Deref(dr.properties[j].Name)
	})
	return dr
}

// readDryRun reads a finished dry run back by id, to record it in state;
// nil when it cannot be read (the state then holds what the plan showed).
func readDryRun(ctx context.Context, c *searchclient.Client, domain, id, mode string) *dryRunResult {
	out, err := c.DescribeDryRunProgress(ctx, searchclient.DescribeDryRunProgressInput{DomainName: domain, DryRunID: id, LoadDryRunConfig: mode == searchclient.DryRunModeVerbose})
	if err != nil || out.DryRunProgressStatus == nil {
		return nil
	}
	var props []searchclient.ModifyingProperty
	if out.DryRunConfig != nil {
		props = out.DryRunConfig.ModifyingProperties
	}
	return newDryRunResult(mode, out.DryRunProgressStatus, out.DryRunResults, props, "")
}
