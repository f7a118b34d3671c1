package identity_test

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
)

// bundles is n key bundles: a user, its policy attachment and its key,
// as an apply of many keys has them.
func bundles(providerConfig string, n int) string {
	return providerConfig + fmt.Sprintf(`
resource "cloud_identity_user" "b" {
  count     = %d
  user_name = "bundle-${count.index}"
}

resource "cloud_identity_user_policy_attachment" "b" {
  count      = %[1]d
  user_name  = cloud_identity_user.b[count.index].user_name
  policy_arn = %q
}

resource "cloud_identity_service_specific_credential" "b" {
  count               = %[1]d
  user_name           = cloud_identity_user.b[count.index].user_name
  credential_age_days = 30
}
`, n, limitedAccess)
}

// bookkept are the identity operations the create and delete of a key
// bundle make, beyond reads and the plan-time permission check: what
// each one costs in calls, on the path Terraform's parallelism bounds.
var bookkept = []string{
	"CreateUser", "AttachUserPolicy", "CreateServiceSpecificCredential",
	"ListUserTags", "TagUser", "UntagUser",
	"DeleteUser", "DetachUserPolicy", "DeleteServiceSpecificCredential",
}

// identityCalls counts the identity calls of each operation in bookkept
// that the emulator received, answered or not.
func identityCalls(emu *acctest.Emulator) map[string]int {
	n := map[string]int{}
	for _, op := range bookkept {
		n[op] = 0
	}
	for _, c := range emu.Calls() {
		if _, ok := n[c.Operation]; ok && c.Service == "identity" {
			n[c.Operation]++
		}
	}
	return n
}

// The calls an apply and a destroy of key bundles make per bundle (the
// table of the design guide's "The long-term key"). A user is CreateUser
// and the UntagUser of its record; a key for a user the same run created
// is the TagUser of its record, the create, and the TagUser turning the
// record into its mark (no ListUserTags, no UntagUser); a destroy deletes
// and removes no mark.
func TestAccKeyBundle_callsPerBundle(t *testing.T) {
	const n = 3
	emu := acctest.NewEmulator(t)
	var applied map[string]int
	parallelTest(t, func(*terraform.State) error {
		if err := checkNothingLeft(emu)(nil); err != nil {
			return err
		}
		destroyed := identityCalls(emu)
		for op, c := range applied {
			destroyed[op] -= c
		}
		want := map[string]int{
			"CreateUser": 0, "AttachUserPolicy": 0, "CreateServiceSpecificCredential": 0,
			"ListUserTags": 0, "TagUser": 0, "UntagUser": 0,
			"DeleteUser": n, "DetachUserPolicy": n, "DeleteServiceSpecificCredential": n,
		}
		if !maps.Equal(destroyed, want) {
			return fmt.Errorf("the destroy of %d bundles (and the plans between) made %v, want %v", n, destroyed, want)
		}
		return nil
	}, []resource.TestStep{{
		Config: bundles(emu.ProviderConfig(), n),
		Check: func(*terraform.State) error {
			applied = identityCalls(emu)
			want := map[string]int{
				"CreateUser": n, "AttachUserPolicy": n, "CreateServiceSpecificCredential": n,
				"ListUserTags": 0, "TagUser": 2 * n, "UntagUser": n,
				"DeleteUser": 0, "DetachUserPolicy": 0, "DeleteServiceSpecificCredential": 0,
			}
			if !maps.Equal(applied, want) {
				return fmt.Errorf("the apply of %d bundles made %v, want %v", n, applied, want)
			}
			for i := range n {
				if tags := emu.Identity.UserTags(fmt.Sprintf("bundle-%d", i)); len(tags) != 1 {
					return fmt.Errorf("user bundle-%d carries tags %v, want its key's mark alone", i, tags)
				}
			}
			return nil
		},
	}})
}

// The permission check of a key runs in the reviewed plan, not again in
// the plan Terraform makes at apply once the same apply has created the
// key's user: there it would prevent nothing, and it would sit on the
// user -> key chain.
func TestAccKeyBundle_permissionCheckNotAskedAgainAtApply(t *testing.T) {
	const n = 3
	emu := acctest.NewEmulator(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	ws := acctest.NewWorkspace(ctx, t)
	if err := ws.Write(emulatortest.RequiredProvidersBlock + bundles(emu.ProviderConfig(), n)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-backend=false"}, {"plan", "-out=tfplan"}} {
		if _, out, err := ws.RunOutput(ctx, args...); err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
	}
	planned := emu.Sent("SimulatePrincipalPolicy")
	if planned == 0 {
		t.Fatalf("the plan of %d keys asked no SimulatePrincipalPolicy", n)
	}
	if _, out, err := ws.RunOutput(ctx, "apply", "tfplan"); err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out)
	}
	emu.ExpectCalls(t, "SimulatePrincipalPolicy", planned, "the plan's checks and none at apply, whose users the apply created")
}
