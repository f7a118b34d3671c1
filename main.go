// Command terraform-provider-cloud is the Terraform provider of the cloud.
package main

import (
	"flag"
	"log"

	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
	"github.com/cloudlabs/terraform-provider-cloud/internal/serve"
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
	if err := serve.Run("registry.terraform.io/cloudlabs/cloud", provider.New(version), debug); err != nil {
		log.Fatal(err.Error())
	}
}
