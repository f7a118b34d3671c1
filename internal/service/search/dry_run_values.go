package search

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// The dry_run attribute's Terraform values: in the plan (plannedObject,
// dryRunOff, dryRunCleared), in state after apply (appliedDryRun), and the
// verdict read back from the plan (plannedVerdict).

// plannedObject is dry_run as the plan holds it: only what a repeat dry
// run of the same change on the same domain reproduces (mode, status,
// deployment type, the failures' codes and severities). Terraform plans
// again at apply and refuses values that changed, so the id (new with
// every dry run), the messages (they gain a sentence while another change
// runs) and the modifying properties (their active values move with other
// people's changes) are unknown until apply; the plan's warning shows them.
func (dr *dryRunResult) plannedObject() types.Object {
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id":                   types.StringUnknown(),
		"mode":                 types.StringValue(dr.mode),
		"status":               types.StringValue(dr.status),
		"deployment_type":      types.StringValue(dr.deploymentType),
		"message":              types.StringUnknown(),
		"validation_failures":  dr.failureList(false),
		"modifying_properties": types.ListUnknown(types.ObjectType{AttrTypes: propertyAttrTypes}),
	})
}

// object is the dry_run attribute in state: the dry run that stands for
// the change apply sent, whole.
func (dr *dryRunResult) object() types.Object {
	props := make([]attr.Value, 0, len(dr.properties))
	for _, p := range dr.properties {
		name := searchclient.Deref(p.Name)
		active, pending := types.StringPointerValue(p.ActiveValue), types.StringPointerValue(p.PendingValue)
		if shape.SensitiveProperty(name) {
			active, pending = types.StringValue(shape.SensitiveValue), types.StringValue(shape.SensitiveValue)
		}
		props = append(props, types.ObjectValueMust(propertyAttrTypes, map[string]attr.Value{
			"name": types.StringValue(name), "active_value": active, "pending_value": pending, "value_type": types.StringPointerValue(p.ValueType),
		}))
	}
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id":                   types.StringValue(dr.id),
		"mode":                 types.StringValue(dr.mode),
		"status":               types.StringValue(dr.status),
		"deployment_type":      types.StringValue(dr.deploymentType),
		"message":              types.StringValue(dr.message),
		"validation_failures":  dr.failureList(true),
		"modifying_properties": types.ListValueMust(types.ObjectType{AttrTypes: propertyAttrTypes}, props),
	})
}

// failureList is dry_run.validation_failures: each failure's code and
// severity, and its message when withMessages (else unknown: the plan's).
func (dr *dryRunResult) failureList(withMessages bool) types.List {
	failures := make([]attr.Value, 0, len(dr.failures))
	for _, f := range dr.failures {
		message := types.StringUnknown()
		if withMessages {
			message = types.StringValue(searchclient.Deref(f.Message))
		}
		failures = append(failures, types.ObjectValueMust(failureAttrTypes, map[string]attr.Value{
			"code": types.StringValue(searchclient.Deref(f.Code)), "message": message, "severity": types.StringValue(searchclient.Deref(f.Severity)),
		}))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures)
}

// dryRunOff is dry_run when dry_run_mode is Off: the mode, and no verdict.
func dryRunOff() types.Object {
	return types.ObjectValueMust(dryRunAttrTypes, map[string]attr.Value{
		"id": types.StringNull(), "mode": types.StringValue(dryRunModeOff), "status": types.StringNull(),
		"deployment_type": types.StringNull(), "message": types.StringNull(),
		"validation_failures":  types.ListNull(types.ObjectType{AttrTypes: failureAttrTypes}),
		"modifying_properties": types.ListNull(types.ObjectType{AttrTypes: propertyAttrTypes}),
	})
}

// dryRunCleared is dry_run before any change was planned (at creation
// without a change, after an import): every attribute null, so references
// such as dry_run.deployment_type read null rather than fail.
func dryRunCleared() types.Object {
	attrs := make(map[string]attr.Value, len(dryRunAttrTypes))
	for name, t := range dryRunAttrTypes {
		v, _ := t.ValueFromTerraform(context.Background(), tftypes.NewValue(t.TerraformType(context.Background()), nil))
		attrs[name] = v
	}
	return types.ObjectValueMust(dryRunAttrTypes, attrs)
}

// appliedDryRun is dry_run in state after apply: the dry run that stands
// for the change sent (its verdict is the planned one, sendReviewed made
// sure), whole; else the planned one, what it left unknown null.
func appliedDryRun(planned types.Object, used *dryRunResult) types.Object {
	if planned.IsNull() {
		return dryRunCleared()
	}
	if used != nil && (planned.IsUnknown() || attrString(planned.Attributes()["mode"]) == used.mode) {
		return used.object()
	}
	return planned
}

func attrString(v any) string {
	if s, ok := v.(types.String); ok {
		return s.ValueString()
	}
	return ""
}

// plannedVerdict is the verdict the plan showed (its dry_run), nil when it
// showed none: the dry run was deferred to apply, could not be run, or
// dry_run_mode is Off.
func plannedVerdict(ctx context.Context, plan tfsdk.Plan) *verdict {
	var obj types.Object
	if plan.GetAttribute(ctx, path.Root("dry_run"), &obj).HasError() || obj.IsNull() || obj.IsUnknown() {
		return nil
	}
	attrs := obj.Attributes()
	status, _ := attrs["status"].(types.String)
	kind, _ := attrs["deployment_type"].(types.String)
	list, _ := attrs["validation_failures"].(types.List)
	if status.IsUnknown() || status.IsNull() || kind.IsUnknown() || kind.IsNull() || list.IsUnknown() || list.IsNull() {
		return nil
	}
	v := &verdict{status: status.ValueString(), deploymentType: kind.ValueString(), failures: []string{}}
	for _, e := range list.Elements() {
		f, ok := e.(types.Object)
		if !ok {
			return nil
		}
		code, _ := f.Attributes()["code"].(types.String)
		sev, _ := f.Attributes()["severity"].(types.String)
		v.failures = append(v.failures, verdictFailure(code.ValueString(), sev.ValueString()))
	}
	return v
}
