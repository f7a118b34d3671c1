package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*dryRunDataSource)(nil)

// dryRunDefaultTimeout bounds wait_for_completion when timeouts.read is unset.
const dryRunDefaultTimeout = 5 * time.Minute

const dryRunReadSummary = "Unable to Read Search Domain Dry Run"

// NewDryRunDataSource is the factory of cloud_search_domain_dry_run.
func NewDryRunDataSource() datasource.DataSource { return &dryRunDataSource{} }

type dryRunDataSource struct {
	clients *conns.Clients
}

type dryRunDataSourceModel struct {
	DomainName        types.String   `tfsdk:"domain_name"`
	DryRunID          types.String   `tfsdk:"dry_run_id"`
	LoadDryRunConfig  types.Bool     `tfsdk:"load_dry_run_config"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`

	AcceptedWarnings   []string                 `tfsdk:"accepted_warnings"`
	CreationDate       *string                  `tfsdk:"creation_date"`
	DryRunStatus       *string                  `tfsdk:"dry_run_status"`
	UpdateDate         *string                  `tfsdk:"update_date"`
	ValidationFailures []validationFailureModel `tfsdk:"validation_failures"`
	DeploymentType     *string                  `tfsdk:"deployment_type"`
	Message            *string                  `tfsdk:"message"`
	DryRunConfig       types.Object             `tfsdk:"dry_run_config"`
}

func (d *dryRunDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_search_domain_dry_run"
}

func (d *dryRunDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	tb, _ := timeouts.BlockWithOpts(ctx, timeouts.Opts{
		ReadDescription: "How long to wait for the dry run when `wait_for_completion` is `true`, as a duration such as `30s` or `10m`. Defaults to `5m`.",
	}).(schema.SingleNestedBlock)
	tb.MarkdownDescription = "Bounds on how long the read may take."
	tb = validators.PositiveTimeoutsBlock(tb)
	resp.Schema = schema.Schema{
		MarkdownDescription: "The progress and results of a dry run of a search domain configuration change (DescribeDryRunProgress), and with `load_dry_run_config` the configuration the change would leave. The dry run id of a planned change is named in the plan's warning of `cloud_search_domain_config` and held in its `dry_run.id` attribute after apply.",
		Attributes: map[string]schema.Attribute{
			"domain_name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the domain: 3 to 28 characters, a lower-case letter followed by lower-case letters, digits and hyphens.",
				Validators:          domainNameValidators(),
			},
			"dry_run_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Id of the dry run: 36 characters in hexadecimal groups 8-4-4-4-12.",
				Validators:          idValidators(),
			},
			"load_dry_run_config": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "When `true`, also read the planned configuration into `dry_run_config`. The service keeps it for Verbose dry runs only. Defaults to `false`.",
			},
			"wait_for_completion": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "When `true`, wait while the dry run is `pending` or `in-progress`, up to `timeouts.read` (default `5m`). Defaults to `false`: report the dry run as it is now.",
			},
			"accepted_warnings":   dsStringList("Codes of Advisory warnings the change accepted; empty when none."),
			"creation_date":       dsString("When the dry run was created (RFC 3339)."),
			"dry_run_status":      dsString("`pending`, `in-progress`, `completed` or `failed`."),
			"update_date":         dsString("When the dry run was last updated (RFC 3339)."),
			"validation_failures": validationFailuresSchema("dry run (Verbose dry runs only, once completed)"),
			"deployment_type":     dsString("How the change would be deployed: `blue/green`, `dynamic` or `none`. Any other value is reported as the service sent it."),
			"message":             dsString("The service's explanation of the deployment type."),
			"dry_run_config": schema.SingleNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The domain as the change would leave it (the service's `DryRunConfig`), set when `load_dry_run_config` is `true`, otherwise null. Sections use the names and nesting of `cloud_search_domain_config`; `modifying_properties` lists each property the change modifies with its value now and after. A field the service does not return is null.",
				Attributes:          shape.DryRunConfigAttributes(),
			},
		},
		Blocks: map[string]schema.Block{"timeouts": tb},
	}
}

