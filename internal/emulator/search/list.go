package search

import (
	"net/http"
	"slices"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// opListDomainNames is GET /2021-01-01/search/domain: the real service's
// ListDomainNames (GET /2021-01-01/domain) under this service's path
// prefix, answering {"DomainNames": [{"DomainName", "EngineType"}]}.
const opListDomainNames = "ListDomainNames"

// Engine types of ListDomainNames, from the engine version's prefix.
var engineTypes = []string{"OpenSearch", "Elasticsearch"}

// domainInfo is one member of ListDomainNames' DomainNames.
type domainInfo struct {
	DomainName string `json:"DomainName"`
	EngineType string `json:"EngineType"`
}

// requestRegion is the region a request was signed for; an unsigned
// request (the admin API's view) is the home region's.
func (s *Service) requestRegion(r *http.Request) string {
	if c := core.CallerFrom(r.Context()); c != nil && c.Region != "" {
		return c.Region
	}
	return s.region
}

// listDomainNames answers ListDomainNames: every domain of the region the
// request was signed for, sorted by name, optionally only those of one
// engine type (the engineType query parameter). The caller holds s.mu.
func (s *Service) listDomainNames(r *http.Request) (any, *apiError) {
	want := r.URL.Query().Get("engineType")
	if want != "" && !slices.Contains(engineTypes, want) {
		return nil, validationError("engineType: must be one of %s", strings.Join(engineTypes, ", "))
	}
	region := s.requestRegion(r)
	out := []domainInfo{}
	for _, d := range s.domains {
		if d.region != region {
			continue
		}
		info := domainInfo{DomainName: d.name, EngineType: engineType(d)}
		if want == "" || info.EngineType == want {
			out = append(out, info)
		}
	}
	slices.SortFunc(out, func(a, b domainInfo) int { return strings.Compare(a.DomainName, b.DomainName) })
	return map[string]any{"DomainNames": out}, nil
}

// engineType is OpenSearch or Elasticsearch, as the domain's engine
// version (OpenSearch_2.19, Elasticsearch_7.10) begins.
func engineType(d *domain) string {
	v, _ := d.config["EngineVersion"].(string)
	for _, t := range engineTypes {
		if strings.HasPrefix(v, t+"_") {
			return t
		}
	}
	return engineTypes[0]
}
