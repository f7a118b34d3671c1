package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// Waiters: each follows one of the service's long-running operations with
// poll.Until, at the pace package poll sets.

// changeFailedError is a change the service reports as failed.
type changeFailedError struct{ detail string }

func (e *changeFailedError) Error() string { return e.detail }

// changeClock reads the service's clock, which stamps the change's
// stages, off the first progress seen. For a change just submitted the
// reading is exact (the change started when it was sent); otherwise the
// clocks are taken as in step, except that the service cannot be earlier
// than a time it reported.
func changeClock(p *searchclient.ChangeProgressStatus, submitted time.Time) client.ServiceClock {
	now := time.Now()
	switch {
	case p.StartTime != nil && !submitted.IsZero():
		return client.ClockAt(p.StartTime.Time(), submitted)
	case p.LastUpdatedTime != nil:
		return client.ClockAt(now.Add(max(p.LastUpdatedTime.Time().Sub(now), 0)), now)
	}
	return client.ClockAt(now, now)
}

// waitForChange follows DescribeDomainChangeProgress for changeID until the
// change completes, fails or ctx ends. submitted is when this process sent
// the change (zero for a change found running): the first poll then comes
// after poll.MinInterval, since a change just sent is not done. The polls
// follow the change's stages (see package poll). It logs every stage
// change. The last progress seen is returned in every case.
func waitForChange(ctx context.Context, c *searchclient.Client, domain, changeID string, submitted time.Time) (*searchclient.ChangeProgressStatus, error) {
	seen := map[string]string{}
	var last *searchclient.ChangeProgressStatus
	var clock client.ServiceClock
	began := submitted
	if began.IsZero() {
		began = time.Now()
	}
	if !submitted.IsZero() {
		if err := poll.Sleep(ctx, poll.Share(submitted)); err != nil {
			return nil, err
		}
	}
	err := poll.Until(ctx, func(ctx context.Context) (bool, time.Duration, error) {
		p, err := c.DescribeDomainChangeProgress(ctx, domain, changeID)
		if err != nil {
			return false, 0, err
		}
		last = p
		logStages(ctx, domain, changeID, p, seen)
		switch searchclient.Deref(p.Status) {
		case searchclient.ChangeStatusCompleted:
			return true, 0, nil
		case searchclient.ChangeStatusFailed:
			return false, 0, &changeFailedError{detail: describeFailure(p)}
		}
		switch searchclient.Deref(p.ConfigChangeStatus) {
		case searchclient.ConfigChangeStatusValidationFailed, searchclient.ConfigChangeStatusCancelled:
			return false, 0, &changeFailedError{detail: describeFailure(p)}
		case searchclient.ConfigChangeStatusPendingUserInput:
			return false, 0, errors.New("the change is waiting for user input (ConfigChangeStatus PendingUserInput): finish it with the service, then apply again")
		}
		if !clock.Known() {
			clock = changeClock(p, submitted)
		}
		o := p.Observation(clock.Now())
		o.Waited = time.Since(began)
		d := poll.Next(o)
		tflog.Debug(ctx, "Search domain change still running", map[string]any{"domain_name": domain, "change_id": changeID, "next_poll": d.String()})
		return false, d, nil
	})
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return last, err
}

// logStages logs each stage whose status changed since the last poll.
func logStages(ctx context.Context, domain, changeID string, p *searchclient.ChangeProgressStatus, seen map[string]string) {
	for _, s := range p.ChangeProgressStages {
		name, status := searchclient.Deref(s.Name), searchclient.Deref(s.Status)
		if seen[name] == status {
			continue
		}
		seen[name] = status
		tflog.Info(ctx, "Search domain change stage", map[string]any{
			"domain_name": domain, "change_id": changeID, "stage": name, "status": status,
			"description": searchclient.Deref(s.Description), "config_change_status": searchclient.Deref(p.ConfigChangeStatus),
			"total_stages": derefInt(p.TotalNumberOfStages),
		})
	}
}

