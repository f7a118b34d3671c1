package policytest_test

import (
	"os"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// TestMain removes the provider the plans' workspaces built once their
// tests have run.
func TestMain(m *testing.M) {
	code := m.Run()
	acctest.RemoveBuiltProvider()
	os.Exit(code)
}
