package diagnostics

import "fmt"

// The remedies of a resource identity that names an object the provider
// cannot reach: another account or another region than its own. what
// names the object ("user \"alice\"", "domain \"demo\"").

// IdentityOtherAccount is the detail of an identity naming account want
// while the provider runs in account.
func IdentityOtherAccount(what, want, account string) string {
	return fmt.Sprintf("The identity of %s names account %s, but the provider runs in account %s and can reach only that one. "+
		"Use a provider configured with credentials of account %s (a provider alias, with provider = cloud.<alias> in the resource), or leave account_id out to mean the provider's account.", what, want, account, want)
}

// IdentityOtherRegion is the detail of an identity naming region want
// while the provider is configured for region; why says why the object
// is bound to its region.
func IdentityOtherRegion(what, want, region, why string) string {
	return fmt.Sprintf("The identity of %s names region %s, but the provider is configured for %s, and %s. "+
		"Use a provider configured for %s (a provider alias, with provider = cloud.<alias> in the resource), or leave region out to mean the provider's region.", what, want, region, why, want)
}
