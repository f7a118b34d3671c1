// Package provider is the cloud provider: its configuration and the list of
// types it serves.
package provider

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/fanout"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// Environment variables the provider reads when a setting is not in its
// configuration.
const (
	EnvRegion       = "CLOUD_REGION"
	EnvAccessKeyID  = "CLOUD_ACCESS_KEY_ID"
	EnvSecretKey    = "CLOUD_SECRET_ACCESS_KEY"
	EnvSessionToken = "CLOUD_SESSION_TOKEN"
	EnvEndpointURL  = "CLOUD_ENDPOINT_URL"
	EnvProfile      = "CLOUD_PROFILE"
	EnvConfigFile   = "CLOUD_CONFIG_FILE"
	EnvCredsFile    = "CLOUD_SHARED_CREDENTIALS_FILE" //nolint:gosec // G101: a variable's name, not a credential
	EnvRoleARN      = "CLOUD_ROLE_ARN"
	// EnvApplyPrincipalARN names the principal that applies (a CI's apply
	// role), when another one plans.
	EnvApplyPrincipalARN = "CLOUD_APPLY_PRINCIPAL_ARN"
	EnvTokenFile         = "CLOUD_WEB_IDENTITY_TOKEN_FILE" //nolint:gosec // G101: a variable's name, not a credential
	// EnvTFCToken is where HCP Terraform puts a workload identity token
	// when a workspace sets TFC_WORKLOAD_IDENTITY_AUDIENCE.
	EnvTFCToken = "TFC_WORKLOAD_IDENTITY_TOKEN" //nolint:gosec // G101: a variable's name, not a credential
	// EnvSessionExpiration is when temporary credentials expire (RFC 3339),
	// as AWS_CREDENTIAL_EXPIRATION is for the AWS CLI's exported
	// credentials: a session token alone does not say.
	EnvSessionExpiration = "CLOUD_SESSION_EXPIRATION"
)

var (
	_ provider.Provider                       = (*cloudProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*cloudProvider)(nil)
	_ provider.ProviderWithListResources      = (*cloudProvider)(nil)
)

// endpointURL validates an endpoint at validate time.
var endpointURL = validators.HTTPURL("Invalid Endpoint", func(p path.Path, value string, problem error) string {
	return fmt.Sprintf("The endpoint %s = %q %s. Use a URL such as http://127.0.0.1:8080.", p, value, problem)
})

// httpTimeout is http_timeout: a duration from 1ms to 1h.
var httpTimeout = validators.Duration{
	Min: time.Millisecond, Max: time.Hour,
	Desc:    "must be a duration between 1ms and 1h, such as 30s",
	Summary: "Invalid HTTP Timeout",
	NotDuration: func(v string) string {
		return fmt.Sprintf("The HTTP timeout %q is not a duration; use a number with a unit, such as 30s or 2m.", v)
	},
	OutOfRange: func(v string) string { return fmt.Sprintf("The HTTP timeout %q must be between 1ms and 1h.", v) },
}

// New returns the provider factory for a version, for the provider
// Terraform starts in its working directory.
func New(version string) func() provider.Provider {
	return NewInDir(version, terraformDataDir())
}

// NewInDir is New for a provider served in a process that does not run in
// Terraform's working directory (a test's): dataDir is that directory's
// Terraform data directory, "" for none.
func NewInDir(version, dataDir string) func() provider.Provider {
	return func() provider.Provider {
		return &cloudProvider{version: version, dataDir: dataDir}
	}
}

// maxListConcurrency bounds list_concurrency: more calls at once than this
// would mostly be throttled by the service.
const maxListConcurrency = 100

type cloudProvider struct {
	version string
	dataDir string
}

type providerModel struct {
	Region       types.String      `tfsdk:"region"`
	AccessKey    types.String      `tfsdk:"access_key"`
	SecretKey    types.String      `tfsdk:"secret_key"`
	SessionToken types.String      `tfsdk:"session_token"`
	SessionExp   types.String      `tfsdk:"session_expiration"`
	Endpoints    *endpoints        `tfsdk:"endpoints"`
	MaxRetries   customtypes.Int64 `tfsdk:"max_retries"`
	HTTPTimeout  types.String      `tfsdk:"http_timeout"`
	// ListConcurrency is list_concurrency.
	ListConcurrency types.Int64 `tfsdk:"list_concurrency"`
	// ApplyPrincipal is apply_principal_arn.
	ApplyPrincipal types.String `tfsdk:"apply_principal_arn"`

	Profile                   types.String      `tfsdk:"profile"`
	SharedConfigFiles         types.List        `tfsdk:"shared_config_files"`
	SharedCredentialsFiles    types.List        `tfsdk:"shared_credentials_files"`
	SkipCredentialsValidation types.Bool        `tfsdk:"skip_credentials_validation"`
	AssumeRole                *assumeRoleModel  `tfsdk:"assume_role"`
	WebIdentity               *webIdentityModel `tfsdk:"assume_role_with_web_identity"`
}

type endpoints struct {
	Identity types.String `tfsdk:"identity"`
	Search   types.String `tfsdk:"search"`
	Models   types.String `tfsdk:"models"`
	STS      types.String `tfsdk:"sts"`
}

func (p *cloudProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "cloud"
	resp.Version = p.version
}

