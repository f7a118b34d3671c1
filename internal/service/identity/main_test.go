package identity_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/keyjournal"
	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

// TestMain keeps the key journal of the in-process providers in a
// temporary directory, not the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "key-journal-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_ = os.Setenv(keyjournal.EnvDir, dir)
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// providerFactories serve a new provider for each Terraform command, as
// the provider binary does: each command is its own key journal instance,
// so a command can recover what an earlier, failed one left.
var providerFactories = map[string]func() (tfprotov6.ProviderServer, error){
	acctest.ProviderName: func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(provider.New("test")())()
	},
}
