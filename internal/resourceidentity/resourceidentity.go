// Package resourceidentity is the one home of resource identity (Terraform
// 1.12+): what names an object across configurations, for import blocks
// with identity = {...}, for `terraform query` and for Terraform to tell a
// moved object from a replaced one. A type declares its identity once (a
// Type: the attributes that name the object, and whether it lives in a
// region); this package derives the identity schema from it, writes the
// identity at create, read, update and import, and checks that a recorded
// or imported identity names the provider's own account and region.
//
// Every identity attribute is a string. account_id (and region) may be
// left out of an import and default to the provider's.
//
// A missing account, one policy for every type: an identity whose
// account_id is null (a create that could not learn the account, a state
// written before identities existed, an import by id) gets the account at
// the first write that can learn it, a refresh included, and the type
// declares its identity mutable for that one change (Behavior). The
// account check is what keeps a provider that now runs in another account
// from reading, changing or deleting an object of the same name there;
// an identity left without its account would go unchecked for ever.
// Learning the account costs no call when Configure checked the
// credentials, and at most one GetCallerIdentity per provider process
// when that check is skipped (conns.Caller keeps the answer); a type
// whose refresh needs no call to be safe (Type.RefreshWithoutCall) makes
// none there, and its first update fills the account instead. A create
// that cannot learn it warns and records none (failing would leave the
// object just made tainted, to be replaced); a refresh only logs it and
// tries again next time (Terraform before 1.12 would see a warning on
// every plan); an import by identity fails, since checking the account is
// part of it.
package resourceidentity

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// The attributes every identity may have beside its type's own.
const (
	AccountID = "account_id"
	Region    = "region"
)

// Attribute is one of the attributes that name an object of a type.
type Attribute struct {
	Name        string
	Description string
	// Valid checks an import's value before any call; Rule says what it
	// checks, for the error ("1 to 64 letters, digits and +=,.@_-").
	Valid func(string) bool
	Rule  string
}

// RegionAttribute is the region of a type whose objects live in one.
type RegionAttribute struct {
	Description string
	// Bound says why an object of another region is out of the
	// provider's reach, for the error ("a key works only in the region
	// it was created in").
	Bound string
	// RefuseRecorded stops a read, update or delete whose recorded
	// identity names another region. Without it the type handles a
	// change of region itself (a key plans its replacement).
	RefuseRecorded bool
}

// Type is the identity of a resource type.
type Type struct {
	// Attributes name the object in its account (and region); every
	// identity and every import by identity has them.
	Attributes []Attribute
	// Region is set for a type whose objects live in a region.
	Region *RegionAttribute
	// RefreshWithoutCall: a refresh of the type makes no call to learn
	// the account; it checks and fills the account only when the
	// caller's is known already (Configure's credential check). Right
	// for a type whose every write checks the account first and whose
	// refresh, finding nothing, leads to no write in another account
	// (the domain config adopts a domain, it never creates one). A type
	// whose refresh finding nothing would plan its object created again
	// (a user, a key) pays the one call instead.
	RefreshWithoutCall bool
}

// Identity is an identity's values; "" stands for null.
type Identity struct {
	// Attrs are the values of the type's Attributes, by name.
	Attrs   map[string]string
	Account string
	Region  string
}

// Behavior lets a write fill an identity's null account_id (see the
// package comment); the framework otherwise refuses any change of a
// recorded identity. Every other attribute of an identity never changes.
var Behavior = resource.ResourceBehavior{MutableIdentity: true}

const accountDescription = "Account the object belongs to, 12 digits. Defaults to the account the provider runs in; another account is an error."

// Schema is the type's identity schema.
func (t Type) Schema() identityschema.Schema {
	attrs := map[string]identityschema.Attribute{
		AccountID: identityschema.StringAttribute{OptionalForImport: true, Description: accountDescription},
	}
	for _, a := range t.Attributes {
		attrs[a.Name] = identityschema.StringAttribute{RequiredForImport: true, Description: a.Description}
	}
	if t.Region != nil {
		attrs[Region] = identityschema.StringAttribute{OptionalForImport: true, Description: t.Region.Description}
	}
	return identityschema.Schema{Attributes: attrs}
}

