package provider_test

import (
	"os"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
)

// TestMain removes the provider binary BuildProvider built once the
// package's tests have run.
func TestMain(m *testing.M) { os.Exit(acctest.RunTests(m)) }
