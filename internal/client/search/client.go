// Package search is a client of the search domain service's REST/JSON API:
// UpdateDomainConfig (with dry runs), DescribeDryRunProgress,
// DescribeDomainChangeProgress, DescribeDomainConfig and ListDomainNames.
package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// SigningName is the SigV4 service name of the search service.
const SigningName = "search"

// pathPrefix is the version segment and service prefix of every path.
const pathPrefix = "/2021-01-01/search/domain/"

// Client calls the search domain service.
type Client struct {
	c *client.Client
}

// New returns a client for the search service at endpoint.
func New(cfg client.Config, endpoint string) (*Client, error) {
	c, err := client.New(cfg, SigningName, endpoint)
	if err != nil {
		return nil, err
	}
	return &Client{c: c}, nil
}

// Region is the region requests are signed for.
func (c *Client) Region() string { return c.c.Region() }

// UpdateDomainConfig changes (or, with DryRun, analyses a change to) a
// domain's configuration. A dry run changes nothing, so it is repeated when
// its outcome is unknown; a real change is not.
func (c *Client) UpdateDomainConfig(ctx context.Context, in *UpdateDomainConfigInput) (*UpdateDomainConfigOutput, error) {
	const op = "UpdateDomainConfig"
	if in == nil {
		return nil, fmt.Errorf("search %s: no input", op)
	}
	p, err := domainPath(op, in.DomainName, "config")
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("search %s: encoding request: %w", op, err)
	}
	out := &UpdateDomainConfigOutput{}
	_, err = c.call(ctx, &client.Request{
		Operation:  op,
		Method:     http.MethodPost,
		Path:       p,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       body,
		Idempotent: in.DryRun != nil && *in.DryRun,
		Sensitive:  in.carriesSecret(),
		Secrets:    in.secrets(),
	}, out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DescribeDryRunProgressInput selects a dry run. DryRunID empty means the
// domain's most recent dry run.
type DescribeDryRunProgressInput struct {
	DomainName       string
	DryRunID         string
	LoadDryRunConfig bool
}

// DescribeDryRunProgress reports a dry run's status and results; with
// LoadDryRunConfig it includes the domain as the change would leave it.
func (c *Client) DescribeDryRunProgress(ctx context.Context, in DescribeDryRunProgressInput) (*DescribeDryRunProgressOutput, error) {
	const op = "DescribeDryRunProgress"
	p, err := domainPath(op, in.DomainName, "dryRun")
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if in.DryRunID != "" {
		if err := ValidID(in.DryRunID); err != nil {
			return nil, fmt.Errorf("search %s: dryRunId: %w", op, err)
		}
		q.Set("dryRunId", in.DryRunID)
	}
	if in.LoadDryRunConfig {
		q.Set("loadDryRunConfig", "true")
	}
	out := &DescribeDryRunProgressOutput{}
	resp, err := c.call(ctx, &client.Request{Operation: op, Method: http.MethodGet, Path: p, Query: q, Idempotent: true}, out)
	if err != nil {
		return nil, err
	}
	out.Clock = client.ClockOf(resp.Header)
	return out, nil
}

// DescribeDomainChangeProgress reports a change's progress. An empty
// changeID means the domain's most recent change.
func (c *Client) DescribeDomainChangeProgress(ctx context.Context, domainName, changeID string) (*ChangeProgressStatus, error) {
	const op = "DescribeDomainChangeProgress"
	p, err := domainPath(op, domainName, "progress")
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if changeID != "" {
		if err := ValidID(changeID); err != nil {
			return nil, fmt.Errorf("search %s: changeid: %w", op, err)
		}
		q.Set("changeid", changeID)
	}
	out := &DescribeDomainChangeProgressOutput{}
	if _, err := c.call(ctx, &client.Request{Operation: op, Method: http.MethodGet, Path: p, Query: q, Idempotent: true}, out); err != nil {
		return nil, err
	}
	if out.ChangeProgressStatus == nil {
		out.ChangeProgressStatus = &ChangeProgressStatus{}
	}
	return out.ChangeProgressStatus, nil
}

// DescribeDomainConfig reads a domain's configuration (the read the design guide
// adds for refresh).
func (c *Client) DescribeDomainConfig(ctx context.Context, domainName string) (*DomainConfig, error) {
	const op = "DescribeDomainConfig"
	p, err := domainPath(op, domainName, "config")
	if err != nil {
		return nil, err
	}
	out := &DescribeDomainConfigOutput{}
	resp, err := c.call(ctx, &client.Request{Operation: op, Method: http.MethodGet, Path: p, Idempotent: true}, out)
	if err != nil {
		return nil, err
	}
	if out.DomainConfig == nil {
		return nil, fmt.Errorf("search %s: answer has no DomainConfig", op)
	}
	out.DomainConfig.Clock = client.ClockOf(resp.Header)
	return out.DomainConfig, nil
}

// ListDomainNames lists the domains of the region the client signs for
// (GET /2021-01-01/search/domain, the real service's ListDomainNames under
// this service's path prefix), sorted by name. engineType, when not empty,
// keeps only that engine's domains (EngineTypeOpenSearch,
// EngineTypeElasticsearch).
func (c *Client) ListDomainNames(ctx context.Context, engineType string) ([]DomainInfo, error) {
	const op = "ListDomainNames"
	var q url.Values
	if engineType != "" {
		q = url.Values{"engineType": {engineType}}
	}
	out := &ListDomainNamesOutput{}
	if _, err := c.call(ctx, &client.Request{Operation: op, Method: http.MethodGet, Path: strings.TrimSuffix(pathPrefix, "/"), Query: q, Idempotent: true}, out); err != nil {
		return nil, err
	}
	slices.SortFunc(out.DomainNames, func(a, b DomainInfo) int { return strings.Compare(a.DomainName, b.DomainName) })
	return out.DomainNames, nil
}

// domainPath validates the domain name and builds an escaped path.
func domainPath(op, domainName, leaf string) (string, error) {
	if err := ValidDomainName(domainName); err != nil {
		return "", fmt.Errorf("search %s: %w", op, err)
	}
	return pathPrefix + url.PathEscape(domainName) + "/" + leaf, nil
}

// call sends req and decodes a 200 answer into out.
func (c *Client) call(ctx context.Context, req *client.Request, out any) (*client.Response, error) {
	resp, err := c.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		return nil, decodeError(req.Operation, resp)
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return nil, fmt.Errorf("search %s: decoding answer: %w", req.Operation, err)
	}
	return resp, nil
}