// Get returns id's values; nil when id is nil or null (a create, a CLI
// without identity, a state written before identities existed).
func Get(ctx context.Context, id *tfsdk.ResourceIdentity) (*Identity, diag.Diagnostics) {
	if id == nil || id.Raw.IsNull() {
		return nil, nil
	}
	var obj types.Object
	diags := id.Get(ctx, &obj)
	if diags.HasError() || obj.IsNull() || obj.IsUnknown() {
		return nil, diags
	}
	out := &Identity{Attrs: map[string]string{}}
	for k, v := range obj.Attributes() {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		switch k {
		case AccountID:
			out.Account = s.ValueString()
		case Region:
			out.Region = s.ValueString()
		default:
			out.Attrs[k] = s.ValueString()
		}
	}
	return out, diags
}

// Set writes values into id (nil when the resource is served without
// identity: Terraform before 1.12, or a unit test).
func Set(ctx context.Context, id *tfsdk.ResourceIdentity, values Identity) diag.Diagnostics {
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
		v := values.Attrs[name]
		switch name {
		case AccountID:
			v = values.Account
		case Region:
			v = values.Region
		}
		attrs[name] = types.StringValue(v)
		if v == "" {
			attrs[name] = types.StringNull()
		}
	}
	obj, d := types.ObjectValue(typ.AttributeTypes(), attrs)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	return id.Set(ctx, obj)
}

// CallerAccount is the account the provider runs in, known from
// Configure's credential check, else from one GetCallerIdentity per
// provider instance ("" when the provider has no caller, as in unit tests).
func CallerAccount(ctx context.Context, c *conns.Clients) (string, error) {
	if c.Caller == nil {
		return "", nil
	}
	return c.Caller.AccountID(ctx)
}

// callerAccount finds the account the provider runs in; "" when it
// has none to give (no caller, as in unit tests, or not known without a
// call where no call may be made).
type callerAccount func(context.Context) (string, error)

// caller is how the account is learnt at a refresh (refresh) or
// another operation of the type.
func (t Type) caller(c *conns.Clients, refresh bool) callerAccount {
	if !refresh || !t.RefreshWithoutCall {
		return func(ctx context.Context) (string, error) { return CallerAccount(ctx, c) }
	}
	return func(context.Context) (string, error) {
		if c.Caller == nil {
			return "", nil
		}
		arn, ok := c.Caller.Known()
		if !ok {
			return "", nil // the next update, or refresh, fills it
		}
		return conns.ARNAccount(arn), nil
	}
}

// Write sets out to next, the identity of the object as a create or an
// update leaves it, after the policy for a missing account: next.Account
// when the object names it (a user's ARN does), else the provider's.
// prior is the identity the object had: nil at a create. what names the
// object for a diagnostic.
func (t Type) Write(ctx context.Context, c *conns.Clients, prior *Identity, next Identity, what string, out *tfsdk.ResourceIdentity) diag.Diagnostics {
	return t.write(ctx, c, prior, next, what, out, false)
}

// WriteRefresh is Write for a Read; prior is empty when the state has
// no identity.
func (t Type) WriteRefresh(ctx context.Context, c *conns.Clients, prior *Identity, next Identity, what string, out *tfsdk.ResourceIdentity) diag.Diagnostics {
	return t.write(ctx, c, prior, next, what, out, true)
}

func (t Type) write(ctx context.Context, c *conns.Clients, prior *Identity, next Identity, what string, out *tfsdk.ResourceIdentity, refresh bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if out == nil {
		return diags // Terraform older than 1.12 carries no identity
	}
	if next.Account == "" {
		next.Account = account(ctx, t.caller(c, refresh), prior, what, &diags)
		if diags.HasError() {
			return diags
		}
	}
	diags.Append(Set(ctx, out, next)...)
	return diags
}

