package search

import (
	"fmt"
	"slices"
	"strings"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// The verdict of a dry run, and what in it blocks a change. Plan reports
// the blocks as errors (dry_run_warning.go); apply, when it dry-runs a
// change the plan showed no verdict for, refuses to send it
// (reviewed.go). One home for the rules, so both agree.

// verdict is what a dry run says of a change, the part a reviewer approves:
// its status, deployment type and validation failures (code and severity,
// sorted). The accepted codes are part of the request.
type verdict struct {
	status, deploymentType string
	failures               []string
}

func (dr *dryRunResult) verdict() verdict {
	v := verdict{status: dr.status, deploymentType: dr.deploymentType, failures: []string{}}
	for _, f := range dr.failures {
		v.failures = append(v.failures, verdictFailure(searchclient.Deref(f.Code), searchclient.Deref(f.Severity)))
	}
	return v
}

// verdictFailure is one validation failure as a verdict holds it.
func verdictFailure(code, severity string) string {
	return fmt.Sprintf("%s (%s)", code, severity)
}

func (v verdict) equal(o verdict) bool {
	return v.status == o.status && v.deploymentType == o.deploymentType && slices.Equal(v.failures, o.failures)
}

func (v verdict) String() string {
	s := "deployment type " + v.deploymentType
	if len(v.failures) == 0 {
		return s + ", no validation failures"
	}
	return s + ", validation failures " + strings.Join(v.failures, ", ")
}

// problem is one thing in a dry run's verdict that stops the change; at
// is the attribute to change about it (empty for none).
type problem struct {
	at              string
	summary, detail string
}

// problems lists what in the verdict stops the change under set: a
// Critical failure, an Advisory warning whose code is not accepted, a
// failure of a severity this provider does not know (it blocks like
// Critical, accepted or not), and a blue/green or unknown deployment type
// while allow_blue_green is false.
func (dr *dryRunResult) problems(set settings) []problem {
	accepted := set.acceptedCodes()
	var out []problem
	for _, f := range dr.failures {
		code, msg, sev := searchclient.Deref(f.Code), searchclient.Deref(f.Message), searchclient.Deref(f.Severity)
		switch {
		case sev == searchclient.SeverityAdvisory && accepted[code]:
		case sev == searchclient.SeverityAdvisory:
			out = append(out, problem{"accepted_warnings", "Unaccepted Dry Run Warning",
				fmt.Sprintf("The dry run warns %s: %s\n\nThe service refuses a change with an Advisory warning that is not accepted. If the change is intended, accept it by adding %q to accepted_warnings, then plan again.", code, msg, code)})
		case sev == searchclient.SeverityCritical:
			out = append(out, problem{"", "Dry Run Found a Critical Failure",
				fmt.Sprintf("The dry run fails %s: %s\n\nCritical failures cannot be accepted; the service would refuse the change. Change the configuration.", code, msg)})
		default:
			out = append(out, problem{"", "Dry Run Found a Failure of Unknown Severity",
				fmt.Sprintf("The dry run reports %s with severity %q, which this provider does not know, so it blocks the change like a Critical failure: %s", code, sev, msg)})
		}
	}
	if set.AllowBlueGreen.ValueBool() {
		return out
	}
	switch dr.deploymentType {
	case searchclient.DeploymentTypeDynamic, searchclient.DeploymentTypeNone:
	case searchclient.DeploymentTypeBlueGreen:
		out = append(out, problem{"allow_blue_green", "Blue/Green Deployment Not Allowed",
			fmt.Sprintf("The dry run says this change is applied by a blue/green deployment, and allow_blue_green is false. Change something that deploys dynamically, or set allow_blue_green = true. %s", dr.message)})
	default:
		out = append(out, problem{"allow_blue_green", "Unknown Deployment Type",
			fmt.Sprintf("The dry run reports deployment type %q, which this provider does not know; it is treated as possibly blue/green, and allow_blue_green is false, so the change stops. %s", dr.deploymentType, dr.message)})
	}
	return out
}
