package emulator

import (
	"fmt"
	"slices"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// The verdicts a verdict fault may impose: the spec's two deployment types
// and the service's none (nothing changes).
var deploymentTypes = []string{"blue/green", "dynamic", "none"}

// The severities of a validation failure, as the spec names them.
var severities = []string{"Critical", "Advisory"}

// validateDryRunFault checks a verdict or validation_failure fault: it hits
// the search service's dry runs only, so it fixes Service, Operation and
// DryRun (refusing others), and it needs what it imposes.
func (f *Fault) validateDryRunFault() error {
	switch {
	case f.Service != "" && f.Service != "search":
		return fmt.Errorf("service %q: a %s fault hits the search service's dry runs", f.Service, f.Kind)
	case f.Operation != "" && f.Operation != "UpdateDomainConfig":
		return fmt.Errorf("operation %q: a %s fault hits UpdateDomainConfig's dry runs", f.Operation, f.Kind)
	case f.DryRun != "" && f.DryRun != "only":
		return fmt.Errorf("dry_run %q: a %s fault hits dry runs only", f.DryRun, f.Kind)
	case f.Status != 0 || f.Delay != 0 || f.DelayText != "" || f.Field != "" || f.Chars != 0 || f.Offset != 0 || f.Where != "":
		return fmt.Errorf("a %s fault answers normally: status, delay, field, chars, offset and where do not apply", f.Kind)
	}
	if f.Domain != "" {
		if err := search.ValidDomainName(f.Domain); err != nil {
			return err
		}
	}
	if f.Kind == FaultVerdict {
		if !slices.Contains(deploymentTypes, f.DeploymentType) {
			return fmt.Errorf("deployment_type %q is not one of %v", f.DeploymentType, deploymentTypes)
		}
		if f.Code != "" || f.Severity != "" || f.Message != "" {
			return fmt.Errorf("code, severity and message belong to a validation_failure fault")
		}
	} else {
		if err := rules.WarningCode.CheckString(f.Code); err != nil {
			return fmt.Errorf("code %q %w", f.Code, err)
		}
		if !slices.Contains(severities, f.Severity) {
			return fmt.Errorf("severity %q is not Critical or Advisory", f.Severity)
		}
		if f.Message == "" {
			return fmt.Errorf("a validation_failure fault needs a message")
		}
		if f.DeploymentType != "" {
			return fmt.Errorf("deployment_type belongs to a verdict fault")
		}
	}
	f.Service, f.Operation, f.DryRun = "search", "UpdateDomainConfig", "only"
	if f.Times == 0 {
		f.Times = 1
	}
	return nil
}

// dryRunOverride is what a verdict or validation_failure fault imposes on
// the dry run it hits, or nil for another kind.
func (f *Fault) dryRunOverride() *core.DryRunOverride {
	switch f.Kind {
	case FaultVerdict:
		return &core.DryRunOverride{DeploymentType: f.DeploymentType}
	case FaultValidationFailure:
		return &core.DryRunOverride{Findings: []core.DryRunFinding{{Code: f.Code, Severity: f.Severity, Message: f.Message}}}
	}
	return nil
}
