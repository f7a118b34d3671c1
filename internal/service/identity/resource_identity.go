package identity

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// Resource identity (Terraform 1.12+): what names an object of the service
// across configurations, for import blocks with identity = {...} and for
// Terraform to tell a moved object from a replaced one. Every identity
// attribute is a string; account_id (and a key's region) may be left out
// of an import and default to the provider's.

// Identity attributes every type of the service shares.
const (
	identityAccountID = "account_id"
	identityRegion    = "region"
)

// requiredIdentityAttribute is an attribute every identity (and import by
// identity) names.
func requiredIdentityAttribute(description string) identityschema.StringAttribute {
	return identityschema.StringAttribute{RequiredForImport: true, Description: description}
}

func accountIDIdentityAttribute() identityschema.StringAttribute {
	return identityschema.StringAttribute{
		OptionalForImport: true,
		Description:       "Account the object belongs to, 12 digits. Defaults to the account the provider runs in; another account is an error.",
	}
}

// identityValues are an identity's attributes; "" stands for null.
type identityValues map[string]string

// readIdentity returns id's attributes, empty when id is nil or null.
func readIdentity(ctx context.Context, id *tfsdk.ResourceIdentity) (identityValues, diag.Diagnostics) {
	out := identityValues{}
	if id == nil || id.Raw.IsNull() {
		return out, nil
	}
	var obj types.Object
	diags := id.Get(ctx, &obj)
	if diags.HasError() || obj.IsNull() || obj.IsUnknown() {
		return out, diags
	}
	for k, v := range obj.Attributes() {
		if s, ok := v.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			out[k] = s.ValueString()
		}
	}
	return out, diags
}

// setIdentity writes values into id (nil when the resource is served
// without identity, as in unit tests). Like setState, it goes through a
// types.Object rather than the framework's struct reflection.
func setIdentity(ctx context.Context, id *tfsdk.ResourceIdentity, values identityValues) diag.Diagnostics {
	if id == nil {
		return nil
	}
	var diags diag.Diagnostics
	typ, ok := id.Schema.Type().(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Value Conversion Error", fmt.Sprintf("The identity schema's type %T has no attributes. This is always a bug in the provider.", id.Schema.Type()))
		return diags
	}
	attrs := make(map[string]attr.Value, len(typ.AttributeTypes()))
	for name := range typ.AttributeTypes() {
		attrs[name] = types.StringValue(values[name])
		if values[name] == "" {
			attrs[name] = types.StringNull()
		}
	}
	obj, d := types.ObjectValue(typ.AttributeTypes(), attrs)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	return id.Set(ctx, obj)
}

// callerAccount is the account the provider runs in, known from
// Configure's credential check, else from one GetCallerIdentity per
// provider instance ("" when the provider has no caller, as in unit tests).
func callerAccount(ctx context.Context, clients *conns.Clients) (string, error) {
	if clients.Caller == nil {
		return "", nil
	}
	return clients.Caller.AccountID(ctx)
}

// identityAccount is the account_id of an identity being written, for
// what. prior is the identity the object had: nil at a create, empty at a
// refresh that has none (after an import by id, or from a CLI without
// identity, Terraform before 1.12). The provider reaches only its own
// account: a prior identity naming another is an error. A prior account is
// kept when the account cannot be learnt; a null one (a create that could
// not learn it) is filled by the first refresh that can, which is why the
// identities are mutable (identityBehavior). A create that cannot learn it
// warns and records none: failing would leave the object just made
// tainted, to be replaced. A refresh only logs it: it tries again next
// time, and Terraform before 1.12 would see the warning on every plan.
func identityAccount(ctx context.Context, clients *conns.Clients, prior identityValues, what string, diags *diag.Diagnostics) string {
	want := prior[identityAccountID]
	account, err := callerAccount(ctx, clients)
	switch {
	case err != nil && want != "":
		return want // the next refresh checks again
	case err != nil && prior == nil:
		diags.AddWarning("Resource Identity Without Account",
			fmt.Sprintf("The provider could not learn its account from the token service (GetCallerIdentity), so the resource identity of %s records none (account_id is null) until a refresh can learn it. Nothing else is affected.\n\n%s", what, err))
		return ""
	case err != nil:
		tflog.Warn(ctx, "Resource identity without account: the token service (GetCallerIdentity) failed; the next refresh tries again", map[string]any{"object": what, "error": err.Error()})
		return ""
	case account == "":
		return want
	}
	checkAccount(account, want, what, diags)
	return account
}

