package search

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// errDomainNotFound is a domain the service does not know.
var errDomainNotFound = errors.New("search domain not found")

// domainState is a domain's configuration as Terraform values, with its
// change summary.
type domainState struct {
	sections map[string]tftypes.Value
	// latestChange and latestStatus name the domain's most recent change.
	latestChange, latestStatus string
	// running is the id of a change still running; "" when none is.
	running string
}

// findDomainConfig reads a domain's configuration (DescribeDomainConfig):
// errDomainNotFound when there is no such domain. prior supplies what the
// service never returns. While a change runs, its pending values are laid
// over the active ones (see withPending).
func findDomainConfig(ctx context.Context, c *sc.Client, domain string, prior tftypes.Value) (*domainState, error) {
	dc, err := c.DescribeDomainConfig(ctx, domain)
	if errors.Is(err, client.ErrNotFound) {
		return nil, errors.Join(errDomainNotFound, err)
	}
	if err != nil {
		return nil, err
	}
	return newDomainState(dc, prior)
}

func newDomainState(dc *sc.DomainConfig, prior tftypes.Value) (*domainState, error) {
	secs, err := readSections(dc, prior)
	if err != nil {
		return nil, err
	}
	ds := &domainState{sections: secs}
	if d := dc.ChangeProgressDetails; d != nil {
		ds.latestChange, ds.latestStatus = changeID(d), sc.Deref(d.ConfigChangeStatus)
	}
	if id, _ := dc.RunningChange(); id != "" {
		ds.running = id
		withPending(ds.sections, dc.ModifyingProperties)
	}
	return ds, nil
}

// changeID is the id in a change summary; "" for none.
func changeID(d *sc.ChangeProgressDetails) string {
	if d == nil {
		return ""
	}
	return sc.Deref(d.ChangeId)
}

// normalise gives a request value the form decodeJSON gives an answer.
func normalise(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	out, err := decodeJSON(b)
	if err != nil {
		return v
	}
	return out
}

// matches reports whether the answer value got holds the request value
// want (both decoded with decodeJSON): every value sent is there, numbers
// compared as numbers, sets in any order, policies by meaning. What the
// service never returns is not compared.
func (f field) matches(want, got any) bool {
	if f.role == sendOnly {
		return true
	}
	switch f.kind {
	case kInt, kTime:
		a, okA := want.(json.Number)
		b, okB := got.(json.Number)
		if !okA || !okB {
			return false
		}
		x, _, errX := big.ParseFloat(a.String(), 10, 512, big.ToNearestEven)
		y, _, errY := big.ParseFloat(b.String(), 10, 512, big.ToNearestEven)
		return errX == nil && errY == nil && x.Cmp(y) == 0
	case kPolicy:
		a, okA := want.(string)
		b, okB := got.(string)
		if !okA || !okB {
			return false
		}
		x, errX := decodeJSON([]byte(a))
		y, errY := decodeJSON([]byte(b))
		if errX != nil || errY != nil {
			return a == b
		}
		return reflect.DeepEqual(x, y)
	case kStringSet:
		a, okA := want.([]any)
		b, okB := got.([]any)
		if !okA || !okB || len(a) != len(b) {
			return false
		}
		count := map[any]int{}
		for _, e := range b {
			count[e]++
		}
		for _, e := range a {
			if count[e] == 0 {
				return false
			}
			count[e]--
		}
		return true
	case kObject:
		return objectMatches(f.fields, want, got)
	case kObjectList:
		a, okA := want.([]any)
		b, okB := got.([]any)
		if !okA || !okB || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !objectMatches(f.fields, a[i], b[i]) {
				return false
			}
		}
		return true
	case kObjectMap, kStringMap:
		a, okA := want.(map[string]any)
		b, okB := got.(map[string]any)
		if !okA || !okB {
			return false
		}
		for k, v := range a {
			if f.kind == kStringMap && v != b[k] || f.kind == kObjectMap && !objectMatches(f.fields, v, b[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

func objectMatches(fields []field, want, got any) bool {
	a, okA := want.(map[string]any)
	b, okB := got.(map[string]any)
	if !okA || !okB {
		return false
	}
	for _, c := range fields {
		if v, ok := a[c.wire]; ok && !c.matches(v, b[c.wire]) {
			return false
		}
	}
	return true
}
