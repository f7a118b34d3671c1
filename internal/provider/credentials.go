package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/auth"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

type assumeRoleModel struct {
	RoleARN     types.String `tfsdk:"role_arn"`
	SessionName types.String `tfsdk:"session_name"`
	Duration    types.String `tfsdk:"duration"`
	ExternalID  types.String `tfsdk:"external_id"`
}

type webIdentityModel struct {
	RoleARN     types.String `tfsdk:"role_arn"`
	SessionName types.String `tfsdk:"session_name"`
	Token       types.String `tfsdk:"web_identity_token"`
	TokenFile   types.String `tfsdk:"web_identity_token_file"`
}

// roleARNRe and principalARNRe (a user's or a role's ARN,
// apply_principal_arn) are compiled on first use: their {1,512} compiles
// into 512 copies of the character class, about 0.6 ms each, in every
// provider process (three for each plan), for settings most configurations
// leave out.
var (
	roleARNRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^arn:cloud:identity::\d{12}:role/[\w+=,.@/-]{1,512}$`)
	})
	principalARNRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^arn:cloud:identity::\d{12}:(role|user)/[\w+=,.@/-]{1,512}$`)
	})
)

// roleDuration is assume_role.duration: a role session's length the token
// service accepts (rules.RoleSessionSeconds).
var roleDuration = validators.Duration{
	Min: time.Duration(rules.RoleSessionSeconds.Range.Min) * time.Second, Max: time.Duration(rules.RoleSessionSeconds.Range.Max) * time.Second,
	Desc:    "must be a duration from 15m to 12h, such as 1h",
	Summary: "Invalid Role Session Duration",
	NotDuration: func(v string) string {
		return fmt.Sprintf("%q is not a duration; use a number with a unit, such as 1h or 90m.", v)
	},
	OutOfRange: func(v string) string { return fmt.Sprintf("%q must be between 15m and 12h.", v) },
}

// addCredentialSchema adds the credential sources beyond static keys.
func addCredentialSchema(s *schema.Schema) {
	s.Attributes["profile"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Profile of the shared config and credentials files to take credentials from. Falls back to `CLOUD_PROFILE`, then to `default` when no other credentials are found.",
		Validators:          []validator.String{stringvalidator.LengthBetween(1, 128)},
	}
	s.Attributes["shared_config_files"] = filesAttribute("config", EnvConfigFile, "~/.cloud/config")
	s.Attributes["shared_credentials_files"] = filesAttribute("credentials", EnvCredsFile, "~/.cloud/credentials")
	s.Attributes["skip_credentials_validation"] = schema.BoolAttribute{
		Optional:            true,
		MarkdownDescription: "Skip the `GetCallerIdentity` call with which the provider checks its credentials each time Terraform configures it (once per plan and once per apply). Defaults to `false`: with the check, a wrong secret, an expired token or an unreachable endpoint is one clear error instead of one per resource. When skipped, the plan of a new `cloud_identity_service_specific_credential` still makes one, to know who the provider runs as.",
	}
	s.Blocks["assume_role"] = assumeRoleBlock()
	s.Blocks["assume_role_with_web_identity"] = webIdentityBlock()
}

// roleARNAttribute is role_arn of a role block; only the web identity's
// falls back to CLOUD_ROLE_ARN.
func roleARNAttribute(required bool) schema.StringAttribute {
	desc := "ARN of the role, such as `arn:cloud:identity::123456789012:role/deploy`."
	if !required {
		desc += " Falls back to `CLOUD_ROLE_ARN`."
	}
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: desc,
		Validators:          []validator.String{validators.LazyRegexMatches(roleARNRe, "must be a role ARN such as arn:cloud:identity::123456789012:role/deploy")},
	}
}

// sessionNameAttribute is session_name of a role block.
func sessionNameAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Name of the role session, seen in the token service's answers and the caller identity. 2 to 64 characters of letters, digits and `+=,.@_-`. Defaults to `" + auth.DefaultSessionName + "`.",
		Validators:          validators.StringRule(rules.RoleSessionName),
	}
}

// filesAttribute is a list of shared files of what, else env, else def.
func filesAttribute(what, env, def string) schema.ListAttribute {
	return schema.ListAttribute{
		ElementType:         types.StringType,
		Optional:            true,
		MarkdownDescription: fmt.Sprintf("Paths of the shared %s files, read in order. Falls back to `%s` (one path), then to `%s`.", what, env, def),
		Validators: []validator.List{
			listvalidator.SizeAtLeast(1),
			listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
		},
	}
}

