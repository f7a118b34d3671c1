package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/fanout"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// Configure turns the provider block and the environment into the clients
// every type uses. The settings are resolved first and all their errors
// reported together; then the credentials are found and checked once, so
// that a wrong secret or an unreachable endpoint is one clear error rather
// than one per resource.
func (p *cloudProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	diags := &resp.Diagnostics
	cfg, ok := readConfig(ctx, req.Config, diags)
	if !ok {
		return
	}
	region := resolveRegion(cfg, diags)
	eps, stsFrom := resolveEndpoints(cfg, region, diags)
	ccfg, ok := p.clientConfig(cfg, region, req.TerraformVersion, diags)
	if !ok {
		return
	}
	applyPrincipal, ok := resolveApplyPrincipal(cfg, diags)
	if !ok {
		return
	}
	creds := p.credentials(ctx, &cfg, ccfg, eps.STS, diags)
	if diags.HasError() {
		return
	}
	ccfg.CredentialsProvider = creds.provider
	// The credentials found also sign locally (the short-term API key).
	current, callerArn, ok := creds.check(ctx, cfg.SkipCredentialsValidation.ValueBool(), eps.STS, stsFrom, diags)
	if !ok {
		return
	}
	ccfg.Credentials = current
	clients, ok := newClients(ccfg, eps, creds.caller(callerArn), diags)
	if !ok {
		return
	}
	clients.ApplyPrincipal = applyPrincipal
	clients.ListConcurrency = fanout.DefaultWidth
	if !cfg.ListConcurrency.IsNull() && !cfg.ListConcurrency.IsUnknown() {
		clients.ListConcurrency = int(cfg.ListConcurrency.ValueInt64())
	}
	clients.DataDir = p.dataDir
	tflog.Debug(ctx, "Provider configured", map[string]any{
		"region": region, "credentials": creds.source, "sts_endpoint": eps.STS, "identity_endpoint": eps.Identity, "search_endpoint": eps.Search, "models_endpoint": eps.Models, "max_retries": ccfg.MaxRetries, "http_timeout": ccfg.AttemptTimeout.String(), "list_concurrency": clients.ListConcurrency,
	})
	resp.DataSourceData = clients
	resp.ResourceData = clients
	resp.EphemeralResourceData = clients
	resp.ListResourceData = clients
}

// readConfig reads the provider block. A setting unknown at plan time
// (from a resource not yet applied) cannot configure the provider.
func readConfig(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) (providerModel, bool) {
	var cfg providerModel
	diags.Append(config.Get(ctx, &cfg)...)
	if diags.HasError() {
		return cfg, false
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
			diags.AddAttributeError(path.Root(name), "Unknown Provider Setting",
				fmt.Sprintf("The provider cannot be configured while %s is unknown. Set it to a value known at plan time, or apply its source first with -target.", name))
		}
	}
	return cfg, !diags.HasError()
}

// resolveRegion is region, else CLOUD_REGION; either must name a region.
func resolveRegion(cfg providerModel, diags *diag.Diagnostics) string {
	region := setting(cfg.Region, EnvRegion)
	switch {
	case region == "":
		diags.AddAttributeError(path.Root("region"), "Missing Region",
			"The provider needs a region. Set region in the provider block or the "+EnvRegion+" environment variable, for example us-east-1.")
	case !rules.Region.MatchString(region):
		diags.AddAttributeError(path.Root("region"), "Invalid Region",
			fmt.Sprintf("The region %q (from %s) is not a region name such as us-east-1.", region, source(cfg.Region, EnvRegion)))
	}
	return region
}

// resolveApplyPrincipal is apply_principal_arn, else
// CLOUD_APPLY_PRINCIPAL_ARN (checked as the attribute is), else "".
func resolveApplyPrincipal(cfg providerModel, diags *diag.Diagnostics) (string, bool) {
	if cfg.ApplyPrincipal.IsUnknown() {
		diags.AddAttributeError(path.Root("apply_principal_arn"), "Unknown Provider Setting",
			"The provider cannot be configured while apply_principal_arn is unknown. Set it to a value known at plan time.")
		return "", false
	}
	arn := setting(cfg.ApplyPrincipal, EnvApplyPrincipalARN)
	if arn != "" && !principalARNRe().MatchString(arn) {
		diags.AddAttributeError(path.Root("apply_principal_arn"), "Invalid Apply Principal",
			fmt.Sprintf("%s = %q is not the ARN of an identity-service user or role, such as arn:cloud:identity::123456789012:role/terraform-apply.", EnvApplyPrincipalARN, arn))
		return "", false
	}
	if seg := badPathSegment(arn); arn != "" && seg != "" {
		diags.AddAttributeError(path.Root("apply_principal_arn"), "Invalid Apply Principal",
			fmt.Sprintf("%s = %q has the path segment %q: an ARN names a principal by its path and name as they are, with no segment resolved, so this one names no principal "+
				"(role/../../user/x is not user x). Give the ARN of the user or role that applies, such as arn:cloud:identity::123456789012:role/terraform-apply.", EnvApplyPrincipalARN, arn, seg))
		return "", false
	}
	return arn, true
}

