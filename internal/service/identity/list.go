package identity

import (
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
)

// limited stops results once limit of them have been pushed: the list
// block's limit (Terraform's default is 100), which the framework leaves to
// the provider. A limit of 0 wants nothing, so no call is made.
func limited(limit int64, results iter.Seq[list.ListResult]) iter.Seq[list.ListResult] {
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