// assumeRoleBlock is the assume_role block.
func assumeRoleBlock() schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "Assume a role with the credentials found otherwise (keys, profile or web identity), and sign every request with the role session's temporary credentials, renewed before they expire.",
		Validators:          []validator.Object{objectvalidator.AlsoRequires(path.MatchRelative().AtName("role_arn"))},
		Attributes: map[string]schema.Attribute{
			"role_arn":     roleARNAttribute(true),
			"session_name": sessionNameAttribute(),
			"duration": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "How long each role session lasts, as a duration from `15m` to `12h`, within the role's maximum. Defaults to `1h`.",
				Validators:          []validator.String{roleDuration},
			},
			"external_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "External id the role's trust policy requires (`sts:ExternalId`), 2 to 1224 characters of letters, digits and `+=,.@:/_-`.",
				Validators:          validators.ASCIIStringRule(rules.ExternalID),
			},
		},
	}
}

// webIdentityBlock is the assume_role_with_web_identity block.
func webIdentityBlock() schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "Exchange an OpenID Connect token (GitHub Actions, HCP Terraform, any OIDC issuer registered with the identity service) for a role's temporary credentials. `CLOUD_ROLE_ARN` with `CLOUD_WEB_IDENTITY_TOKEN_FILE` does the same without this block.",
		Attributes: map[string]schema.Attribute{
			"role_arn":     roleARNAttribute(false),
			"session_name": sessionNameAttribute(),
			"web_identity_token": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "The OIDC token itself. Conflicts with `web_identity_token_file`.",
				Validators: append(validators.ASCIIStringRule(rules.WebIdentityToken),
					stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("web_identity_token_file"))),
			},
			"web_identity_token_file": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "File holding the OIDC token, read at every exchange (CI systems rewrite it). Falls back to `CLOUD_WEB_IDENTITY_TOKEN_FILE`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

// resolvedCredentials is where the provider's credentials come from.
type resolvedCredentials struct {
	provider aws.CredentialsProvider
	settings auth.Settings
	// source names the setting the base credentials came from, for messages.
	source string
	// keyID is the access key id signing the check, once known.
	keyID string
}

// credentials picks the base credentials, first that applies: keys in the
// provider block; the assume_role_with_web_identity block; profile in the
// provider block; CLOUD_ACCESS_KEY_ID with CLOUD_SECRET_ACCESS_KEY;
// CLOUD_ROLE_ARN with CLOUD_WEB_IDENTITY_TOKEN_FILE; the profile
// CLOUD_PROFILE, else "default", of the shared files. assume_role then
// takes a role with them. The token-service client sends, logs and retries
// as ccfg's clients do.
func (p *cloudProvider) credentials(ctx context.Context, cfg *providerModel, ccfg client.Config, stsEndpoint string, diags *diag.Diagnostics) resolvedCredentials {
	s := auth.Settings{
		Region: ccfg.Region, STSEndpoint: stsEndpoint,
		HTTPClient: ccfg.SDKHTTPClient("sts"), Retryer: ccfg.SDKRetryer(),
	}
	b := baseCredentials(ctx, cfg, diags)
	s.Static, s.WebIdentity, s.Profile = b.static, b.webIdentity, b.profile
	out := resolvedCredentials{source: b.source, keyID: b.keyID}
	var implicit *auth.Profile
	if b.implicit {
		implicit = b.profile
	}
	checkSessionExpirationSource(cfg, s, out.source, diags)
	s.AssumeRole = assumeRole(cfg.AssumeRole)
	if diags.HasError() {
		return out
	}
	prov, err := s.Provider(ctx)
	if err != nil {
		reportUnusableCredentials(err, cfg, implicit, out.source, diags)
		return out
	}
	out.provider, out.settings = prov, s
	return out
}

// baseSource is where the base credentials come from: one of static,
// webIdentity and profile, with the setting that named it.
type baseSource struct {
	static      *auth.Static
	webIdentity *auth.WebIdentity
	profile     *auth.Profile
	// source names the setting, for messages; keyID is the static keys'
	// access key id.
	source, keyID string
	// implicit: no source was set, profile is the "default" one.
	implicit bool
}

