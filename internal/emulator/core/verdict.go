package core

import "context"

// DryRunFinding is a validation failure an injected fault adds to a dry
// run's findings.
type DryRunFinding struct{ Code, Severity, Message string }

// DryRunOverride is what an injected fault imposes on one dry run: its
// deployment type (when not "") and findings added to those it computes.
type DryRunOverride struct {
	DeploymentType string
	Findings       []DryRunFinding
}

type dryRunOverrideKey struct{}

// WithDryRunOverride carries o to the service that answers the request.
func WithDryRunOverride(ctx context.Context, o *DryRunOverride) context.Context {
	return context.WithValue(ctx, dryRunOverrideKey{}, o)
}

// DryRunOverrideFrom is the override a fault put on the request, or nil.
func DryRunOverrideFrom(ctx context.Context) *DryRunOverride {
	o, _ := ctx.Value(dryRunOverrideKey{}).(*DryRunOverride)
	return o
}