// account is the account_id of an identity being written: the provider's,
// else the prior one's (see the package comment). A prior identity naming
// another account is an error.
func account(ctx context.Context, caller callerAccount, prior *Identity, what string, diags *diag.Diagnostics) string {
	want := ""
	if prior != nil {
		want = prior.Account
	}
	account, err := caller(ctx)
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

// CheckPrior stops a Read, Update or Delete, before any call to the
// service, when the object's recorded identity names another account than
// the one the provider now runs in (asked there, the service would answer
// NotFound, and the plan would create every object again in that account,
// or act on an object of the same name in it), or another region when
// the type refuses that. It returns the prior identity, empty when none
// is recorded. The caller's account is known from Configure's credential
// check, so no call is made unless that check was skipped; when it cannot
// be learnt, the operation goes on and its own call reports the
// credentials.
func (t Type) CheckPrior(ctx context.Context, c *conns.Clients, in *tfsdk.ResourceIdentity, what string, diags *diag.Diagnostics) *Identity {
	return t.checkPrior(ctx, c, in, what, diags, false)
}

// CheckRefresh is CheckPrior for a Read.
func (t Type) CheckRefresh(ctx context.Context, c *conns.Clients, in *tfsdk.ResourceIdentity, what string, diags *diag.Diagnostics) *Identity {
	return t.checkPrior(ctx, c, in, what, diags, true)
}

func (t Type) checkPrior(ctx context.Context, c *conns.Clients, in *tfsdk.ResourceIdentity, what string, diags *diag.Diagnostics, refresh bool) *Identity {
	prior, d := Get(ctx, in)
	if diags.Append(d...); d.HasError() {
		return &Identity{}
	}
	if prior == nil {
		return &Identity{}
	}
	if t.Region != nil && t.Region.RefuseRecorded {
		t.checkRegion(c.Region, prior.Region, what, diags)
	}
	if prior.Account == "" || diags.HasError() {
		return prior
	}
	account, err := t.caller(c, refresh)(ctx)
	if err != nil || account == "" {
		return prior
	}
	checkAccount(account, prior.Account, what, diags)
	return prior
}

// Import checks the identity of an import by identity and completes it:
// each value that breaks its rule is reported on its own attribute first,
// before any call, naming the value the import block gave; then a region
// or an account other than the provider's is refused. The account is the
// provider's, and learning it is part of the import; the region is the
// provider's. ok is false after an error.
func (t Type) Import(ctx context.Context, c *conns.Clients, in *tfsdk.ResourceIdentity, what func(Identity) string, diags *diag.Diagnostics) (Identity, bool) {
	got, d := Get(ctx, in)
	if diags.Append(d...); d.HasError() {
		return Identity{}, false
	}
	if got == nil {
		got = &Identity{Attrs: map[string]string{}}
	}
	for _, a := range t.Attributes {
		if v := got.Attrs[a.Name]; !a.Valid(v) {
			diags.AddAttributeError(path.Root(a.Name), "Invalid Import Identity",
				fmt.Sprintf("The identity's %s must be %s; got %q.", a.Name, a.Rule, v))
		}
	}
	if v := got.Account; v != "" && rules.AccountID.CheckString(v) != nil {
		diags.AddAttributeError(path.Root(AccountID), "Invalid Import Identity",
			fmt.Sprintf("The identity's %s must be 12 digits; got %q.", AccountID, v))
	}
	if diags.HasError() {
		return Identity{}, false
	}
	name := what(*got)
	if t.Region != nil {
		t.checkRegion(c.Region, got.Region, name, diags)
		got.Region = c.Region
	}
	account, err := CallerAccount(ctx, c)
	switch {
	case err != nil:
		diags.AddError("Unable to Import by Identity",
			fmt.Sprintf("Importing %s needs the account the provider runs in, which it learns from the token service (GetCallerIdentity); that call failed. Check the provider's credentials, or import by id.\n\n%s", name, err))
	case account != "":
		checkAccount(account, got.Account, name, diags)
		got.Account = account
	}
	return *got, !diags.HasError()
}

// Gone sets out when Read finds the object gone and removes the resource:
// the framework wants an identity even then, and a CLI without identity
// (Terraform before 1.12) sent none to keep. A prior identity stays.
func Gone(ctx context.Context, out *tfsdk.ResourceIdentity, values Identity) diag.Diagnostics {
	prior, diags := Get(ctx, out)
	if prior != nil || diags.HasError() {
		return diags
	}
	return Set(ctx, out, values)
}

// checkAccount reports an identity that names another account than the
// one the provider reaches (account).
func checkAccount(account, want, what string, diags *diag.Diagnostics) {
	if want == "" || want == account {
		return
	}
	diags.AddAttributeError(path.Root(AccountID), "Resource Identity Names Another Account", diagnostics.IdentityOtherAccount(what, want, account))
}

// checkRegion reports an identity that names another region than the
// provider's (region).
func (t Type) checkRegion(region, want, what string, diags *diag.Diagnostics) {
	if want == "" || want == region {
		return
	}
	diags.AddAttributeError(path.Root(Region), "Resource Identity Names Another Region", diagnostics.IdentityOtherRegion(what, want, region, t.Region.Bound))
}
