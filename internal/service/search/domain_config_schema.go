package search

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// Default waits for a change to complete.
const (
	defaultCreateTimeout = 90 * time.Minute
	defaultUpdateTimeout = 90 * time.Minute
)

// Dry-run modes of dry_run_mode: the service's two, and Off.
const dryRunModeOff = "Off"

var dryRunModes = []string{searchclient.DryRunModeVerbose, searchclient.DryRunModeBasic, dryRunModeOff}

// The computed dry_run object's types, derived once from its attribute.
var (
	dryRunAttrTypes   = objectAttrTypes(dryRunAttribute().GetType())
	failureAttrTypes  = objectAttrTypes(elementType(dryRunAttrTypes["validation_failures"]))
	propertyAttrTypes = objectAttrTypes(elementType(dryRunAttrTypes["modifying_properties"]))
)

// objectAttrTypes are the attribute types of an object type. Any other
// type is a mistake in the schema: it panics when the tables are built.
func objectAttrTypes(t attr.Type) map[string]attr.Type {
	o, ok := t.(types.ObjectType)
	if !ok {
		panic(fmt.Sprintf("search: want an object type in the dry_run schema, got %T", t))
	}
	return o.AttrTypes
}

// elementType is the element type of a list type. Any other type is a
// mistake in the schema: it panics when the tables are built.
func elementType(t attr.Type) attr.Type {
	l, ok := t.(types.ListType)
	if !ok {
		panic(fmt.Sprintf("search: want a list type in the dry_run schema, got %T", t))
	}
	return l.ElemType
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

func domainConfigSchema(ctx context.Context) schema.Schema {
	attrs := shape.ResourceAttributes()
	for name, a := range map[string]schema.Attribute{
		"id": computedString("The domain name."),
		"domain_name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the existing domain: 3 to 28 characters, a lower-case letter followed by lower-case letters, digits and hyphens. Changing it manages another domain.",
			Validators:          domainNameValidators(),
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"master_user_password_wo":         writeOnlyPassword(),
		"master_user_password_wo_version": writeOnlyPasswordVersion(),
		"accepted_warnings": schema.SetAttribute{
			ElementType:         types.StringType,
			Optional:            true,
			MarkdownDescription: "Codes of Advisory validation warnings to accept (at most 25). An Advisory warning whose code is not listed fails the plan; Critical failures cannot be accepted.",
			Validators:          validators.SetRule(rules.AcceptedWarnings),
		},
		"allow_blue_green": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "Whether a change may cause a blue/green deployment. When `false`, a plan whose dry run says blue/green fails. Defaults to `true` (the plan warns).",
		},
		"dry_run_mode": schema.StringAttribute{
			Optional: true, Computed: true, Default: stringdefault.StaticString("Verbose"),
			MarkdownDescription: "The plan-time dry run: `Verbose` (deployment type and validation, the default), `Basic` (deployment type only: `dry_run.validation_failures` is then empty because nothing was validated) or `Off` (no dry run: `dry_run` holds only the mode). `dry_run.mode` records it for policy review.",
			Validators:          []validator.String{stringvalidator.OneOf(dryRunModes...)},
		},
		"wait_for_completion": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "Whether apply waits until the change completes (following DescribeDomainChangeProgress). Defaults to `true`.",
		},
		"dry_run":   dryRunAttribute(),
		"change_id": computedString("Id of the domain's latest configuration change (36 characters): the one the last apply made, or one found running at refresh."),
		"config_change_status": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Status of that change as the service reports it, such as `Completed`, or `ApplyingChanges` while it runs.",
		},
		"timeouts": validators.PositiveTimeouts(domainConfigTimeouts(ctx)),
	} {
		attrs[name] = a
	}
	return schema.Schema{
		MarkdownDescription: "The configuration of an existing search domain. `terraform plan` runs a Verbose dry run of every change and shows its deployment type (dynamic or blue/green), every validation failure and each property's value now and after the change, before anyone approves; `terraform apply` applies the change and follows the service's change progress to the end. Only the sections the configuration sets are managed. Destroying this resource stops managing the configuration and changes nothing on the domain.",
		Attributes:          attrs,
	}
}