func (p *cloudProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The cloud provider manages long-term and short-term API keys of the model runtime service and the configuration of search domains, with a dry run of every domain change at plan time.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Region to sign requests for and to create keys in, such as `us-east-1`. Falls back to `CLOUD_REGION`. Required one way or the other.",
				Validators:          []validator.String{validators.Region()},
			},
			"access_key": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Access key id. Falls back to `CLOUD_ACCESS_KEY_ID`.",
				Validators:          []validator.String{stringvalidator.LengthBetween(16, 128)},
			},
			"secret_key": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "Secret access key. Falls back to `CLOUD_SECRET_ACCESS_KEY`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"session_token": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "Session token of temporary credentials. Falls back to `CLOUD_SESSION_TOKEN`.",
			},
			"session_expiration": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "When the temporary credentials of `session_token` expire (RFC 3339, such as `2026-01-02T15:04:05Z`), as the token service returned it. " +
					"Falls back to `CLOUD_SESSION_EXPIRATION`. A short-term API key never outlives the session that made it: with this set, `cloud_models_short_term_api_key` " +
					"ends at the session's expiry when that comes before `expires_in`; without it the provider cannot know the session's end.",
			},
			"endpoints": endpointsAttribute(),
			"max_retries": schema.Int64Attribute{
				CustomType:          customtypes.Int64Type{},
				Optional:            true,
				MarkdownDescription: fmt.Sprintf("How many times a throttled, failed (5xx) or unanswered request is retried, with jittered exponential backoff. Defaults to %d. A request that is not safe to repeat is never retried once it may have reached the service.", client.DefaultMaxRetries),
				Validators:          []validator.Int64{int64validator.Between(0, 25)},
			},
			"http_timeout": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: fmt.Sprintf("How long one attempt of a request may take (connect, send, answer), as a duration such as `30s` or `2m`, between 1ms and 1h. Defaults to `%s`. An attempt that runs out is retried like a dropped connection, within `max_retries`.", client.DefaultAttemptTimeout),
				Validators:          []validator.String{httpTimeout},
			},
			"list_concurrency": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("How many calls one list resource of `terraform query` makes at once when it reads what each user holds (or each search domain's configuration): its per-user or per-domain calls run side by side, this many at a time, "+
					"and their results still come in the order of the users (or domains). Defaults to %d, Terraform's own parallelism. A throttled call is retried as `max_retries` says. Between 1 and %d.", fanout.DefaultWidth, maxListConcurrency),
				Validators: []validator.Int64{int64validator.Between(1, maxListConcurrency)},
			},
			"apply_principal_arn": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The principal that will apply the plan, when another one plans it: a CI whose pull requests plan under a read-only role and whose merges apply under a role that may write " +
					"(see the *CI with OIDC* guide). The plan-time permission check of a new `cloud_identity_service_specific_credential` asks the identity service about this principal " +
					"(the plan role needs `identity:SimulatePrincipalPolicy` on it) instead of the one the provider runs as. Falls back to `CLOUD_APPLY_PRINCIPAL_ARN`; defaults to the caller. " +
					"A user or role ARN, such as `arn:cloud:identity::123456789012:role/terraform-apply`.",
				Validators: []validator.String{validators.LazyRegexMatches(principalARNRe,
					"must be the ARN of an identity-service user or role, such as arn:cloud:identity::123456789012:role/terraform-apply")},
			},
		},
		Blocks: map[string]schema.Block{},
	}
	addCredentialSchema(&resp.Schema)
}

// endpointsAttribute is the endpoints block of custom service URLs.
func endpointsAttribute() schema.SingleNestedAttribute {
	endpoint := func(svc, def string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: fmt.Sprintf("Base URL of the %s service. Defaults to `%s`, or to `CLOUD_ENDPOINT_URL` when that is set.", svc, def),
			Validators:          []validator.String{endpointURL},
		}
	}
	return schema.SingleNestedAttribute{
		Optional:            true,
		MarkdownDescription: "Custom service endpoints, such as the local emulator's. `CLOUD_ENDPOINT_URL` sets all four at once.",
		Attributes: map[string]schema.Attribute{
			"identity": endpoint("identity", "https://identity.<region>.cloud.example"),
			"search":   endpoint("search domain", "https://search.<region>.cloud.example"),
			"models":   endpoint("model runtime", "https://runtime.models.<region>.cloud.example"),
			"sts": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Base URL of the token service (AssumeRole, AssumeRoleWithWebIdentity, GetCallerIdentity). Defaults to `CLOUD_ENDPOINT_URL` when that is set, else to `endpoints.identity` when that is set (a private deployment or the emulator serves both), else to `https://sts.<region>.cloud.example`.",
				Validators:          []validator.String{endpointURL},
			},
		},
	}
}

func (p *cloudProvider) Resources(context.Context) []func() resource.Resource {
	return append(identity.Resources(), search.Resources()...)
}

func (p *cloudProvider) ListResources(context.Context) []func() list.ListResource {
	return append(identity.ListResources(), search.ListResources()...)
}

func (p *cloudProvider) DataSources(context.Context) []func() datasource.DataSource {
	return append(search.DataSources(), models.DataSources()...)
}

func (p *cloudProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return models.EphemeralResources()
}

// setting is the configured value, else the environment variable's.
func setting(v types.String, env string) string {
	if s := v.ValueString(); s != "" {
		return s
	}
	return os.Getenv(env)
}

func source(v types.String, env string) string {
	if v.ValueString() != "" {
		return "the provider block"
	}
	return env
}
