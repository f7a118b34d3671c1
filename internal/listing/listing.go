// Package listing holds what every list resource of the provider does the
// same way for terraform query: read the list block's configuration, stop
// at its limit, push a failure or a warning as a result, and set a
// result's resource when the query asks for it. It imports no service
// package; each service's list resources use it.
//
// A list resource's List reads its configuration with Config, then sets
// stream.Results to Limited(req.Limit, ...), inside which every call to
// the service is made: a failure is pushed as Error (which ends the
// query), and nothing is called before the stream is read.
package listing

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
)

// Config reads the list block's configuration into model. When it cannot,
// the stream is the diagnostics and Config returns false.
func Config(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream, model any) bool {
	if diags := tfmodel.Get(ctx, req.Config, model); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return false
	}
	return true
}

// Limited stops results once limit of them have been pushed: the list
// block's limit (Terraform's default is 100), which the framework leaves to
// the provider. A limit of 0 wants nothing, so no call is made.
func Limited(limit int64, results iter.Seq[list.ListResult]) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		if limit <= 0 {
			return
		}
		var n int64
		results(func(r list.ListResult) bool {
			if !push(r) {
				return false
			}
			n++
			return n < limit
		})
	}
}

// Error is a list result that stops the query with an error.
func Error(summary, detail string) list.ListResult {
	var diags diag.Diagnostics
	diags.AddError(summary, detail)
	return list.ListResult{Diagnostics: diags}
}

// Warning is a list result that only warns, about the list block's
// argument at.
func Warning(at path.Path, summary, detail string) list.ListResult {
	var diags diag.Diagnostics
	diags.AddAttributeWarning(at, summary, detail)
	return list.ListResult{Diagnostics: diags}
}

// SetResource sets result's resource to model, the resource as an import
// would read it, when the query asks for resources (include_resource).
func SetResource(ctx context.Context, req list.ListRequest, result *list.ListResult, model any) {
	if req.IncludeResource {
		result.Diagnostics.Append(tfmodel.Set(ctx, result.Resource, model)...)
	}
}