// identityBehavior lets a refresh fill an identity's null account_id
// (identityAccount); the framework otherwise refuses any change of a
// recorded identity. Every other attribute of an identity never changes.
var identityBehavior = resource.ResourceBehavior{MutableIdentity: true}

// checkPriorAccount stops a Read, Update or Delete, before any call to the
// service, when the object's recorded identity names another account than
// the one the provider now runs in: asked there, the service would answer
// NotFound (and the plan would create every object again in that account)
// or act on an object of the same name in it. It returns the prior
// identity. The caller's account is known from Configure's credential
// check, so no call is made unless that check was skipped; when it cannot
// be learnt, the operation goes on and its own call reports the
// credentials.
func checkPriorAccount(ctx context.Context, clients *conns.Clients, id *tfsdk.ResourceIdentity, what string, diags *diag.Diagnostics) identityValues {
	prior, d := readIdentity(ctx, id)
	if diags.Append(d...); d.HasError() || prior[identityAccountID] == "" {
		return prior
	}
	account, err := callerAccount(ctx, clients)
	if err != nil || account == "" {
		return prior
	}
	checkAccount(account, prior[identityAccountID], what, diags)
	return prior
}

// identityRule is what an identity attribute of an import must match.
type identityRule struct {
	name  string
	valid func(string) bool
	rule  string // what valid checks, for the error
}

// userNameRule is the identity service's rule for a user name.
var userNameRule = identityRule{"user_name", validUserName, "1 to 64 letters, digits and +=,.@_-"}

func validUserName(s string) bool { return len(s) <= 64 && userNameRe.MatchString(s) }

// accountIDRule: account_id may be left out (the provider's account).
var accountIDRule = identityRule{identityAccountID, func(s string) bool { return s == "" || accountIDRe.MatchString(s) }, "12 digits"}

var accountIDRe = regexp.MustCompile(`^\d{12}$`)

// checkImportIdentity reports, on its own attribute, each value of an
// import's identity that breaks its rule: first, before any call, and
// naming the value the import block gave.
func checkImportIdentity(ident identityValues, diags *diag.Diagnostics, rules ...identityRule) {
	for _, r := range append(rules, accountIDRule) {
		if v := ident[r.name]; !r.valid(v) {
			diags.AddAttributeError(path.Root(r.name), "Invalid Import Identity",
				fmt.Sprintf("The identity's %s must be %s; got %q.", r.name, r.rule, v))
		}
	}
}

// importAccount is the account_id of an import by identity that names
// want ("": the provider's): learning it is part of the import.
func importAccount(ctx context.Context, clients *conns.Clients, want, what string, diags *diag.Diagnostics) string {
	account, err := callerAccount(ctx, clients)
	if err != nil {
		diags.AddError("Unable to Import by Identity",
			fmt.Sprintf("Importing %s needs the account the provider runs in, which it learns from the token service (GetCallerIdentity); that call failed. Check the provider's credentials, or import by id.\n\n%s", what, err))
		return ""
	}
	if account == "" {
		return want
	}
	checkAccount(account, want, what, diags)
	return account
}

// checkAccount reports an identity that names another account than the
// one the provider reaches (account).
func checkAccount(account, want, what string, diags *diag.Diagnostics) {
	if want == "" || want == account {
		return
	}
	diags.AddAttributeError(path.Root(identityAccountID), "Resource Identity Names Another Account",
		fmt.Sprintf("The identity of %s names account %s, but the provider runs in account %s and can reach only that one. "+
			"Use a provider configured with credentials of account %s (a provider alias, with provider = cloud.<alias> in the resource), or leave account_id out to mean the provider's account.", what, want, account, want))
}

// checkRegion reports an identity that names another region than the
// provider's.
func checkRegion(region, want, what string, diags *diag.Diagnostics) {
	if want == "" || want == region {
		return
	}
	diags.AddAttributeError(path.Root(identityRegion), "Resource Identity Names Another Region",
		fmt.Sprintf("The identity of %s names region %s, but the provider is configured for %s, and a key works only in the region it was created in. "+
			"Import it with a provider configured for %s (a provider alias, with provider = cloud.<alias> in the resource), or leave region out to mean the provider's region.", what, want, region, want))
}

// goneIdentity is the identity Read leaves when the object is gone and
// it removes the resource: the framework wants one even then, and a CLI
// without identity (Terraform before 1.12) sent none to keep.
func goneIdentity(ctx context.Context, id *tfsdk.ResourceIdentity, values identityValues) diag.Diagnostics {
	prior, diags := readIdentity(ctx, id)
	if len(prior) > 0 {
		return diags // the prior identity stays
	}
	return setIdentity(ctx, id, values)
}
