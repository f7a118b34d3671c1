package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// clockOffset maps this machine's clock onto the service's, which stamps
// the change's stages. For a change just submitted the anchor is exact (the
// change started when it was sent); otherwise the clocks are taken as in
// step, except that the service cannot be earlier than a time it reported.
type clockOffset struct {
	offset   time.Duration
	anchored bool
}

// serviceNow is the service's time now, as well as it can be told.
func (c *clockOffset) serviceNow(p *sc.ChangeProgressStatus, submitted time.Time) time.Time {
	now := time.Now()
	if !c.anchored && p != nil {
		c.anchored = true
		if p.StartTime != nil && !submitted.IsZero() {
			c.offset = p.StartTime.Time().Sub(submitted)
		} else if p.LastUpdatedTime != nil {
			c.offset = max(p.LastUpdatedTime.Time().Sub(now), 0)
		}
	}
	return now.Add(c.offset)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// changeFailedError is a change the service reports as failed.
type changeFailedError struct{ detail string }

func (e *changeFailedError) Error() string { return e.detail }

// waitForChange follows DescribeDomainChangeProgress for changeID until the
// change completes, fails or ctx ends. submitted is when this process sent
// the change (zero for a change found running): the first poll then comes
// after poll.MinInterval, since a change just sent is not done. The polls
// follow the change's stages (see package poll). It logs every stage
// change. The last progress seen is returned in every case.
func waitForChange(ctx context.Context, c *sc.Client, domain, changeID string, submitted time.Time) (*sc.ChangeProgressStatus, error) {
	seen := map[string]string{}
	var last *sc.ChangeProgressStatus
	var clock clockOffset
	began := submitted
	if began.IsZero() {
		began = time.Now()
	}
	if !submitted.IsZero() {
		if err := sleep(ctx, poll.Next(poll.Observation{Now: time.Now(), Start: submitted})); err != nil {
			return nil, err
		}
	}
	for {
		p, err := c.DescribeDomainChangeProgress(ctx, domain, changeID)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = p
		logStages(ctx, domain, changeID, p, seen)
		switch deref(p.Status) {
		case sc.ChangeStatusCompleted:
			return p, nil
		case sc.ChangeStatusFailed:
			return p, &changeFailedError{detail: describeFailure(p)}
		}
		switch deref(p.ConfigChangeStatus) {
		case sc.ConfigChangeStatusValidationFailed, sc.ConfigChangeStatusCancelled:
			return p, &changeFailedError{detail: describeFailure(p)}
		case sc.ConfigChangeStatusPendingUserInput:
			return p, fmt.Errorf("the change is waiting for user input (ConfigChangeStatus PendingUserInput): finish it with the service, then apply again")
		}
		o := poll.FromChange(p, clock.serviceNow(p, submitted))
		o.Waited = time.Since(began)
		d := poll.Next(o)
		tflog.Debug(ctx, "Search domain change still running", map[string]any{"domain_name": domain, "change_id": changeID, "next_poll": d.String()})
		if err := sleep(ctx, d); err != nil {
			return last, err
		}
	}
}

// logStages logs each stage whose status changed since the last poll.
func logStages(ctx context.Context, domain, changeID string, p *sc.ChangeProgressStatus, seen map[string]string) {
	for _, s := range p.ChangeProgressStages {
		name, status := deref(s.Name), deref(s.Status)
		if seen[name] == status {
			continue
		}
		seen[name] = status
		tflog.Info(ctx, "Search domain change stage", map[string]any{
			"domain_name": domain, "change_id": changeID, "stage": name, "status": status,
			"description": deref(s.Description), "config_change_status": deref(p.ConfigChangeStatus),
			"total_stages": derefInt(p.TotalNumberOfStages),
		})
	}
}

// describeFailure names the failing stage and the validation failures.
func describeFailure(p *sc.ChangeProgressStatus) string {
	var b strings.Builder
	stage := ""
	for _, s := range p.ChangeProgressStages {
		if deref(s.Status) == sc.ChangeStatusFailed {
			stage = fmt.Sprintf("stage %s failed", deref(s.Name))
			if d := deref(s.Description); d != "" {
				stage += " (" + strings.TrimSuffix(d, ".") + ")"
			}
			break
		}
	}
	if stage == "" {
		stage = "ConfigChangeStatus " + deref(p.ConfigChangeStatus)
	}
	b.WriteString(stage)
	for _, f := range p.ValidationFailures {
		fmt.Fprintf(&b, "\n  - %s (%s): %s", deref(f.Code), deref(f.Severity), deref(f.Message))
	}
	return b.String()
}

// waitForDryRun polls DescribeDryRunProgress until the dry run has finished.
// submitted is when the dry run was sent. A dry run has no stages, so the
// interval is a share of the time spent (see package poll): within a second
// for a short dry run, within 3% of its length for a long one.
func waitForDryRun(ctx context.Context, c *sc.Client, domain string, out *sc.UpdateDomainConfigOutput, submitted time.Time) (*sc.DryRunProgressStatus, *sc.DryRunResults, error) {
	status, results := out.DryRunProgressStatus, out.DryRunResults
	if status == nil || status.DryRunId == nil {
		return nil, nil, errors.New("the service's answer to the dry run has no DryRunId")
	}
	for !dryRunDone(status) {
		if err := sleep(ctx, poll.Next(poll.Observation{Now: time.Now(), Start: submitted, Waited: time.Since(submitted)})); err != nil {
			return status, results, err
		}
		p, err := c.DescribeDryRunProgress(ctx, sc.DescribeDryRunProgressInput{DomainName: domain, DryRunID: *status.DryRunId})
		if err != nil {
			return status, results, err
		}
		if p.DryRunProgressStatus != nil {
			status = p.DryRunProgressStatus
		}
		if p.DryRunResults != nil {
			results = p.DryRunResults
		}
	}
	return status, results, nil
}

func dryRunDone(s *sc.DryRunProgressStatus) bool {
	switch deref(s.DryRunStatus) {
	case sc.DryRunStatusCompleted, sc.DryRunStatusFailed:
		return true
	}
	return false
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func derefInt(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
