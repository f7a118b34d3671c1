package search_test

import (
	"strings"
	"testing"
	"time"

	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestEverySectionDomainARNsNameItsRegion: the fixture's ARNs and pool
// ids name the domain's region, so a us-west-2 domain names no us-east-1
// resource.
func TestEverySectionDomainARNsNameItsRegion(t *testing.T) {
	for region, want := range map[string]string{"us-west-2": "us-west-2", "": "us-east-1"} {
		config := string(emusearch.EverySectionDomain("d", region, time.Now()).Config)
		for _, prefix := range []string{"arn:cloud:search:", "arn:cloud:acm:", "arn:cloud:logs:"} {
			if n, all := strings.Count(config, prefix+want+":"), strings.Count(config, prefix); n == 0 || n != all {
				t.Errorf("region %q: %d of %d %s ARNs name %s:\n%s", region, n, all, prefix, want, config)
			}
		}
		if !strings.Contains(config, `"IdentityPoolId": "`+want+`:pool-1"`) {
			t.Errorf("region %q: the identity pool is not of %s:\n%s", region, want, config)
		}
	}
}
