package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// pollInterval is how long to wait before the next progress poll: quick at
// first, so short changes are seen done quickly, then a small share of the
// time already spent, so a long change costs few polls and is still seen
// done soon after it ends.
func pollInterval(elapsed time.Duration) time.Duration {
	const (
		first = 250 * time.Millisecond
		most  = 30 * time.Second
	)
	d := elapsed / 25
	if d < first {
		return first
	}
	if d > most {
		return most
	}
	return d
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
// change completes, fails or ctx ends. It logs every stage change. The last
// progress seen is returned in every case.
func waitForChange(ctx context.Context, c *sc.Client, domain, changeID string) (*sc.ChangeProgressStatus, error) {
	start := time.Now()
	seen := map[string]string{}
	var last *sc.ChangeProgressStatus
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
		if err := sleep(ctx, pollInterval(time.Since(start))); err != nil {
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
func waitForDryRun(ctx context.Context, c *sc.Client, domain string, out *sc.UpdateDomainConfigOutput) (*sc.DryRunProgressStatus, *sc.DryRunResults, error) {
	status, results := out.DryRunProgressStatus, out.DryRunResults
	if status == nil || status.DryRunId == nil {
		return nil, nil, errors.New("the service's answer to the dry run has no DryRunId")
	}
	start := time.Now()
	for !dryRunDone(status) {
		if err := sleep(ctx, pollInterval(time.Since(start))); err != nil {
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
