// Package serve runs the provider's gRPC server for Terraform, with the
// workarounds a provider process needs that the framework does not give:
// loggers quiet unless asked for, an end when Terraform is gone, request
// contexts let go of once answered, and a garbage collector tuned for it.
package serve

import (
	"errors"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Run serves the provider at address (protocol 6) until Terraform ends
// it. With debug it runs for a debugger (delve): its logs go straight to
// the developer's terminal, and it outlives whatever started it.
func Run(address string, newProvider func() provider.Provider, debug bool) error {
	tuneGC()
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	} else {
		if err := quietenLogs(); err != nil {
			return err
		}
		exitWithParent(500*time.Millisecond, func() { os.Exit(1) })
	}
	fw, ok := providerserver.NewProtocol6(newProvider())().(frameworkServer)
	if !ok {
		return errors.New("the framework's server does not implement every RPC interface of terraform-plugin-go")
	}
	return tf6server.Serve(address, func() tfprotov6.ProviderServer { return releasingServer{fw} }, opts...)
}

// quietenLogs turns off the loggers nobody asked for (see quietLogs).
func quietenLogs() error {
	for _, name := range quietLogs(os.Environ()) {
		if err := os.Setenv(name, "OFF"); err != nil {
			return err
		}
	}
	return nil
}

// asksForLogs reports whether name is a variable by which a user asks for
// the provider's logs: Terraform's own (TF_LOG, TF_LOG_PROVIDER, and
// TF_TEMP_LOG_PATH, which records every level), terraform-plugin-go's
// (TF_LOG_SDK, TF_LOG_SDK_PROTO, TF_LOG_PROVIDER_CLOUD), the framework's
// (TF_LOG_SDK_FRAMEWORK), terraform-plugin-testing's (TF_ACC_LOG_PATH) and
// our subsystems' (TF_LOG_PROVIDER_CLOUD_<SUBSYSTEM>, matched as a prefix).
// An empty value or OFF asks for nothing (see quietLogs).
func asksForLogs(name string) bool {
	switch name {
	case "TF_LOG", "TF_LOG_PROVIDER", "TF_TEMP_LOG_PATH",
		"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK",
		"TF_LOG_PROVIDER_CLOUD", "TF_ACC_LOG_PATH":
		return true
	}
	return strings.HasPrefix(name, "TF_LOG_PROVIDER_CLOUD_")
}

// quietLogs returns the variables that turn the SDK's, the framework's and
// our own loggers off, or none when environ asks for logs. Left alone, the
// SDK and the framework log at TRACE (tens of lines per resource and RPC)
// to a stderr that Terraform parses and then discards unless TF_LOG or
// TF_LOG_PROVIDER is set: a third of the provider's CPU in a refresh.
func quietLogs(environ []string) []string {
	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		if v != "" && !strings.EqualFold(v, "OFF") && asksForLogs(name) {
			return nil
		}
	}
	return []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_CLOUD"}
}