// baseCredentials finds the first source of base credentials that applies
// (see credentials).
func baseCredentials(ctx context.Context, cfg *providerModel, diags *diag.Diagnostics) baseSource {
	env := webIdentityEnv{role: os.Getenv(EnvRoleARN), tokenFile: os.Getenv(EnvTokenFile), tfcToken: os.Getenv(EnvTFCToken)}
	var b baseSource
	switch {
	case cfg.AccessKey.ValueString() != "" || cfg.SecretKey.ValueString() != "":
		b.static, b.keyID = staticCredentials(cfg, diags)
		b.source = "access_key and secret_key in the provider block"
	case cfg.WebIdentity != nil:
		b.webIdentity, b.source = env.withBlock(cfg.WebIdentity, diags), "the assume_role_with_web_identity block"
	case cfg.Profile.ValueString() != "":
		b.profile, b.source = sharedProfile(ctx, cfg, cfg.Profile.ValueString()), "profile in the provider block"
	case os.Getenv(EnvAccessKeyID) != "" || os.Getenv(EnvSecretKey) != "":
		b.static, b.keyID = staticCredentials(cfg, diags)
		b.source = EnvAccessKeyID + " and " + EnvSecretKey
	case env.role != "" || env.tokenFile != "":
		b.webIdentity, b.source = env.alone(diags)
	case os.Getenv(EnvProfile) != "":
		b.profile, b.source = sharedProfile(ctx, cfg, os.Getenv(EnvProfile)), EnvProfile
	default:
		b.profile, b.source = sharedProfile(ctx, cfg, "default"), `the shared files' "default" profile`
		b.implicit = true
	}
	return b
}

// staticCredentials are access_key and secret_key (each else its environment
// variable), with the session token and its expiry; both keys are needed.
func staticCredentials(cfg *providerModel, diags *diag.Diagnostics) (*auth.Static, string) {
	keyID, secret := setting(cfg.AccessKey, EnvAccessKeyID), setting(cfg.SecretKey, EnvSecretKey)
	if keyID == "" {
		diags.AddAttributeError(path.Root("access_key"), "Missing Access Key",
			"A secret key is set ("+source(cfg.SecretKey, EnvSecretKey)+") but no access key id. Set access_key in the provider block or the "+EnvAccessKeyID+" environment variable.")
	}
	if secret == "" {
		diags.AddAttributeError(path.Root("secret_key"), "Missing Secret Key",
			"An access key id is set ("+source(cfg.AccessKey, EnvAccessKeyID)+") but no secret key. Set secret_key in the provider block or the "+EnvSecretKey+" environment variable.")
	}
	st := &auth.Static{AccessKeyID: keyID, SecretAccessKey: secret, SessionToken: setting(cfg.SessionToken, EnvSessionToken)}
	st.Expires = sessionExpiration(cfg, st.SessionToken, diags)
	return st, keyID
}

// sharedProfile is the profile name of the shared config and credentials
// files.
func sharedProfile(ctx context.Context, cfg *providerModel, name string) *auth.Profile {
	return &auth.Profile{
		Name:             name,
		ConfigFiles:      fileList(ctx, cfg.SharedConfigFiles, EnvConfigFile, auth.DefaultConfigFiles()),
		CredentialsFiles: fileList(ctx, cfg.SharedCredentialsFiles, EnvCredsFile, auth.DefaultCredentialsFiles()),
	}
}

// webIdentityEnv is the web identity the environment gives: CLOUD_ROLE_ARN
// with CLOUD_WEB_IDENTITY_TOKEN_FILE, or HCP Terraform's token.
type webIdentityEnv struct{ role, tokenFile, tfcToken string }

// withBlock is the assume_role_with_web_identity block, its role and token
// else the environment's.
func (env webIdentityEnv) withBlock(w *webIdentityModel, diags *diag.Diagnostics) *auth.WebIdentity {
	wi := &auth.WebIdentity{RoleARN: w.RoleARN.ValueString(), SessionName: w.SessionName.ValueString(), Token: w.Token.ValueString(), TokenFile: w.TokenFile.ValueString()}
	if wi.RoleARN == "" {
		wi.RoleARN = env.role
	}
	if wi.Token == "" && wi.TokenFile == "" {
		wi.TokenFile = env.tokenFile
		if wi.TokenFile == "" {
			wi.Token = env.tfcToken
		}
	}
	at := path.Root("assume_role_with_web_identity")
	if wi.RoleARN == "" {
		diags.AddAttributeError(at.AtName("role_arn"), "Missing Role ARN",
			"assume_role_with_web_identity needs the role to assume: set role_arn in the block or the "+EnvRoleARN+" environment variable.")
	} else if !roleARNRe().MatchString(wi.RoleARN) {
		diags.AddAttributeError(at.AtName("role_arn"), "Invalid Role ARN",
			fmt.Sprintf("The role ARN %q (from %s) is not a role ARN such as arn:cloud:identity::123456789012:role/deploy.", wi.RoleARN, EnvRoleARN))
	}
	if wi.Token == "" && wi.TokenFile == "" {
		diags.AddAttributeError(at, "Missing Web Identity Token",
			"assume_role_with_web_identity needs the OIDC token: set web_identity_token or web_identity_token_file in the block, or the "+EnvTokenFile+" environment variable (HCP Terraform sets "+EnvTFCToken+" when the workspace sets TFC_WORKLOAD_IDENTITY_AUDIENCE).")
	}
	return wi
}

