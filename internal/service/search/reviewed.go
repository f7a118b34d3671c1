package search

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/privatestate"
)

// The reviewed dry run, from plan to apply: how the plan hands its dry run
// to apply (reviewedDryRun, in the planned private state), what apply gets
// of it (review), and sendReviewed, the apply gate.
//
// The invariant (contributing/design.md): every UpdateDomainConfig that
// apply sends with DryRun false carries exactly the request whose verdict a
// reviewed plan showed, or that apply dry-ran again just before sending and
// found the same. sendReviewed is the one place that keeps it.

// reviewedDryRun is the plan's dry run as handed to apply in the planned
// private state: its id, the request it analysed (requestKey) and the
// domain's latest change when it was made, by the service's own record.
type reviewedDryRun struct {
	ID      string `json:"id"`
	Request string `json:"request"`
	After   string `json:"after"`
}

// privateReviewed is the planned private state's key for reviewedDryRun.
const privateReviewed = "reviewed_dry_run"

// reviewedOf is dr, the dry run of in, as a plan hands it to apply.
func reviewedOf(dr *dryRunResult, in *searchclient.UpdateDomainConfigInput) *reviewedDryRun {
	return &reviewedDryRun{ID: dr.id, Request: requestKey(in), After: dr.after}
}

// handReviewed hands dr, the dry run of in, to apply.
func handReviewed(ctx context.Context, p privatestate.Setter, dr *dryRunResult, in *searchclient.UpdateDomainConfigInput) diag.Diagnostics {
	return privatestate.Set(ctx, p, privateReviewed, reviewedOf(dr, in))
}

// forgetReviewed forgets a dry run handed over: only a dry run of this
// plan may stand for its change, and apply uses it once.
func forgetReviewed(ctx context.Context, p privatestate.Setter) diag.Diagnostics {
	return privatestate.Forget(ctx, p, privateReviewed)
}

func readReviewed(ctx context.Context, p privatestate.Getter) *reviewedDryRun {
	var rv reviewedDryRun
	if !privatestate.Get(ctx, p, privateReviewed, &rv) || rv.ID == "" {
		return nil
	}
	return &rv
}

// review is what apply gets of the plan's dry run: the verdict the plan
// showed (nil when it showed none) and that dry run as the plan handed it
// over (Update gets the planned private state; Create does not).
type review struct {
	planned *verdict
	handed  *reviewedDryRun
	// found is the handed dry run as the plan at apply handed it to Create
	// (reviewedAtCreate), so it is not read again; nil otherwise.
	found *dryRunResult
}

// notSentError is a change apply refused to send: the service's verdict on
// it is not the one reviewed, or blocked.
type notSentError struct{ detail string }

func (e *notSentError) Error() string { return e.detail }

// sendReviewed sends in, the change apply is about to make, keeping the
// invariant. It sends at once only when the plan's own dry run stands for
// it (whyDryRunAgain). Otherwise (creation with no dry run handed on
// for it, someone else's change ran first, the request differs,
// the plan had no verdict) it dry-runs in and sends only when the new
// verdict is the reviewed one, or, when the plan showed none, when
// nothing in it blocks the change (dryRunAgain). Else it
// sends nothing and returns a *notSentError naming the new verdict. used
// is the dry run that stands for the change sent (nil when none was made).
func sendReviewed(ctx context.Context, c *searchclient.Client, set settings, rv review, in *searchclient.UpdateDomainConfigInput) (out *searchclient.UpdateDomainConfigOutput, used *dryRunResult, err error) {
	mode := set.DryRunMode.ValueString()
	why, err := whyDryRunAgain(ctx, c, mode, rv, in)
	switch {
	case err != nil:
		return nil, nil, err
	case why == "":
		tflog.Info(ctx, "Sending the reviewed search domain change", map[string]any{"domain_name": in.DomainName, "dry_run_id": rv.handed.ID})
		if used = rv.found; used == nil || used.id != rv.handed.ID {
			used = readDryRun(ctx, c, in.DomainName, rv.handed.ID, mode)
		}
	case mode == dryRunModeOff && set.AllowBlueGreen.ValueBool():
		// The user opted out of dry runs, and nothing here needs one.
	default:
		if used, err = dryRunAgain(ctx, c, set, rv, in, why); err != nil {
			return nil, used, err
		}
	}
	out, err = c.UpdateDomainConfig(ctx, in)
	return out, used, err
}

