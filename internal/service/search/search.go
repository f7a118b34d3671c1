// Package search holds the search domain service's Terraform types: the
// configuration of a domain, and data sources that read its dry runs and
// configuration changes.
package search

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
)

// DataSources lists the service's data sources.
func DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewDryRunDataSource,
		NewChangeProgressDataSource,
	}
}
