package identity_test

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

// providerFactories serve a new provider for each Terraform command, as
// the provider binary does: nothing carries over between commands but what
// the service holds.
var providerFactories = map[string]func() (tfprotov6.ProviderServer, error){
	acctest.ProviderName: func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(provider.New("test")())()
	},
}
