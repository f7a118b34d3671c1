package identity_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// The keys a plan creates are checked together: Terraform plans ten at a
// time (its default -parallelism), and the provider asks the policy
// simulation about the keys of one principal, service and age in one
// call, those planned during a call in the next, so twenty keys cost a
// few calls, not twenty. A key the policy refuses among them still gets
// its own error, on its own attribute. Each simulation takes half a
// second, a slow network's round trip: the keys Terraform plans meanwhile
// join the next call on a loaded machine too.
func TestAccServiceSpecificCredential_permissionCheckGrouped(t *testing.T) {
	const keys = 20
	emu := acctest.NewEmulator(t)
	policy := `{"Version":"2012-10-17","Statement":[
{"Effect":"Allow","Action":"identity:*","Resource":"*"},
{"Sid":"NoKeysForBatch7","Effect":"Deny","Action":"identity:CreateServiceSpecificCredential","Resource":"arn:cloud:identity::123456789012:user/batch-7"}]}`
	if _, err := emu.Identity.AttachPrincipalPolicy(emulatorAdmin, "no-batch-7", []byte(policy)); err != nil {
		t.Fatal(err)
	}
	if err := emu.InjectFault(emulator.Fault{Operation: "SimulatePrincipalPolicy", Kind: emulator.FaultDelay, Delay: 500 * time.Millisecond, Times: -1}); err != nil {
		t.Fatal(err)
	}
	cfg := emu.ProviderConfig() + fmt.Sprintf(`
resource "cloud_identity_user" "u" {
  count     = %d
  user_name = "batch-${count.index}"
}

resource "cloud_identity_service_specific_credential" "k" {
  count               = %d
  user_name           = cloud_identity_user.u[count.index].user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
}
`, keys, keys)
	parallelTest(t, checkNothingLeft(emu), []resource.TestStep{
		{
			Config:      cfg,
			PlanOnly:    true,
			ExpectError: acctest.ErrorRe(`with cloud_identity_service_specific_credential.k\[7\], .*credential_age_days.* refuses a key for user "batch-7" .*"NoKeysForBatch7"`),
		},
	})
	calls := emu.Sent("SimulatePrincipalPolicy")
	// Ten keys at a time: about two calls per ten keys.
	if calls > keys/3 {
		t.Errorf("the plan of %d keys made %d SimulatePrincipalPolicy calls, want at most %d", keys, calls, keys/3)
	}
	t.Logf("the plan of %d keys made %d SimulatePrincipalPolicy calls", keys, calls)
	emu.ExpectCalls(t, "CreateUser", 0, "a refused plan creates nothing")
	emu.ExpectCalls(t, "CreateServiceSpecificCredential", 0, "a refused plan creates nothing")
}
