package shape

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// Read is every section of a DomainConfig answer as Terraform values, by
// Terraform name. prior (the state, or the plan) supplies what the service
// never returns.
func Read(dc *searchclient.DomainConfig, prior tftypes.Value) (map[string]tftypes.Value, error) {
	return read(func(wire string) (json.RawMessage, bool) {
		sec, ok := dc.Sections[wire]
		return sec.Options, ok
	}, prior)
}

// ReadPlanned is every section of a dry run's DryRunConfig (the domain as
// the change would leave it) as Terraform values, as Read reads a
// DomainConfig.
func ReadPlanned(dc *searchclient.DomainStatus, prior tftypes.Value) (map[string]tftypes.Value, error) {
	return read(func(wire string) (json.RawMessage, bool) {
		raw, ok := dc.Members[wire]
		return raw, ok
	}, prior)
}

// read reads each section's answer value, by wire name, from member.
func read(member func(wire string) (json.RawMessage, bool), prior tftypes.Value) (map[string]tftypes.Value, error) {
	priors := tfvalue.Attributes(prior)
	all := sections()
	out := make(map[string]tftypes.Value, len(all))
	for i := range all {
		s := &all[i]
		var w any
		if raw, ok := member(s.wire); ok {
			var err error
			if w, err = decodeJSON(raw); err != nil {
				return nil, fmt.Errorf("%s: %w", s.wire, err)
			}
		}
		v, err := s.fromWire(w, priors[s.name], resourceView)
		if err != nil {
			return nil, err
		}
		out[s.name] = v
	}
	return out, nil
}

// ReadDryRunConfig is a dry run's DryRunConfig as the Terraform value of
// DryRunConfigAttributes. The values of a secret's modifying properties
// are not shown, as in the resource's dry_run.
func ReadDryRunConfig(dc *searchclient.DomainStatus) (tftypes.Value, error) {
	members := make(map[string]any, len(dc.Members))
	for k, raw := range dc.Members {
		v, err := decodeJSON(raw)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s: %w", k, err)
		}
		members[k] = v
	}
	props, _ := members["ModifyingProperties"].([]any)
	for _, e := range props {
		if p, ok := e.(map[string]any); ok {
			if name, _ := p["Name"].(string); SensitiveProperty(name) {
				p["ActiveValue"], p["PendingValue"] = SensitiveValue, SensitiveValue
			}
		}
	}
	return objectFromWire(dryRunConfig(), members, tftypes.Value{}, answerView)
}

// WithPending lays the pending values of a running change over the
// sections read from the domain: the service reports the old values as
// active until the change completes, and the state must show where the
// domain is going, so a plan neither shows the running change again nor
// sends it twice. A property this provider cannot place is left alone.
func WithPending(secs map[string]tftypes.Value, props []searchclient.ModifyingProperty) {
	for _, p := range props {
		segs := strings.Split(searchclient.Deref(p.Name), ".")
		sec, found := sectionByWire(segs[0])
		if !found || p.PendingValue == nil {
			continue
		}
		if v, err := sec.setPending(secs[sec.name], segs[1:], *p.PendingValue); err == nil {
			secs[sec.name] = v
		}
	}
}

// SensitiveValue stands for the values of a sensitive property wherever
// a dry run's or a change's properties are shown.
const SensitiveValue = "(sensitive value)"

// SensitiveProperty reports a property whose values must not be shown.
func SensitiveProperty(name string) bool {
	f, ok := propertyField(name)
	return ok && (f.sensitive || hasSensitive(f.fields))
}

// propertyField is the field a ModifyingProperties name denotes.
func propertyField(name string) (*field, bool) {
	segs := strings.Split(name, ".")
	cur, found := sectionByWire(segs[0])
	for _, seg := range segs[1:] {
		if !found {
			break
		}
		cur, found = cur.kind.member(cur, seg)
	}
	return cur, found
}