// alone is the environment's web identity without the block, and where it
// came from; the role and a token are both needed.
func (env webIdentityEnv) alone(diags *diag.Diagnostics) (*auth.WebIdentity, string) {
	if env.role == "" || (env.tokenFile == "" && env.tfcToken == "") {
		diags.AddError("Incomplete Web Identity Settings",
			fmt.Sprintf("Web identity from the environment needs both %s and %s (or HCP Terraform's %s); only one is set.", EnvRoleARN, EnvTokenFile, EnvTFCToken))
	}
	if env.tokenFile == "" {
		return &auth.WebIdentity{RoleARN: env.role, Token: env.tfcToken}, EnvRoleARN + " and " + EnvTFCToken
	}
	return &auth.WebIdentity{RoleARN: env.role, TokenFile: env.tokenFile}, EnvRoleARN + " and " + EnvTokenFile
}

// checkSessionExpirationSource refuses session_expiration with credentials
// other than static keys: it describes a session token given with keys;
// role sessions and profiles say their own expiry (or have none), so it
// would be ignored.
func checkSessionExpirationSource(cfg *providerModel, s auth.Settings, from string, diags *diag.Diagnostics) {
	if s.Static != nil || setting(cfg.SessionExp, EnvSessionExpiration) == "" {
		return
	}
	diags.AddAttributeError(path.Root("session_expiration"), "Session Expiration Without Static Keys",
		fmt.Sprintf("A session expiration (from %s) is the expiry of a session token given with access_key and secret_key (or %s and %s), but the credentials come from %s, which say their own expiry. Remove session_expiration (and unset %s).",
			source(cfg.SessionExp, EnvSessionExpiration), EnvAccessKeyID, EnvSecretKey, from, EnvSessionExpiration))
}

// assumeRole is the assume_role block, nil when absent.
func assumeRole(r *assumeRoleModel) *auth.AssumeRole {
	if r == nil {
		return nil
	}
	ar := &auth.AssumeRole{RoleARN: r.RoleARN.ValueString(), SessionName: r.SessionName.ValueString(), ExternalID: r.ExternalID.ValueString()}
	if d := r.Duration.ValueString(); d != "" {
		ar.Duration, _ = time.ParseDuration(d) // checked by the validator
	}
	return ar
}

// reportUnusableCredentials reports credentials that cannot be used: none
// found at all (the implicit "default" profile is not in the shared files),
// or a profile that is wrong.
func reportUnusableCredentials(err error, cfg *providerModel, implicit *auth.Profile, from string, diags *diag.Diagnostics) {
	var pe *auth.ProfileError
	if implicit != nil && errors.As(err, &pe) && pe.Reason == "is not in any of them" {
		files := strings.Join(append(append([]string{}, implicit.ConfigFiles...), implicit.CredentialsFiles...), ", ")
		if files == "" {
			files = "no file: the home directory is unknown"
		}
		diags.AddError("No Credentials Found",
			"The provider found no credentials. It looked, in order, at: access_key and secret_key in the provider block; the assume_role_with_web_identity block; profile in the provider block; the environment variables "+
				EnvAccessKeyID+" and "+EnvSecretKey+"; "+EnvRoleARN+" with "+EnvTokenFile+"; "+EnvProfile+"; and the \"default\" profile of the shared files ("+files+
				"). Set one of them: see Authentication on the provider's documentation page.")
		return
	}
	detail := client.Redact(fmt.Sprintf("The credentials from %s cannot be used: %s. Fix the profile or name another one.", from, err))
	if cfg.Profile.ValueString() == "" {
		diags.AddError("Invalid Profile", detail)
		return
	}
	diags.AddAttributeError(path.Root("profile"), "Invalid Profile", detail)
}

