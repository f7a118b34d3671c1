package identity_test

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// seededKeys are keys made outside Terraform: their ids and values.
type seededKeys struct {
	ids    map[string]string // by name: old, expired, inactive, fresh
	values []string
}

// seedKeys makes, for two users, keys of every age and status: one made
// 400 days ago for 3650 days, one that has expired, an Inactive one, and
// one made now.
func seedKeys(t *testing.T, emu *acctest.Emulator) seededKeys {
	t.Helper()
	c := identityClient(t, emu)
	for _, u := range []string{"key-ann", "key-ben"} {
		if _, err := c.CreateUser(t.Context(), identityclient.CreateUserInput{UserName: u, Path: "/apps/"}); err != nil {
			t.Fatal(err)
		}
	}
	s := seededKeys{ids: map[string]string{}}
	create := func(name, user string, days int) {
		cred, err := c.CreateServiceSpecificCredential(t.Context(), identityclient.CreateServiceSpecificCredentialInput{UserName: user, ServiceName: "models.cloud.example", CredentialAgeDays: days})
		if err != nil {
			t.Fatal(err)
		}
		s.ids[name], s.values = cred.ServiceSpecificCredentialID, append(s.values, cred.ServiceAPIKeyValue)
	}
	create("old", "key-ann", 3650)
	create("expired", "key-ben", 30)
	emu.Clock().Advance(400 * 24 * time.Hour)
	create("inactive", "key-ann", 90)
	if err := c.UpdateServiceSpecificCredential(t.Context(), "key-ann", s.ids["inactive"], identityclient.StatusInactive); err != nil {
		t.Fatal(err)
	}
	create("fresh", "key-ben", 7)
	return s
}

func TestAccServiceSpecificCredentialList_query(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	keys := seedKeys(t, emu)
	key := func(user, name string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{
			"user_name": knownvalue.StringExact(user), "service_specific_credential_id": knownvalue.StringExact(keys.ids[name]),
			"account_id": knownvalue.StringExact(emu.Account()), "region": knownvalue.StringExact(emu.Region()),
		}
	}
	queryTest(t, emu, resource.TestStep{
		Query: true,
		Config: `
list "cloud_identity_service_specific_credential" "all" {
  provider         = cloud
  include_resource = true
}

list "cloud_identity_service_specific_credential" "ann" {
  provider = cloud
  config {
    user_name = "key-ann"
  }
}

list "cloud_identity_service_specific_credential" "inactive" {
  provider = cloud
  config {
    status       = "Inactive"
    service_name = "models.cloud.example"
  }
}
`,
		QueryResultChecks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("cloud_identity_service_specific_credential.all", 4),
			querycheck.ExpectLength("cloud_identity_service_specific_credential.ann", 2),
			querycheck.ExpectLength("cloud_identity_service_specific_credential.inactive", 1),
			querycheck.ExpectIdentity("cloud_identity_service_specific_credential.inactive", key("key-ann", "inactive")),
			querycheck.ExpectNoIdentity("cloud_identity_service_specific_credential.ann", key("key-ben", "fresh")),
			querycheck.ExpectResourceDisplayName("cloud_identity_service_specific_credential.all", queryfilter.ByResourceIdentity(key("key-ben", "expired")),
				knownvalue.StringRegexp(acctest.ErrorRe(`^`+keys.ids["expired"]+` of key-ben \(models\.cloud\.example, Active, expires \d{4}-`))),
			querycheck.ExpectResourceKnownValues("cloud_identity_service_specific_credential.all", queryfilter.ByResourceIdentity(key("key-ann", "old")), []querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("credential_age_days"), KnownValue: knownvalue.Int64Exact(3650)},
				{Path: tfjsonpath.New("status"), KnownValue: knownvalue.StringExact("Active")},
				{Path: tfjsonpath.New("service_api_key_value"), KnownValue: knownvalue.Null()},
			}),
		},
	}, resource.TestStep{
		// The service accepts keys for one service only: another is
		// refused before any call.
		Query: true,
		Config: `
list "cloud_identity_service_specific_credential" "other" {
  provider = cloud
  config {
    service_name = "codecommit.cloud.example"
  }
}
`,
		ExpectError: acctest.ErrorRe(`service_name value must be one of: \["models.cloud.example"\]`),
	})
}

// The generated configuration of keys of every age and status plans as a
// pure import and holds no key value.
func TestAccServiceSpecificCredentialList_generatedConfigImports(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	keys := seedKeys(t, emu)
	// Keys made by hand before the adoption: a key older than a minute
	// with no record of an interrupted create around it is held at import,
	// so its import is pure (a younger one plans held = true, see
	// TestAccServiceSpecificCredential_importOldKey).
	emu.Clock().Advance(2 * time.Minute)
	a := queryAndPlan(t, emu, `
list "cloud_identity_service_specific_credential" "all" {
  provider         = cloud
  include_resource = true
}
`)
	a.checkPureImport(t, "cloud_identity_service_specific_credential", 4, keys.values...)
	if len(a.planWrites) != 0 {
		t.Errorf("the plan of the generated configuration wrote: %v", a.planWrites)
	}
}

// A list block's limit counts keys, not users: the query stops at it,
// asking no more users' keys than it needs (one listing at a time here;
// side by side see TestAccIdentityList_sideBySideLimit), and a limit of 0
// asks nothing.
func TestAccServiceSpecificCredentialList_limit(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	seedKeys(t, emu)
	queryTestWith(t, oneListingAtATime(emu), resource.TestStep{
		Query: true,
		Config: `
list "cloud_identity_service_specific_credential" "two" {
  provider = cloud
  limit    = 2
}

list "cloud_identity_service_specific_credential" "none" {
  provider = cloud
  limit    = 0
}
`,
		PreConfig: emu.ClearCalls,
		QueryResultChecks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("cloud_identity_service_specific_credential.two", 2),
			querycheck.ExpectLength("cloud_identity_service_specific_credential.none", 0),
		},
	})
	// key-ann's two keys are the first two, in name order.
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", 1, "the first user's two keys reach the limit")
	emu.ExpectCalls(t, "ListUsers", 1, "none for the limit of 0")
}