// badPathSegment is the first segment of a principal ARN's path and name
// that cannot be part of one ("", "." or ".."); "" when there is none.
func badPathSegment(arn string) string {
	_, rest, ok := strings.Cut(arn, ":role/")
	if !ok {
		_, rest, _ = strings.Cut(arn, ":user/")
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" || seg == "." || seg == ".." {
			if seg == "" {
				return "//"
			}
			return seg
		}
	}
	return ""
}

// resolveEndpoints is each service's base URL: endpoints.<service>, else
// CLOUD_ENDPOINT_URL, else the region's default. The token service's
// default is endpoints.identity when that is set (a private deployment or
// the emulator serves both). stsFrom names where its URL came from.
func resolveEndpoints(cfg providerModel, region string, diags *diag.Diagnostics) (eps conns.Endpoints, stsFrom string) {
	r := endpointResolver{common: os.Getenv(EnvEndpointURL), diags: diags}
	eps = conns.Endpoints{
		Identity: r.resolve("identity", cfg.Endpoints.Identity, "https://identity."+region+".cloud.example"),
		Search:   r.resolve("search", cfg.Endpoints.Search, "https://search."+region+".cloud.example"),
		Models:   r.resolve("models", cfg.Endpoints.Models, "https://runtime.models."+region+".cloud.example"),
	}
	stsDefault, stsFrom := "https://sts."+region+".cloud.example", "the default for region "+region
	if id := cfg.Endpoints.Identity.ValueString(); id != "" {
		stsDefault, stsFrom = id, "endpoints.identity"
	}
	eps.STS = r.resolve("sts", cfg.Endpoints.STS, stsDefault)
	switch {
	case cfg.Endpoints.STS.ValueString() != "":
		stsFrom = "endpoints.sts"
	case r.common != "":
		stsFrom = EnvEndpointURL
	}
	return eps, stsFrom
}

// endpointResolver resolves endpoints, reporting a URL that is not one on
// the attribute it stands for.
type endpointResolver struct {
	common string // CLOUD_ENDPOINT_URL
	diags  *diag.Diagnostics
}

func (r endpointResolver) resolve(attr string, v types.String, def string) string {
	u, from := v.ValueString(), "endpoints."+attr
	if u == "" && r.common != "" {
		u, from = r.common, EnvEndpointURL
	}
	if u == "" {
		return def
	}
	if err := validators.CheckURL(u); err != nil {
		r.diags.AddAttributeError(path.Root("endpoints").AtName(attr), "Invalid Endpoint",
			fmt.Sprintf("The %s endpoint %q (from %s) %s. Use a URL such as https://%s.us-east-1.cloud.example or http://127.0.0.1:8080.", attr, u, from, err, attr))
	}
	return u
}

// clientConfig is what every client is built from, but the credentials:
// the region, max_retries, http_timeout and the User-Agent.
func (p *cloudProvider) clientConfig(cfg providerModel, region, terraformVersion string, diags *diag.Diagnostics) (client.Config, bool) {
	retries := client.DefaultMaxRetries
	if !cfg.MaxRetries.IsNull() && !cfg.MaxRetries.IsUnknown() {
		retries = int(cfg.MaxRetries.ValueInt64())
	}
	attemptTimeout := client.DefaultAttemptTimeout
	if v := cfg.HTTPTimeout.ValueString(); v != "" {
		d, summary, detail := httpTimeout.Parse(v)
		if detail != "" {
			diags.AddAttributeError(path.Root("http_timeout"), summary, detail)
			return client.Config{}, false
		}
		attemptTimeout = d
	}
	return client.Config{
		Region:         region,
		MaxRetries:     retries,
		AttemptTimeout: attemptTimeout,
		UserAgent:      fmt.Sprintf("terraform-provider-cloud/%s Terraform/%s", p.version, terraformVersion),
	}, true
}

// newClients builds the service clients every type shares.
func newClients(ccfg client.Config, eps conns.Endpoints, caller *conns.Caller, diags *diag.Diagnostics) (*conns.Clients, bool) {
	idc, err := identityclient.New(ccfg, eps.Identity)
	if err != nil {
		diags.AddAttributeError(path.Root("endpoints").AtName("identity"), "Invalid Endpoint", err.Error())
		return nil, false
	}
	sc, err := searchclient.New(ccfg, eps.Search)
	if err != nil {
		diags.AddAttributeError(path.Root("endpoints").AtName("search"), "Invalid Endpoint", err.Error())
		return nil, false
	}
	return &conns.Clients{
		Region: ccfg.Region, Config: ccfg, Endpoints: eps, Caller: caller, PlanChecks: &conns.PlanChecks{}, CreatedUsers: &conns.CreatedUsers{}, Refreshed: &conns.Refreshed{}, CreatedKeys: &conns.CreatedKeys{},
		Simulations: conns.NewSimulations(idc.SimulatePrincipalPolicy), Listings: conns.NewListings(idc),
		Identity: idc, Search: sc, Tokens: modelsclient.NewTokenCache(modelsclient.MaxCachedTokens),
	}, true
}

// terraformDataDir is the working directory's Terraform data directory:
// Terraform starts the provider in the root module's directory (-chdir
// included) and passes its environment on.
func terraformDataDir() string {
	dir := os.Getenv("TF_DATA_DIR")
	if dir == "" {
		dir = ".terraform"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return abs
}
