package models_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// TestAccConverse_longTermKeyLifecycle: a new key answers in its region,
// is refused in another with the spec's words, and is refused once
// deactivated, after a reset (old value) and after deletion.
func TestAccConverse_longTermKeyLifecycle(t *testing.T) {
	emu := acctest.NewEmulator(t)
	pc := emu.ProviderConfig()
	keep := func(name, value string) string {
		return `
resource "terraform_data" "` + name + `" {
  input = ` + value + `
  lifecycle {
    ignore_changes = [input]
  }
}
`
	}
	v1 := keep("v1", keyValue)
	home := converseData("home", keyValue, "")
	noKey := pc + `
resource "cloud_identity_user" "test" {
  user_name = "alice"
}

resource "cloud_identity_user_policy_attachment" "p0" {
  user_name  = cloud_identity_user.test.user_name
  policy_arn = "` + limitedAccess + `"
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: keyConfig(pc, "alice", "", home+v1, limitedAccess),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.cloud_models_converse.home", tfjsonpath.New("text"), knownvalue.StringExact("hello from home")),
					statecheck.ExpectKnownValue("data.cloud_models_converse.home", tfjsonpath.New("stop_reason"), knownvalue.StringExact("end_turn")),
					statecheck.ExpectKnownValue("data.cloud_models_converse.home", tfjsonpath.New("total_tokens"), knownvalue.Int64Exact(6)),
					statecheck.ExpectKnownValue("data.cloud_models_converse.home", tfjsonpath.New("region"), knownvalue.StringExact("us-east-1")),
					statecheck.ExpectKnownValue("data.cloud_models_converse.home", tfjsonpath.New("runtime_url"), knownvalue.StringExact(emu.URL+"/region/us-east-1")),
				},
			},
			{
				Config:      keyConfig(pc, "alice", "", home+v1+converseData("west", keyValue, `region = "us-west-2"`), limitedAccess),
				ExpectError: acctest.ErrorRe(regionMessage),
			},
			{
				Config:      keyConfig(pc, "alice", `status = "Inactive"`, home+v1, limitedAccess),
				ExpectError: acctest.ErrorRe(`is Inactive\. Reactivate it`),
			},
			{
				Config: keyConfig(pc, "alice", "status = \"Active\"\n  reset_triggers = { n = \"1\" }", home+v1+
					converseDataAfter("old", "terraform_data.v1.output", "", "cloud_identity_service_specific_credential.test"), limitedAccess),
				ExpectError: acctest.ErrorRe(`was replaced by a reset`),
			},
			{
				Config: keyConfig(pc, "alice", "status = \"Active\"\n  reset_triggers = { n = \"1\" }", home+v1+keep("v2", keyValue), limitedAccess),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.cloud_models_converse.home", tfjsonpath.New("text"), knownvalue.StringExact("hello from home")),
				},
			},
			{
				// The key is deleted; the kept copies no longer follow it.
				Config: noKey + keep("v1", `"unused"`) + keep("v2", `"unused"`),
			},
			{
				Config:      noKey + keep("v1", `"unused"`) + keep("v2", `"unused"`) + converseData("deleted", "terraform_data.v2.output", ""),
				ExpectError: acctest.ErrorRe(`was deleted`),
			},
		},
	})
}