// sessionExpiration is session_expiration (or CLOUD_SESSION_EXPIRATION):
// when the static session token's session ends, zero when not set.
func sessionExpiration(cfg *providerModel, sessionToken string, diags *diag.Diagnostics) time.Time {
	v := setting(cfg.SessionExp, EnvSessionExpiration)
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, v)
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("session_expiration"), "Invalid Session Expiration",
			fmt.Sprintf("The session expiration %q (from %s) is not an RFC 3339 time such as 2026-01-02T15:04:05Z.", v, source(cfg.SessionExp, EnvSessionExpiration)))
	case sessionToken == "":
		diags.AddAttributeError(path.Root("session_expiration"), "Session Expiration Without Session Token",
			fmt.Sprintf("A session expiration (from %s) is the expiry of temporary credentials, but no session token is set. Set session_token (or %s) too, or remove the expiration.", source(cfg.SessionExp, EnvSessionExpiration), EnvSessionToken))
	}
	return t
}

// fileList is the configured list of files, else the one file of env,
// else def.
func fileList(ctx context.Context, l types.List, env string, def []string) []string {
	if !l.IsNull() && !l.IsUnknown() {
		var out []string
		if d := l.ElementsAs(ctx, &out, false); !d.HasError() {
			return out
		}
	}
	if f := os.Getenv(env); f != "" {
		return []string{f}
	}
	return def
}

// check gets the credentials once (assuming any role) and, unless skip,
// asks the token service (at endpoint, set by endpointFrom) who they belong
// to. It reports failures with their cause and remedy and returns the
// current credentials and the caller's ARN (empty when skipped).
func (c resolvedCredentials) check(ctx context.Context, skip bool, endpoint, endpointFrom string, diags *diag.Diagnostics) (client.Credentials, string, bool) {
	cfg := client.Config{CredentialsProvider: c.provider}
	current, err := cfg.RetrieveCredentials(ctx)
	if err == nil {
		c.keyID = current.AccessKeyID // also of a profile's keys, for the messages
	}
	caller := ""
	if err == nil && !skip {
		var out *sts.GetCallerIdentityOutput
		out, err = c.callerIdentity(ctx)
		if err == nil {
			caller = aws.ToString(out.Arn)
			tflog.Info(ctx, "Credentials checked", map[string]any{"caller_arn": caller, "account": aws.ToString(out.Account), "source": c.source})
		}
	}
	if err == nil {
		return current, caller, true
	}
	summary, detail := explainCredentialError(err, c, endpoint, endpointFrom)
	// The SDK's errors quote what they were given, such as a token passed
	// as web_identity_token_file, and the token service's own messages.
	diags.AddError(summary, client.Redact(detail+"\n\nError: "+err.Error()))
	return client.Credentials{}, "", false
}

// caller is who the provider runs as: the ARN the credential check found,
// else (skip_credentials_validation) one GetCallerIdentity when a type
// first needs it, with the configured role for its path.
func (c resolvedCredentials) caller(arn string) *conns.Caller {
	return conns.NewCaller(arn, func(ctx context.Context) (string, error) {
		out, err := c.callerIdentity(ctx)
		if err != nil {
			return "", err
		}
		return aws.ToString(out.Arn), nil
	}, c.roleARN())
}

// callerIdentity asks the token service who the credentials belong to.
func (c resolvedCredentials) callerIdentity(ctx context.Context) (*sts.GetCallerIdentityOutput, error) {
	return c.settings.Client(c.provider).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
}

// roleARN is the role the credentials assume, "" when none.
func (c resolvedCredentials) roleARN() string {
	switch {
	case c.settings.AssumeRole != nil:
		return c.settings.AssumeRole.RoleARN
	case c.settings.WebIdentity != nil:
		return c.settings.WebIdentity.RoleARN
	}
	return ""
}

// explainCredentialError says what a failed credential check means.
func explainCredentialError(err error, c resolvedCredentials, endpoint, endpointFrom string) (string, string) {
	host := endpoint
	if u, perr := url.Parse(endpoint); perr == nil {
		host = u.Host
	}
	key := "the access key"
	if c.keyID != "" {
		key = "access key " + c.keyID
	}
	r := diagnostics.TokenServiceRemedy(err,
		"host", host, "endpoint", endpoint, "from", endpointFrom, "key", key, "source", c.source, "role", c.roleARN())
	return r.Summary, r.Text
}
