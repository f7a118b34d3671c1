// Package search holds the search domain service's Terraform types: the
// configuration of a domain, and data sources that read its dry runs and
// configuration changes.
package search

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// DataSources lists the service's data sources.
func DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewDryRunDataSource,
		NewChangeProgressDataSource,
	}
}

// Resources lists the service's resources.
func Resources() []func() resource.Resource {
	return []func() resource.Resource{NewDomainConfigResource}
}

// ListResources lists the service's list resources (terraform query).
func ListResources() []func() list.ListResource {
	return []func() list.ListResource{NewDomainConfigList}
}
