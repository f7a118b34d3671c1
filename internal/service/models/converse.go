package models

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// converseModel is the data source's and the ephemeral resource's shape.
type converseModel struct {
	ModelID      types.String `tfsdk:"model_id"`
	Prompt       types.String `tfsdk:"prompt"`
	APIKey       types.String `tfsdk:"api_key"`
	Region       types.String `tfsdk:"region"`
	RuntimeURL   types.String `tfsdk:"runtime_url"`
	Text         types.String `tfsdk:"text"`
	StopReason   types.String `tfsdk:"stop_reason"`
	InputTokens  types.Int64  `tfsdk:"input_tokens"`
	OutputTokens types.Int64  `tfsdk:"output_tokens"`
	TotalTokens  types.Int64  `tfsdk:"total_tokens"`
}

// converseAttribute is an attribute of both converse types. The data
// source's and the ephemeral resource's schemas are types of two packages,
// so each makes its own from this one table.
type converseAttribute struct {
	name, desc                              string
	required, optional, computed, sensitive bool
	int64                                   bool // else a string
	validators                              []validator.String
}

// converseAttributes are the attributes of both converse types.
func converseAttributes() []converseAttribute {
	return []converseAttribute{
		{name: "model_id", required: true, desc: "Identifier of a model or an inference profile, such as `anthropic.claude-v2`.", validators: validators.StringRule(rules.ModelID)},
		{name: "prompt", required: true, desc: "The user text sent as the only message.", validators: validators.StringRule(rules.MessageText)},
		{name: "api_key", optional: true, sensitive: true, validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			desc: "The API key sent as `Authorization: Bearer`: a long-term key (`cloud_identity_service_specific_credential.service_api_key_value`) or a short-term key (`cloud_models_short_term_api_key`). Falls back to the `CLOUD_BEARER_TOKEN_MODELS` environment variable."}, //nolint:gosec // a description, not a credential
		{name: "region", optional: true, computed: true, validators: []validator.String{validators.Region(), stringvalidator.ConflictsWith(path.MatchRoot("runtime_url"))},
			desc: "Region whose runtime is called. Defaults to the provider's region. A long-term key works only in the region it was created in. Conflicts with `runtime_url`."},
		{name: "runtime_url", optional: true, computed: true, validators: []validator.String{runtimeURL},
			desc: "Runtime base URL used as is, such as `https://runtime.models.us-east-1.cloud.example`. Defaults to `https://runtime.models.<region>.cloud.example`, or, when the provider's `endpoints.models` is set (such as the emulator's), `<endpoints.models>/region/<region>`."},
		{name: "text", computed: true, desc: "The model's answer (its text blocks joined)."},
		{name: "stop_reason", computed: true, desc: "Why the model stopped, such as `end_turn`."},
		{name: "input_tokens", computed: true, int64: true, desc: "Input tokens counted by the runtime."},
		{name: "output_tokens", computed: true, int64: true, desc: "Output tokens counted by the runtime."},
		{name: "total_tokens", computed: true, int64: true, desc: "Input plus output tokens."},
	}
}

// converseSchema makes the attributes of one converse type from the table,
// with that type's constructors of a string and a whole-number attribute.
func converseSchema[A any](str, whole func(converseAttribute) A) map[string]A {
	attrs := map[string]A{}
	for _, a := range converseAttributes() {
		if a.int64 {
			attrs[a.name] = whole(a)
			continue
		}
		attrs[a.name] = str(a)
	}
	return attrs
}

// converseInto reads the configuration, calls the runtime and writes the
// result to out (the data source's state, the ephemeral result).
func converseInto(ctx context.Context, c *conns.Clients, config tfsdk.Config, out tfmodel.Setter) diag.Diagnostics {
	var m converseModel
	diags := tfmodel.Get(ctx, config, &m)
	if diags.HasError() {
		return diags
	}
	diags.Append(converse(ctx, c, &m, "Call Model Runtime")...)
	if diags.HasError() {
		return diags
	}
	diags.Append(tfmodel.Set(ctx, out, &m)...)
	return diags
}

// converse calls the runtime for m and fills its outputs. Diagnostics name
// the runtime's own words and never the key.
func converse(ctx context.Context, c *conns.Clients, m *converseModel, action string) diag.Diagnostics {
	var diags diag.Diagnostics
	key := m.APIKey.ValueString()
	if key == "" {
		key = os.Getenv(modelsclient.EnvBearerToken)
	}
	if key == "" {
		diags.AddAttributeError(path.Root("api_key"), "Missing API Key",
			"Calling the model runtime needs an API key. Set api_key, or the "+modelsclient.EnvBearerToken+" environment variable.")
		return diags
	}
	region := m.Region.ValueString()
	if region == "" {
		region = c.Region
	}
	runtimeURL := m.RuntimeURL.ValueString()
	if runtimeURL == "" {
		runtimeURL = RuntimeURL(c, region)
	}
	rc, err := modelsclient.New(c.Config, runtimeURL)
	if err != nil {
		diags.AddAttributeError(path.Root("runtime_url"), "Invalid Runtime URL",
			fmt.Sprintf("The runtime URL %q is not usable. Set runtime_url to an http(s) URL. Error: %s", runtimeURL, err))
		return diags
	}
	out, err := rc.Converse(ctx, key, m.ModelID.ValueString(), m.Prompt.ValueString())
	if err != nil {
		diags.AddError("Unable to "+action, fmt.Sprintf("The model runtime at %s refused or failed the call to model %q. %s Error: %s",
			runtimeURL, m.ModelID.ValueString(), diagnostics.RuntimeRemedy(err).Text, client.Redact(err.Error())))
		return diags
	}
	m.Region = types.StringValue(region)
	m.RuntimeURL = types.StringValue(runtimeURL)
	m.Text = types.StringValue(out.Text())
	m.StopReason = types.StringValue(out.StopReason)
	m.InputTokens = types.Int64Value(out.Usage.InputTokens)
	m.OutputTokens = types.Int64Value(out.Usage.OutputTokens)
	m.TotalTokens = types.Int64Value(out.Usage.TotalTokens)
	return diags
}
