package identity_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// parallelTest runs steps as a parallel acceptance test against the
// emulator the configurations name; checkDestroy (nil: none) asks the
// emulator that nothing is left after the destroy.
func parallelTest(t *testing.T, checkDestroy resource.TestCheckFunc, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroy,
		Steps:                    steps,
	})
}

// disappearsSteps apply cfg, then remove (behind Terraform's back) what
// the resource at addr manages: the next plan creates it again.
func disappearsSteps(cfg, addr string, remove func() error) []resource.TestStep {
	return []resource.TestStep{
		{
			Config:             cfg,
			Check:              func(*terraform.State) error { return remove() },
			ExpectNonEmptyPlan: true,
		},
		{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
			},
		},
	}
}
