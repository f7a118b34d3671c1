package models

import (
	"context"
	"fmt"
	"os"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
)

var modelIDRe = regexp.MustCompile(`^[A-Za-z0-9._:/+-]+$`)

// Limits checked at validate time.
const (
	maxModelIDLen = 2048
	maxPromptLen  = 100000
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

// Attribute descriptions shared by both types.
const (
	descModelID    = "Identifier of a model or an inference profile, such as `anthropic.claude-v2`."
	descPrompt     = "The user text sent as the only message."
	descAPIKey     = "The API key sent as `Authorization: Bearer`: a long-term key (`cloud_identity_service_specific_credential.service_api_key_value`) or a short-term key (`cloud_models_short_term_api_key`). Falls back to the `CLOUD_BEARER_TOKEN_MODELS` environment variable." //nolint:gosec // a description, not a credential
	descRegion     = "Region whose runtime is called. Defaults to the provider's region. A long-term key works only in the region it was created in. Conflicts with `runtime_url`."
	descRuntimeURL = "Runtime base URL used as is, such as `https://runtime.models.us-east-1.cloud.example`. Defaults to `https://runtime.models.<region>.cloud.example`, or, when the provider's `endpoints.models` is set (such as the emulator's), `<endpoints.models>/region/<region>`."
	descText       = "The model's answer (its text blocks joined)."
	descStop       = "Why the model stopped, such as `end_turn`."
	descIn         = "Input tokens counted by the runtime."
	descOut        = "Output tokens counted by the runtime."
	descTotal      = "Input plus output tokens."
)

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
			runtimeURL, m.ModelID.ValueString(), diagnostics.RuntimeRemedies.For(err).Text, client.Redact(err.Error())))
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
