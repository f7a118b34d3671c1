package identity_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// More users than one ListUsers page: the query follows the markers,
// and path_prefix keeps only the users under it.
func TestAccUserList_pagesAndPathPrefix(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	c := identityClient(t, emu)
	for i := range 1005 {
		if _, err := c.CreateUser(t.Context(), identityclient.CreateUserInput{UserName: fmt.Sprintf("app%04d", i), Path: "/apps/"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, in := range []identityclient.CreateUserInput{{UserName: "root1"}, {UserName: "ops1", Path: "/ops/"}, {UserName: "team1", Path: "/apps/team/"}} {
		if _, err := c.CreateUser(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	app007 := queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"user_name": knownvalue.StringExact("app0007"), "account_id": knownvalue.StringExact(emu.Account())})
	queryTest(t, emu, resource.TestStep{
		Query: true,
		// The provider block is the first step's, in the same directory.
		Config: `
list "cloud_identity_user" "apps" {
  provider         = cloud
  include_resource = true
  limit            = 2000
  config {
    path_prefix = "/apps/"
  }
}

list "cloud_identity_user" "all" {
  provider = cloud
  limit    = 2000
}

list "cloud_identity_user" "first" {
  provider = cloud
  limit    = 150
}
`,
		PreConfig: emu.ClearCalls,
		QueryResultChecks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("cloud_identity_user.apps", 1006),
			querycheck.ExpectLength("cloud_identity_user.all", 1008),
			querycheck.ExpectLength("cloud_identity_user.first", 150),
			querycheck.ExpectIdentity("cloud_identity_user.apps", map[string]knownvalue.Check{"user_name": knownvalue.StringExact("team1"), "account_id": knownvalue.StringExact(emu.Account())}),
			querycheck.ExpectNoIdentity("cloud_identity_user.apps", map[string]knownvalue.Check{"user_name": knownvalue.StringExact("ops1"), "account_id": knownvalue.StringExact(emu.Account())}),
			querycheck.ExpectResourceDisplayName("cloud_identity_user.apps", app007, knownvalue.StringExact("/apps/app0007")),
			querycheck.ExpectResourceKnownValues("cloud_identity_user.apps", app007, []querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("path"), KnownValue: knownvalue.StringExact("/apps/")},
				{Path: tfjsonpath.New("arn"), KnownValue: knownvalue.StringExact("arn:cloud:identity::" + emu.Account() + ":user/apps/app0007")},
				{Path: tfjsonpath.New("user_id"), KnownValue: knownvalue.StringRegexp(regexp.MustCompile(`^AIDA`))},
				{Path: tfjsonpath.New("force_destroy"), KnownValue: knownvalue.Bool(false)},
			}),
		},
	})
	// Two pages of at most 1000 for each list block without a limit
	// below the user count; for the limit of 150, one page of 150.
	emu.ExpectCalls(t, "ListUsers", 5, "2 pages for each of two list blocks, 1 for the one limited to 150")
}

// The configuration terraform query generates for users with paths and
// tags plans as a pure import: no change, and no write to the service.
func TestAccUserList_generatedConfigImports(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	c := identityClient(t, emu)
	for _, in := range []identityclient.CreateUserInput{
		{UserName: "gen-root"},
		{UserName: "gen.apps", Path: "/apps/"},
		{UserName: "gen@deep", Path: "/apps/team/a/", Tags: []identityclient.Tag{{Key: "team", Value: "a"}}},
	} {
		if _, err := c.CreateUser(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	a := queryAndPlan(t, emu, `
list "cloud_identity_user" "all" {
  provider         = cloud
  include_resource = true
}
`)
	a.checkPureImport(t, "cloud_identity_user", 3)
	if len(a.planWrites) > 0 {
		t.Errorf("the plan of the generated configuration wrote: %v", a.planWrites)
	}
}
