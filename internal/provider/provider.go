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
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
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
	EnvTokenFile    = "CLOUD_WEB_IDENTITY_TOKEN_FILE" //nolint:gosec // G101: a variable's name, not a credential
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
)

// endpointURL validates an endpoint at validate time.
var endpointURL = validators.HTTPURL("Invalid Endpoint", func(p path.Path, value string, problem error) string {
	return fmt.Sprintf("The endpoint %s = %q %s. Use a URL such as http://127.0.0.1:8080.", p, value, problem)
})

// httpTimeout is http_timeout: a duration from 1ms to 1h.
var httpTimeout = validators.Duration{
	Min: time.Millisecond, Max: time.Hour,
	Desc:        "must be a duration between 1ms and 1h, such as 30s",
	Summary:     "Invalid HTTP Timeout",
	NotDuration: "The HTTP timeout %q is not a duration; use a number with a unit, such as 30s or 2m.",
	OutOfRange:  "The HTTP timeout %q must be between 1ms and 1h.",
}

// New returns the provider factory for a version.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &cloudProvider{version: version}
	}
}

type cloudProvider struct {
	version string
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
	endpoint := func(svc, def string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: fmt.Sprintf("Base URL of the %s service. Defaults to `%s`, or to `CLOUD_ENDPOINT_URL` when that is set.", svc, def),
			Validators:          []validator.String{endpointURL},
		}
	}
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
			"endpoints": schema.SingleNestedAttribute{
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
			},
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
		},
		Blocks: map[string]schema.Block{},
	}
	addCredentialSchema(&resp.Schema)
}

func (p *cloudProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Endpoints == nil {
		cfg.Endpoints = &endpoints{}
	}
	unknown := map[string]types.String{
		"region": cfg.Region, "access_key": cfg.AccessKey, "secret_key": cfg.SecretKey, "session_token": cfg.SessionToken,
		"session_expiration": cfg.SessionExp,
		"profile":            cfg.Profile,
	}
	for name, v := range unknown {
		if v.IsUnknown() {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Unknown Provider Setting",
				fmt.Sprintf("The provider cannot be configured while %s is unknown. Set it to a value known at plan time, or apply its source first with -target.", name))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	region := setting(cfg.Region, EnvRegion)
	switch {
	case region == "":
		resp.Diagnostics.AddAttributeError(path.Root("region"), "Missing Region",
			"The provider needs a region. Set region in the provider block or the "+EnvRegion+" environment variable, for example us-east-1.")
	case !validators.RegionPattern.MatchString(region):
		resp.Diagnostics.AddAttributeError(path.Root("region"), "Invalid Region",
			fmt.Sprintf("The region %q (from %s) is not a region name such as us-east-1.", region, source(cfg.Region, EnvRegion)))
	}
	common := os.Getenv(EnvEndpointURL)
	resolve := func(attr string, v types.String, def string) string {
		u, from := v.ValueString(), "endpoints."+attr
		if u == "" && common != "" {
			u, from = common, EnvEndpointURL
		}
		if u == "" {
			return def
		}
		if err := validators.CheckURL(u); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("endpoints").AtName(attr), "Invalid Endpoint",
				fmt.Sprintf("The %s endpoint %q (from %s) %s. Use a URL such as https://%s.us-east-1.cloud.example or http://127.0.0.1:8080.", attr, u, from, err, attr))
		}
		return u
	}
	eps := conns.Endpoints{
		Identity: resolve("identity", cfg.Endpoints.Identity, "https://identity."+region+".cloud.example"),
		Search:   resolve("search", cfg.Endpoints.Search, "https://search."+region+".cloud.example"),
		Models:   resolve("models", cfg.Endpoints.Models, "https://runtime.models."+region+".cloud.example"),
	}
	stsDefault, stsFrom := "https://sts."+region+".cloud.example", "the default for region "+region
	if id := cfg.Endpoints.Identity.ValueString(); id != "" {
		stsDefault, stsFrom = id, "endpoints.identity"
	}
	eps.STS = resolve("sts", cfg.Endpoints.STS, stsDefault)
	switch {
	case cfg.Endpoints.STS.ValueString() != "":
		stsFrom = "endpoints.sts"
	case common != "":
		stsFrom = EnvEndpointURL
	}
	retries := client.DefaultMaxRetries
	if !cfg.MaxRetries.IsNull() && !cfg.MaxRetries.IsUnknown() {
		retries = int(cfg.MaxRetries.ValueInt64())
	}
	attemptTimeout := client.DefaultAttemptTimeout
	if v := cfg.HTTPTimeout.ValueString(); v != "" {
		d, summary, detail := httpTimeout.Parse(v)
		if detail != "" {
			resp.Diagnostics.AddAttributeError(path.Root("http_timeout"), summary, detail)
			return
		}
		attemptTimeout = d
	}
	ccfg := client.Config{
		Region:         region,
		MaxRetries:     retries,
		AttemptTimeout: attemptTimeout,
		UserAgent:      fmt.Sprintf("terraform-provider-cloud/%s Terraform/%s", p.version, req.TerraformVersion),
	}
	creds := p.credentials(ctx, &cfg, ccfg, eps.STS, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ccfg.CredentialsProvider = creds.provider
	// Checked here, at each Configure (once per plan, once per apply), so
	// that a wrong secret or an unreachable endpoint is one clear error
	// rather than one per resource; the credentials
	// found also sign locally (the short-term API key).
	current, callerArn, ok := checkCredentials(ctx, creds, cfg.SkipCredentialsValidation.ValueBool(), eps.STS, stsFrom, &resp.Diagnostics)
	if !ok {
		return
	}
	ccfg.Credentials = current
	idc, err := identityclient.New(ccfg, eps.Identity)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("endpoints").AtName("identity"), "Invalid Endpoint", err.Error())
		return
	}
	sc, err := searchclient.New(ccfg, eps.Search)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("endpoints").AtName("search"), "Invalid Endpoint", err.Error())
		return
	}
	clients := &conns.Clients{Region: region, Config: ccfg, Endpoints: eps, Identity: idc, Search: sc, Caller: creds.caller(callerArn)}
	tflog.Debug(ctx, "Provider configured", map[string]any{
		"region": region, "credentials": creds.source, "sts_endpoint": eps.STS, "identity_endpoint": eps.Identity, "search_endpoint": eps.Search, "models_endpoint": eps.Models, "max_retries": retries, "http_timeout": attemptTimeout.String(),
	})
	resp.DataSourceData = clients
	resp.ResourceData = clients
	resp.EphemeralResourceData = clients
}

func (p *cloudProvider) Resources(context.Context) []func() resource.Resource {
	return append(identity.Resources(), search.Resources()...)
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
