package search_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// TestListDomainNames: the domains of the region the request is signed
// for, sorted, with their engine type; another region's domains are not
// listed and not found.
func TestListDomainNames(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	for _, spec := range []search.DomainSpec{
		{DomainName: "logs"},
		{DomainName: "legacy", EngineVersion: "Elasticsearch_7.10"},
		{DomainName: "west", Region: "us-west-2"},
	} {
		if err := env.e.Search.AddDomain(spec); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.e.Search.AddDomain(search.DomainSpec{DomainName: "mars", Region: "Mars"}); err == nil || !strings.Contains(err.Error(), `the region "Mars" is not a region name`) {
		t.Errorf("a domain in region Mars: %v, want refused", err)
	}
	got, err := env.c.ListDomainNames(ctx(t), "")
	if err != nil {
		t.Fatal(err)
	}
	want := []api.DomainInfo{{DomainName: "demo", EngineType: "OpenSearch"}, {DomainName: "legacy", EngineType: "Elasticsearch"}, {DomainName: "logs", EngineType: "OpenSearch"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("us-east-1 (-want +got):\n%s", d)
	}
	got, err = env.c.ListDomainNames(ctx(t), api.EngineTypeElasticsearch)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want[1:2], got); d != "" {
		t.Errorf("engineType=Elasticsearch (-want +got):\n%s", d)
	}

	west, err := api.New(client.Config{
		Region:      "us-west-2",
		Credentials: client.Credentials{AccessKeyID: emulator.DefaultAccessKeyID, SecretAccessKey: emulator.DefaultSecretAccessKey},
		MaxRetries:  -1,
	}, env.url)
	if err != nil {
		t.Fatal(err)
	}
	got, err = west.ListDomainNames(ctx(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]api.DomainInfo{{DomainName: "west", EngineType: "OpenSearch"}}, got); d != "" {
		t.Errorf("us-west-2 (-want +got):\n%s", d)
	}
	if _, err := west.DescribeDomainConfig(ctx(t), "demo"); apiErr(t, err).Code != "ResourceNotFoundException" {
		t.Errorf("us-west-2 reads us-east-1's demo domain: %v", err)
	}
	if _, err := env.c.DescribeDomainConfig(ctx(t), "west"); apiErr(t, err).Code != "ResourceNotFoundException" {
		t.Errorf("us-east-1 reads us-west-2's domain: %v", err)
	}

	resp, err := env.raw.Do(ctx(t), &client.Request{Operation: "Raw", Method: http.MethodGet, Path: "/2021-01-01/search/domain", Query: url.Values{"engineType": {"Solr"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(resp.Body), `"ValidationException"`) {
		t.Errorf("engineType=Solr: HTTP %d %s, want 400 ValidationException", resp.StatusCode, resp.Body)
	}
}
