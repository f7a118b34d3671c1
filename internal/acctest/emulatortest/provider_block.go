package emulatortest

import (
	"fmt"
	"strings"
	"time"
)

// ProviderOption changes the provider block ProviderConfig writes.
type ProviderOption func(*providerBlock)

type providerBlock struct {
	region            string
	accessKey         string
	secretKey         string
	httpTimeout       time.Duration
	requiredProviders bool
	extra             string
}

// InRegion signs for region instead of the emulator's home region.
func InRegion(region string) ProviderOption {
	return func(b *providerBlock) { b.region = region }
}

// Credentials signs with accessKey and secretKey instead of the
// emulator's default credentials; with both empty the block names none
// (the provider finds its own: the environment, a profile, a role).
func Credentials(accessKey, secretKey string) ProviderOption {
	return func(b *providerBlock) { b.accessKey, b.secretKey = accessKey, secretKey }
}

// HTTPTimeout sets the provider's http_timeout (each attempt's limit).
func HTTPTimeout(d time.Duration) ProviderOption {
	return func(b *providerBlock) { b.httpTimeout = d }
}

// RequiredProviders adds the terraform block that names the provider's
// source, which a working directory run outside terraform-plugin-testing
// needs.
func RequiredProviders() ProviderOption {
	return func(b *providerBlock) { b.requiredProviders = true }
}

// ProviderArguments adds lines (HCL arguments) inside the provider block.
func ProviderArguments(hcl string) ProviderOption {
	return func(b *providerBlock) { b.extra += hcl }
}

// RequiredProvidersBlock names the provider's source, for a main.tf that
// the provider block is not part of.
const RequiredProvidersBlock = `
terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}
`

// ProviderConfig is a provider block aimed at the emulator, with the
// emulator's credentials and every service's endpoint.
func (e *Emulator) ProviderConfig(opts ...ProviderOption) string {
	b := providerBlock{region: e.Region(), accessKey: e.AccessKeyID(), secretKey: e.SecretAccessKey()}
	for _, opt := range opts {
		opt(&b)
	}
	var s strings.Builder
	if b.requiredProviders {
		s.WriteString(RequiredProvidersBlock)
	}
	fmt.Fprintf(&s, "\nprovider \"cloud\" {\n  region     = %q\n", b.region)
	if b.accessKey != "" || b.secretKey != "" {
		fmt.Fprintf(&s, "  access_key = %q\n  secret_key = %q\n", b.accessKey, b.secretKey)
	}
	if b.httpTimeout > 0 {
		fmt.Fprintf(&s, "  http_timeout = %q\n", b.httpTimeout.String())
	}
	fmt.Fprintf(&s, "  endpoints = {\n    identity = %q\n    search   = %q\n    models   = %q\n  }\n", e.URL, e.URL, e.URL)
	if b.extra != "" {
		s.WriteString(b.extra)
		if !strings.HasSuffix(b.extra, "\n") {
			s.WriteString("\n")
		}
	}
	s.WriteString("}\n")
	return s.String()
}