// whyDryRunAgain says why the plan's own dry run cannot stand for in; ""
// when it can: the plan handed over that dry run, it analysed exactly in,
// and the service shows no change to the domain since (the same latest
// change, none running).
func whyDryRunAgain(ctx context.Context, c *searchclient.Client, mode string, rv review, in *searchclient.UpdateDomainConfigInput) (string, error) {
	switch {
	case rv.planned == nil && mode == dryRunModeOff:
		return "dry_run_mode is Off", nil
	case rv.planned == nil:
		return "the plan showed no verdict (its dry run was deferred to apply or could not be run)", nil
	case rv.handed == nil:
		return "the plan's dry run was not handed to apply (Terraform hands Create none) and the plan at apply handed on none for the request", nil
	case rv.handed.Request != requestKey(in):
		return "the request differs from the one the plan's dry run analysed (the domain changed since the plan)", nil
	}
	// Only now is the domain's record worth a read.
	dc, err := c.DescribeDomainConfig(ctx, in.DomainName)
	if err != nil {
		return "", err
	}
	latest := changeID(dc.ChangeProgressDetails)
	if running, _ := dc.RunningChange(); running != "" {
		return fmt.Sprintf("change %s is running on the domain", running), nil
	}
	if latest != rv.handed.After {
		return fmt.Sprintf("the domain changed since the plan's dry run (its latest change is now %s)", latest), nil
	}
	return "", nil
}

// dryRunAgain dry-runs in before apply sends it, because of why: a
// *notSentError when the dry run fails, when its verdict is not the one
// the plan showed, or, when the plan showed none, when something in it
// blocks the change (allow_blue_green, unaccepted Advisories, Critical
// failures).
func dryRunAgain(ctx context.Context, c *searchclient.Client, set settings, rv review, in *searchclient.UpdateDomainConfigInput, why string) (*dryRunResult, error) {
	domain, mode := in.DomainName, set.DryRunMode.ValueString()
	if mode == dryRunModeOff {
		// allow_blue_green = false holds with dry runs off too: a Basic dry
		// run tells the deployment type at once.
		mode = searchclient.DryRunModeBasic
	}
	tflog.Info(ctx, "Dry-running the search domain change again before sending it", map[string]any{"domain_name": domain, "reason": why})
	dctx, cancel := context.WithTimeout(ctx, dryRunTimeout)
	defer cancel()
	dr, err := dryRun(dctx, c, asDryRun(in, mode))
	if err != nil {
		return nil, &notSentError{fmt.Sprintf("Nothing was sent to domain %q: apply must dry-run the change before sending it because %s, and the dry run failed: %s\n\nRun terraform plan again.", domain, why, err)}
	}
	now := dr.verdict()
	if rv.planned != nil && !rv.planned.equal(now) {
		return dr, &notSentError{fmt.Sprintf("Nothing was sent to domain %q. Apply dry-ran the change again because %s, and the service's verdict is no longer the one the plan showed.\n\nThe plan showed: %s.\nDry run %s now says: %s.\n\nRun terraform plan again to review the new verdict, then apply that plan.", domain, why, rv.planned, dr.id, now)}
	}
	if problems := dr.problems(set); rv.planned == nil && len(problems) > 0 {
		lines := make([]string, 0, len(problems))
		for _, p := range problems {
			lines = append(lines, "- "+p.summary+": "+p.detail)
		}
		return dr, &notSentError{fmt.Sprintf("Nothing was sent to domain %q. Apply dry-ran the change first because %s, and dry run %s says: %s, which this configuration does not allow:\n%s", domain, why, dr.id, now, strings.Join(lines, "\n"))}
	}
	return dr, nil
}

// asNotSent reports whether err is a change apply refused to send.
func asNotSent(err error) (*notSentError, bool) {
	var ns *notSentError
	ok := errors.As(err, &ns)
	return ns, ok
}
