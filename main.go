// Command terraform-provider-cloud is the Terraform provider of the cloud.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

// Docs come from `make generate`, which feeds tfplugindocs the schema through
// the Terraform CLI found locally, so nothing is downloaded.
//go:generate make -s generate

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/cloudlabs/cloud",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
