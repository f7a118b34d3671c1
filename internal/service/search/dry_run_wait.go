package search

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// dryRunTimeoutError is a wait that ran out of time.
type dryRunTimeoutError struct {
	status string
	after  time.Duration
}

func (e *dryRunTimeoutError) Error() string {
	return fmt.Sprintf("dry run still %q after %s", e.status, e.after)
}

// dryRunRunning reports whether a dry run may still change. Only the known
// running states wait: an unknown status is reported as it is rather than
// waited on until the timeout.
func dryRunRunning(status string) bool {
	return status == searchclient.DryRunStatusPending || status == searchclient.DryRunStatusInProgress
}

// waitForDryRunResult polls DescribeDryRunProgress until the dry run is no
// longer running, or timeout passes, at the pace of package poll (as the
// plan's own dry-run wait does).
func waitForDryRunResult(parent context.Context, c *searchclient.Client, in searchclient.DescribeDryRunProgressInput, timeout time.Duration) (*searchclient.DescribeDryRunProgressOutput, error) {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	began := time.Now()
	status := ""
	for {
		out, err := c.DescribeDryRunProgress(ctx, in)
		if err != nil {
			// An interrupted run is not a timeout: report it as it is.
			if parent.Err() == nil && ctx.Err() != nil && status != "" {
				return nil, &dryRunTimeoutError{status: status, after: timeout}
			}
			return nil, err
		}
		if out.DryRunProgressStatus != nil && out.DryRunProgressStatus.DryRunStatus != nil {
			status = *out.DryRunProgressStatus.DryRunStatus
		}
		if !dryRunRunning(status) {
			return out, nil
		}
		delay := poll.Next(poll.Observation{Now: time.Now(), Start: began, Waited: time.Since(began)})
		tflog.Debug(ctx, "Dry run still running", map[string]any{"domain_name": in.DomainName, "dry_run_id": in.DryRunID, "dry_run_status": status, "next_poll": delay.String()})
		select {
		case <-ctx.Done():
			if err := parent.Err(); err != nil {
				return nil, err
			}
			return nil, &dryRunTimeoutError{status: status, after: timeout}
		case <-time.After(delay):
		}
	}
}
