package identity_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

const denyBearer = "arn:cloud:identity::cloud:policy/DenyBearerTokens"

// seedAttachments makes two users, with two policies attached to one of
// them and one to the other, and a user with none.
func seedAttachments(t *testing.T, emu *acctest.Emulator) {
	t.Helper()
	c := identityClient(t, emu)
	for _, u := range []string{"pa-one", "pa-two", "pa-none"} {
		if _, err := c.CreateUser(t.Context(), identityclient.CreateUserInput{UserName: u, Path: "/apps/"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range [][2]string{{"pa-one", limitedAccess}, {"pa-one", denyBearer}, {"pa-two", limitedAccess}} {
		if err := c.AttachUserPolicy(t.Context(), a[0], a[1]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAccUserPolicyAttachmentList_query(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	seedAttachments(t, emu)
	attachment := func(user, arn string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{"user_name": knownvalue.StringExact(user), "policy_arn": knownvalue.StringExact(arn), "account_id": knownvalue.StringExact(emu.Account())}
	}
	queryTest(t, emu, resource.TestStep{
		Query: true,
		Config: `
list "cloud_identity_user_policy_attachment" "all" {
  provider = cloud
}

list "cloud_identity_user_policy_attachment" "one" {
  provider = cloud
  config {
    user_name = "pa-one"
  }
}
`,
		QueryResultChecks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("cloud_identity_user_policy_attachment.all", 3),
			querycheck.ExpectLength("cloud_identity_user_policy_attachment.one", 2),
			querycheck.ExpectIdentity("cloud_identity_user_policy_attachment.all", attachment("pa-two", limitedAccess)),
			querycheck.ExpectIdentity("cloud_identity_user_policy_attachment.one", attachment("pa-one", denyBearer)),
			querycheck.ExpectNoIdentity("cloud_identity_user_policy_attachment.one", attachment("pa-two", limitedAccess)),
			querycheck.ExpectResourceDisplayName("cloud_identity_user_policy_attachment.one", queryfilter.ByResourceIdentity(attachment("pa-one", denyBearer)),
				knownvalue.StringExact("DenyBearerTokens attached to pa-one")),
		},
	})
}

func TestAccUserPolicyAttachmentList_generatedConfigImports(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	seedAttachments(t, emu)
	a := queryAndPlan(t, emu, `
list "cloud_identity_user_policy_attachment" "all" {
  provider         = cloud
  include_resource = true
}
`)
	a.checkPureImport(t, "cloud_identity_user_policy_attachment", 3)
	if len(a.planWrites) > 0 {
		t.Errorf("the plan of the generated configuration wrote: %v", a.planWrites)
	}
}

// A list block's limit counts attachments, not users: the query stops at
// it, asking no more users' policies than it needs (one listing at a time
// here; side by side see TestAccIdentityList_sideBySideLimit), and a limit
// of 0 asks nothing.
func TestAccUserPolicyAttachmentList_limit(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	seedAttachments(t, emu)
	queryTestWith(t, oneListingAtATime(emu), resource.TestStep{
		Query: true,
		Config: `
list "cloud_identity_user_policy_attachment" "two" {
  provider = cloud
  limit    = 2
}

list "cloud_identity_user_policy_attachment" "none" {
  provider = cloud
  limit    = 0
}
`,
		PreConfig: emu.ClearCalls,
		QueryResultChecks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("cloud_identity_user_policy_attachment.two", 2),
			querycheck.ExpectLength("cloud_identity_user_policy_attachment.none", 0),
		},
	})
	// In name order, pa-none has none and pa-one's two reach the limit:
	// pa-two is never asked.
	emu.ExpectCalls(t, "ListAttachedUserPolicies", 2, "pa-none, then pa-one's two attachments reach the limit")
	emu.ExpectCalls(t, "ListUsers", 1, "none for the limit of 0")
}

// A list of one user's attachments or keys, for a user that does not
// exist, is empty and warns on user_name, with no error.
func TestAccIdentityList_noSuchUser(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	seedAttachments(t, emu)
	ctx, ws := queryWorkspace(t, emu, `
list "cloud_identity_user_policy_attachment" "ghost" {
  provider = cloud
  config {
    user_name = "pa-ghost"
  }
}

list "cloud_identity_service_specific_credential" "ghost" {
  provider = cloud
  config {
    user_name = "pa-ghost"
  }
}
`)
	out, err := ws.Output(ctx, "query", "-json")
	if err != nil {
		t.Fatal(err)
	}
	totals, warned := map[string]int{}, map[string]bool{}
	for line := range strings.Lines(string(out)) {
		var m struct {
			Type         string `json:"type"`
			ListComplete struct {
				Address string `json:"address"`
				Total   int    `json:"total"`
			} `json:"list_complete"`
			Diagnostic struct {
				Severity, Summary, Address string
				Snippet                    struct{ Code string }
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch {
		case m.Type == "list_complete":
			totals[m.ListComplete.Address] = m.ListComplete.Total
		case m.Type == "diagnostic" && m.Diagnostic.Severity == "warning" && m.Diagnostic.Summary == "Identity User Not Found" && strings.Contains(m.Diagnostic.Snippet.Code, "user_name"):
			warned[m.Diagnostic.Address] = true
		case m.Type == "diagnostic":
			t.Errorf("unexpected diagnostic: %s", line)
		}
	}
	for _, addr := range []string{"list.cloud_identity_user_policy_attachment.ghost", "list.cloud_identity_service_specific_credential.ghost"} {
		if total, ok := totals[addr]; !ok || total != 0 {
			t.Errorf("%s: %d results (completed: %v), want 0", addr, total, ok)
		}
		if !warned[addr] {
			t.Errorf("%s: no warning on user_name that the user does not exist\n%s", addr, out)
		}
	}
}
