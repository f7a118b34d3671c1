package search

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
)

var _ datasource.DataSourceWithConfigure = (*changeProgressDataSource)(nil)

const changeProgressReadSummary = "Unable to Read Search Domain Change Progress"

// NewChangeProgressDataSource is the factory of
// cloud_search_domain_change_progress.
func NewChangeProgressDataSource() datasource.DataSource { return &changeProgressDataSource{} }

type changeProgressDataSource struct {
	clients *conns.Clients
}

type changeProgressDataSourceModel struct {
	DomainName types.String `tfsdk:"domain_name"`
	// ChangeID is the input when set, else the id the service reports.
	ChangeID types.String `tfsdk:"change_id"`

	AcceptedWarnings     []string                   `tfsdk:"accepted_warnings"`
	ChangeProgressStages []changeProgressStageModel `tfsdk:"change_progress_stages"`
	CompletedProperties  []string                   `tfsdk:"completed_properties"`
	PendingProperties    []string                   `tfsdk:"pending_properties"`
	ConfigChangeStatus   *string                    `tfsdk:"config_change_status"`
	InitiatedBy          *string                    `tfsdk:"initiated_by"`
	LastUpdatedTime      *string                    `tfsdk:"last_updated_time"`
	StartTime            *string                    `tfsdk:"start_time"`
	Status               *string                    `tfsdk:"status"`
	TotalNumberOfStages  *int64                     `tfsdk:"total_number_of_stages"`
	ValidationFailures   []validationFailureModel   `tfsdk:"validation_failures"`
}

type changeProgressStageModel struct {
	Description *string `tfsdk:"description"`
	LastUpdated *string `tfsdk:"last_updated"`
	Name        *string `tfsdk:"name"`
	Status      *string `tfsdk:"status"`
}

func (d *changeProgressDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_search_domain_change_progress"
}

func (d *changeProgressDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The progress of a search domain's configuration change (DescribeDomainChangeProgress): its stages, the properties still pending and those completed. Without `change_id` it reports the domain's most recent change. A domain that has never had a change reports null scalars and empty lists, so `status != \"PROCESSING\"` holds for it.",
		Attributes: map[string]schema.Attribute{
			"domain_name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the domain: 3 to 28 characters, a lower-case letter followed by lower-case letters, digits and hyphens.",
				Validators:          domainNameValidators(),
			},
			"change_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Id of the change (36 characters in hexadecimal groups 8-4-4-4-12), such as the `change_id` of `cloud_search_domain_config`. When omitted, the domain's most recent change is reported and this holds its id (null if the domain never changed).",
				Validators:          idValidators(),
			},
			"accepted_warnings": dsStringList("Codes of Advisory warnings the change accepted; empty when none."),
			"change_progress_stages": dsObjectList("Stages of the change in order; empty when there is no change.", dsAttrs{
				"description":  dsString("What the stage does."),
				"last_updated": dsString("When the stage last changed (RFC 3339)."),
				"name":         dsString("Name of the stage, such as `Validation` or `CopyingShards`."),
				"status":       dsString("`PENDING`, `PROCESSING`, `COMPLETED` or `FAILED`."),
			}),
			"completed_properties":   dsStringList("Properties the change has applied, such as `ClusterConfig.InstanceType` (filled once it completes)."),
			"pending_properties":     dsStringList("Properties the change has yet to apply."),
			"config_change_status":   dsString("`Pending`, `Initializing`, `Validating`, `ValidationFailed`, `ApplyingChanges`, `Completed`, `PendingUserInput` or `Cancelled`."),
			"initiated_by":           dsString("Who started the change."),
			"last_updated_time":      dsString("When the change was last updated (RFC 3339)."),
			"start_time":             dsString("When the change started (RFC 3339)."),
			"status":                 dsString("`PENDING`, `PROCESSING`, `COMPLETED` or `FAILED`; null when the domain never changed."),
			"total_number_of_stages": dsInt64("Number of stages of the change."),
			"validation_failures":    validationFailuresSchema("change"),
		},
	}
}

func (d *changeProgressDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients = conns.From(req.ProviderData, &resp.Diagnostics)
}

func (d *changeProgressDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m changeProgressDataSourceModel
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	domain, changeID := m.DomainName.ValueString(), m.ChangeID.ValueString()
	p, err := d.clients.Search.DescribeDomainChangeProgress(ctx, domain, changeID)
	if err != nil {
		d.readError(ctx, &resp.Diagnostics, domain, changeID, err)
		return
	}
	flattenChangeProgress(p, &m)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, &m)...)
}

// readError turns a failed read into a diagnostic on the input to blame.
func (d *changeProgressDataSource) readError(ctx context.Context, diags *diag.Diagnostics, domain, changeID string, err error) {
	switch {
	case !errors.Is(err, client.ErrNotFound):
		what := fmt.Sprintf("the most recent change of domain %q", domain)
		if changeID != "" {
			what = fmt.Sprintf("change %s of domain %q", changeID, domain)
		}
		diagnostics.AddReadError(diags, changeProgressReadSummary, what, err)
	case changeID == "":
		// Without an id only the domain can be missing.
		diagnostics.AddSearchDomainMissing(diags, changeProgressReadSummary, domain, d.clients.Region, err)
	default:
		dsNotFound(ctx, d.clients.Search, diags, diagnostics.SearchLookup{
			Summary: changeProgressReadSummary, Domain: domain, Region: d.clients.Region,
			Thing: "change", ID: changeID, IDAttribute: "change_id",
			Use: "Use the change_id attribute of cloud_search_domain_config, or omit change_id to read the domain's most recent change.",
		}, err)
	}
}

// flattenChangeProgress copies the answer into the model. Lists are empty,
// never null; the service's absent scalars stay null. change_id keeps the
// configured value when one was given.
func flattenChangeProgress(p *searchclient.ChangeProgressStatus, m *changeProgressDataSourceModel) {
	if m.ChangeID.IsNull() || m.ChangeID.IsUnknown() {
		m.ChangeID = types.StringPointerValue(p.ChangeId)
	}
	m.AcceptedWarnings = append([]string{}, p.AcceptedWarnings...)
	m.CompletedProperties = append([]string{}, p.CompletedProperties...)
	m.PendingProperties = append([]string{}, p.PendingProperties...)
	m.ChangeProgressStages = make([]changeProgressStageModel, 0, len(p.ChangeProgressStages))
	for _, s := range p.ChangeProgressStages {
		m.ChangeProgressStages = append(m.ChangeProgressStages, changeProgressStageModel{
			Description: s.Description, LastUpdated: epochString(s.LastUpdated), Name: s.Name, Status: s.Status,
		})
	}
	m.ConfigChangeStatus, m.InitiatedBy, m.Status = p.ConfigChangeStatus, p.InitiatedBy, p.Status
	m.LastUpdatedTime, m.StartTime = epochString(p.LastUpdatedTime), epochString(p.StartTime)
	m.TotalNumberOfStages = p.TotalNumberOfStages
	m.ValidationFailures = flattenValidationFailures(p.ValidationFailures)
}

// epochString is a wire timestamp as the provider shows it, nil when there
// is none.
func epochString(p *searchclient.EpochSeconds) *string {
	if p == nil || math.IsNaN(float64(*p)) {
		return nil
	}
	s := p.Text()
	return &s
}
