// Package models holds the model runtime's Terraform types: the short-term
// API key (ephemeral) and the Converse smoke-test data source.
package models

import (
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"

	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// DataSources lists the service's data sources.
func DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{NewConverseDataSource}
}

// EphemeralResources lists the service's ephemeral resources.
func EphemeralResources() []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{NewShortTermAPIKeyEphemeralResource, NewConverseEphemeralResource}
}

// customEndpoint is the provider's models endpoint when one is configured
// (not the default of the provider's region), else "".
func customEndpoint(c *conns.Clients) string {
	if c.Endpoints.Models == "" || c.Endpoints.Models == "https://"+modelsclient.DefaultHost(c.Region) {
		return ""
	}
	return strings.TrimSuffix(c.Endpoints.Models, "/")
}

// RuntimeURL is the runtime of region: with a custom models endpoint (such
// as the emulator's) <endpoint>/region/<region>, which serves any region;
// else https://runtime.models.<region>.cloud.example.
func RuntimeURL(c *conns.Clients, region string) string {
	if ep := customEndpoint(c); ep != "" {
		return ep + "/region/" + region
	}
	return "https://" + modelsclient.DefaultHost(region)
}

// tokenHost is the models host a short-term key names: the custom
// endpoint's host, else runtime.models.<region>.cloud.example.
func tokenHost(c *conns.Clients, region string) string {
	if ep := customEndpoint(c); ep != "" {
		if u, err := url.Parse(ep); err == nil && u.Host != "" {
			return u.Host
		}
	}
	return modelsclient.DefaultHost(region)
}
