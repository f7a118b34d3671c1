// Command terraform-provider-cloud is the Terraform provider of the cloud.
package main

import (
	"flag"
	"log"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

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

	// Under -debug the logs go straight to the developer's terminal: keep them.
	if !debug {
		for _, name := range quietLogs(os.Environ()) {
			if err := os.Setenv(name, "OFF"); err != nil {
				log.Fatal(err.Error())
			}
		}
	}
	tuneGC()
	if !debug {
		exitWithParent(500*time.Millisecond, func() { os.Exit(1) })
	}
	// providerserver.Serve with protocol 6, the framework's server wrapped.
	fw, ok := providerserver.NewProtocol6(provider.New(version)())().(frameworkServer)
	if !ok {
		log.Fatal("the framework's server does not implement every RPC interface of terraform-plugin-go")
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve("registry.terraform.io/cloudlabs/cloud", func() tfprotov6.ProviderServer { return releasingServer{fw} }, opts...)
	if err != nil {
		log.Fatal(err.Error())
	}
}

// logRequests are the variables by which a user asks for the provider's
// logs: Terraform's own (TF_LOG, TF_LOG_PROVIDER, and TF_TEMP_LOG_PATH,
// which records every level), terraform-plugin-go's (TF_LOG_SDK,
// TF_LOG_SDK_PROTO, TF_LOG_PROVIDER_CLOUD), the framework's
// (TF_LOG_SDK_FRAMEWORK), terraform-plugin-testing's (TF_ACC_LOG_PATH) and
// our subsystems' (TF_LOG_PROVIDER_CLOUD_<SUBSYSTEM>, matched as a prefix).
// An empty value or OFF asks for nothing.
var logRequests = map[string]bool{
	"TF_LOG": true, "TF_LOG_PROVIDER": true, "TF_TEMP_LOG_PATH": true,
	"TF_LOG_SDK": true, "TF_LOG_SDK_PROTO": true, "TF_LOG_SDK_FRAMEWORK": true,
	"TF_LOG_PROVIDER_CLOUD": true, "TF_ACC_LOG_PATH": true,
}

// quietLogs returns the variables that turn the SDK's, the framework's and
// our own loggers off, or none when environ asks for logs. Left alone, the
// SDK and the framework log at TRACE (tens of lines per resource and RPC)
// to a stderr that Terraform parses and then discards unless TF_LOG or
// TF_LOG_PROVIDER is set: a third of the provider's CPU in a refresh.
func quietLogs(environ []string) []string {
	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		if v != "" && !strings.EqualFold(v, "OFF") && (logRequests[name] || strings.HasPrefix(name, "TF_LOG_PROVIDER_CLOUD_")) {
			return nil
		}
	}
	return []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_CLOUD"}
}