// describeFailure names the failing stage and the validation failures.
func describeFailure(p *searchclient.ChangeProgressStatus) string {
	var b strings.Builder
	stage := ""
	for _, s := range p.ChangeProgressStages {
		if searchclient.Deref(s.Status) == searchclient.ChangeStatusFailed {
			stage = fmt.Sprintf("stage %s failed", searchclient.Deref(s.Name))
			if d := searchclient.Deref(s.Description); d != "" {
				stage += " (" + strings.TrimSuffix(d, ".") + ")"
			}
			break
		}
	}
	if stage == "" {
		stage = "ConfigChangeStatus " + searchclient.Deref(p.ConfigChangeStatus)
	}
	b.WriteString(stage)
	for _, f := range p.ValidationFailures {
		fmt.Fprintf(&b, "\n  - %s (%s): %s", searchclient.Deref(f.Code), searchclient.Deref(f.Severity), searchclient.Deref(f.Message))
	}
	return b.String()
}

// progressSummary says how far a change got.
func progressSummary(p *searchclient.ChangeProgressStatus) string {
	done := 0
	current := ""
	for _, s := range p.ChangeProgressStages {
		switch searchclient.Deref(s.Status) {
		case searchclient.ChangeStatusCompleted:
			done++
		case searchclient.ChangeStatusProcessing:
			current = searchclient.Deref(s.Name)
		}
	}
	out := fmt.Sprintf("after %d of %d stages", done, derefInt(p.TotalNumberOfStages))
	if current != "" {
		out += ", in stage " + current
	}
	return out
}

// dryRunTimeoutError is a dry-run wait that ran out of time.
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
func dryRunRunning(s *searchclient.DryRunProgressStatus) bool {
	if s == nil {
		return true
	}
	switch searchclient.Deref(s.DryRunStatus) {
	case searchclient.DryRunStatusPending, searchclient.DryRunStatusInProgress:
		return true
	}
	return false
}

// waitForDryRun polls DescribeDryRunProgress until the dry run is no longer
// running or timeout passes. started is when the dry run was sent (its
// first poll then waits a share of the time spent, see package poll); zero
// polls at once. A dry run has no stages, so the interval is a share of the
// time spent: within a second for a short dry run, within 3% of its length
// for a long one.
func waitForDryRun(parent context.Context, c *searchclient.Client, in searchclient.DescribeDryRunProgressInput, started time.Time, timeout time.Duration) (*searchclient.DescribeDryRunProgressOutput, error) {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	if started.IsZero() {
		started = time.Now()
	} else if err := poll.Sleep(ctx, poll.Share(started)); err != nil {
		return nil, waitError(parent, err, "", timeout)
	}
	var out *searchclient.DescribeDryRunProgressOutput
	err := poll.Until(ctx, func(ctx context.Context) (bool, time.Duration, error) {
		o, err := c.DescribeDryRunProgress(ctx, in)
		if err != nil {
			return false, 0, err
		}
		out = o
		if !dryRunRunning(o.DryRunProgressStatus) {
			return true, 0, nil
		}
		d := poll.Share(started)
		tflog.Debug(ctx, "Dry run still running", map[string]any{"domain_name": in.DomainName, "dry_run_id": in.DryRunID, "next_poll": d.String()})
		return false, d, nil
	})
	if err != nil {
		status := ""
		if out != nil && out.DryRunProgressStatus != nil {
			status = searchclient.Deref(out.DryRunProgressStatus.DryRunStatus)
		}
		return nil, waitError(parent, err, status, timeout)
	}
	return out, nil
}

// waitError is an interrupted wait as it is, and a timed-out one as a
// dryRunTimeoutError.
func waitError(parent context.Context, err error, status string, timeout time.Duration) error {
	if parent.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		if status == "" {
			status = searchclient.DryRunStatusPending
		}
		return &dryRunTimeoutError{status: status, after: timeout}
	}
	return err
}

func derefInt(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