// domainConfigTimeouts is the timeouts attribute, described with its
// defaults (the library's description names none).
func domainConfigTimeouts(ctx context.Context) schema.Attribute {
	wait := func(op string, def time.Duration) string {
		return fmt.Sprintf("How long %s may wait for the domain's change to complete (DescribeDomainChangeProgress), as a duration such as `30m` or `2h`. Defaults to `%dm`: a blue/green deployment can take hours. When it runs out, the state keeps the submitted values and `change_id`, and the next plan follows the change still running.", op, int(def.Minutes()))
	}
	a, _ := timeouts.Attributes(ctx, timeouts.Opts{
		Create: true, Update: true,
		CreateDescription: wait("a create (adopting the domain and applying its sections)", defaultCreateTimeout),
		UpdateDescription: wait("an update", defaultUpdateTimeout),
	}).(schema.SingleNestedAttribute)
	a.MarkdownDescription = "How long apply waits for a configuration change. Only `wait_for_completion = true` waits."
	return a
}

// dryRunAttribute is the computed dry_run: the plan-time verdict of the
// planned change, and after apply the dry run of the applied one.
func dryRunAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed:            true,
		MarkdownDescription: "The plan-time dry run of the planned change: what the service says the change will do. At plan time `mode`, `status`, `deployment_type` and each failure's `code` and `severity` are known (what a repeat dry run of the same change reproduces), so the plan shows the verdict and `terraform show -json` of a saved plan carries it for policy review; `id`, `message`, the failures' messages and `modifying_properties` are known after apply. After apply it holds the dry run of the applied change, and refresh keeps it (clearing it would show as drift in `plan -refresh-only`); a plan without a change leaves it as it is. Every plan of a change also gives the dry run's whole verdict in one warning titled with the domain's name and the deployment type, since the diff hides what equals the previous dry run. After an import its attributes are null until the first change.",
		Attributes: map[string]schema.Attribute{
			"id":              schema.StringAttribute{Computed: true, MarkdownDescription: "Id of the dry run (named in the plan's warnings; known after apply). Read it with the `cloud_search_domain_dry_run` data source."},
			"mode":            schema.StringAttribute{Computed: true, MarkdownDescription: "`Verbose` (validated), `Basic` (deployment type only, nothing validated) or `Off` (no dry run: the other attributes are null)."},
			"status":          schema.StringAttribute{Computed: true, MarkdownDescription: "`completed` or `failed`."},
			"deployment_type": schema.StringAttribute{Computed: true, MarkdownDescription: "`dynamic`, `blue/green` or `none`; an unknown value is reported as it is."},
			"message":         schema.StringAttribute{Computed: true, MarkdownDescription: "The service's summary of the dry run."},
			"validation_failures": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Validation failures of a Verbose dry run, sorted by code.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"code":     schema.StringAttribute{Computed: true, MarkdownDescription: "Stable code of the failure."},
					"message":  schema.StringAttribute{Computed: true, MarkdownDescription: "What the service says."},
					"severity": schema.StringAttribute{Computed: true, MarkdownDescription: "`Advisory` (accept with `accepted_warnings`) or `Critical` (blocks)."},
				}},
			},
			"modifying_properties": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Each property the change modifies, with its value now (`active_value`) and once the change completes (`pending_value`), as the service names them (the dry run's `ModifyingProperties`), sorted by name. The values of a secret are not shown.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":          schema.StringAttribute{Computed: true, MarkdownDescription: "Property name, such as `ClusterConfig.InstanceType`."},
					"active_value":  schema.StringAttribute{Computed: true, MarkdownDescription: "Value in effect now."},
					"pending_value": schema.StringAttribute{Computed: true, MarkdownDescription: "Value once the change completes."},
					"value_type":    schema.StringAttribute{Computed: true, MarkdownDescription: "`PLAIN_TEXT` or `STRINGIFIED_JSON`."},
				}},
			},
		},
	}
}

// writeOnlyPassword is the master user password kept out of state and
// plan, sent when writeOnlyPasswordVersion changes.
func writeOnlyPassword() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		WriteOnly:           true,
		Sensitive:           true,
		MarkdownDescription: "Write-only master user password (8 to 128 characters), never stored in state or plan. Sent with `advanced_security_options.master_user_options` when `master_user_password_wo_version` changes. Needs Terraform 1.11 or later.",
		// The rule of the member it is sent as, which the service applies.
		Validators: append(validators.StringRule(rules.DomainConfig["AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword"]),
			stringvalidator.AlsoRequires(path.MatchRoot("master_user_password_wo_version")),
			stringvalidator.ConflictsWith(path.MatchRoot("advanced_security_options").AtName("master_user_options").AtName("master_user_password")),
		),
	}
}

func writeOnlyPasswordVersion() schema.Int64Attribute {
	return schema.Int64Attribute{
		CustomType:          customtypes.Int64Type{},
		Optional:            true,
		MarkdownDescription: "Change this number to send `master_user_password_wo` again.",
		Validators:          []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("master_user_password_wo"))},
	}
}