func (d *dryRunDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (d *dryRunDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m dryRunDataSourceModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := searchclient.DescribeDryRunProgressInput{
		DomainName:       m.DomainName.ValueString(),
		DryRunID:         m.DryRunID.ValueString(),
		LoadDryRunConfig: m.LoadDryRunConfig.ValueBool(),
	}
	var (
		out *searchclient.DescribeDryRunProgressOutput
		err error
	)
	if m.WaitForCompletion.ValueBool() {
		timeout, diags := m.Timeouts.Read(ctx, dryRunDefaultTimeout)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		out, err = waitForDryRun(ctx, d.clients.Search, in, time.Time{}, timeout)
	} else {
		out, err = d.clients.Search.DescribeDryRunProgress(ctx, in)
	}
	if err != nil {
		d.readError(ctx, &resp.Diagnostics, in, err)
		return
	}
	flattenDryRunOutput(out, &m)
	cfgTypes := dryRunConfigAttrTypes(ctx, resp.State.Schema)
	m.DryRunConfig = types.ObjectNull(cfgTypes)
	if out.DryRunConfig != nil {
		cfg, err := dryRunConfigValue(ctx, cfgTypes, out.DryRunConfig)
		if err != nil {
			resp.Diagnostics.AddError(dryRunReadSummary, fmt.Sprintf("The service's DryRunConfig of dry run %s could not be read: %s", in.DryRunID, err))
			return
		}
		m.DryRunConfig = cfg
	}
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &m)...)
}

// dryRunConfigAttrTypes is the attribute types of dry_run_config.
func dryRunConfigAttrTypes(ctx context.Context, s fwschema) map[string]attr.Type {
	t, _ := s.TypeAtPath(ctx, path.Root("dry_run_config"))
	if ot, ok := t.(types.ObjectType); ok {
		return ot.AttrTypes
	}
	return nil
}

// fwschema is what this file needs of a schema.
type fwschema interface {
	TypeAtPath(context.Context, path.Path) (attr.Type, diag.Diagnostics)
}

// dryRunConfigValue is a DryRunConfig as the dry_run_config attribute, of
// the attribute types attrTypes (dryRunConfigAttrTypes).
func dryRunConfigValue(ctx context.Context, attrTypes map[string]attr.Type, dc *searchclient.DomainStatus) (types.Object, error) {
	tv, err := shape.ReadDryRunConfig(dc)
	if err != nil {
		return types.Object{}, err
	}
	v, err := types.ObjectType{AttrTypes: attrTypes}.ValueFromTerraform(ctx, tv)
	if err != nil {
		return types.Object{}, err
	}
	obj, ok := v.(types.Object)
	if !ok {
		return types.Object{}, fmt.Errorf("dry_run_config is a %T, not an object", v)
	}
	return obj, nil
}

// readError turns a failed read into a diagnostic on the input to blame.
func (d *dryRunDataSource) readError(ctx context.Context, diags *diag.Diagnostics, in searchclient.DescribeDryRunProgressInput, err error) {
	var timeout *dryRunTimeoutError
	switch {
	case errors.As(err, &timeout):
		diagnostics.AddDryRunStillRunning(diags, dryRunReadSummary, in.DomainName, in.DryRunID, timeout.status, timeout.after)
	case errors.Is(err, client.ErrNotFound):
		dsNotFound(ctx, d.clients.Search, diags, diagnostics.SearchLookup{
			Summary: dryRunReadSummary, Domain: in.DomainName, Region: d.clients.Region,
			Thing: "dry run", ID: in.DryRunID, IDAttribute: "dry_run_id",
			Use: "Use the id of a dry run of this domain: a plan of cloud_search_domain_config names it in its warning, and its dry_run.id attribute holds it after apply.",
		}, err)
	default:
		diagnostics.AddDryRunReadError(diags, dryRunReadSummary, in.DomainName, in.DryRunID, err)
	}
}

// flattenDryRunOutput copies the answer into the model. Lists are empty
// rather than null so modules can use length() without a null check.
func flattenDryRunOutput(out *searchclient.DescribeDryRunProgressOutput, m *dryRunDataSourceModel) {
	m.AcceptedWarnings, m.ValidationFailures = []string{}, []validationFailureModel{}
	m.CreationDate, m.DryRunStatus, m.UpdateDate, m.DeploymentType, m.Message = nil, nil, nil, nil, nil
	if p := out.DryRunProgressStatus; p != nil {
		m.AcceptedWarnings = append(m.AcceptedWarnings, p.AcceptedWarnings...)
		m.CreationDate, m.DryRunStatus, m.UpdateDate = p.CreationDate, p.DryRunStatus, p.UpdateDate
		m.ValidationFailures = flattenValidationFailures(p.ValidationFailures)
	}
	if r := out.DryRunResults; r != nil {
		m.DeploymentType, m.Message = r.DeploymentType, r.Message
	}
}
