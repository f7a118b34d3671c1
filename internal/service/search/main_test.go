package search_test

import (
	"os"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// TestMain removes the provider binary the tests that run it built once
// the package's tests have run.
func TestMain(m *testing.M) {
	code := m.Run()
	acctest.RemoveBuiltProvider()
	os.Exit(code)
}
