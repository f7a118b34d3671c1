package shape

import (
	"encoding/json"
	"reflect"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// Request is the request members (by wire name) of the named sections, as
// the configuration sets them.
func Request(config tftypes.Value, names map[string]bool) (map[string]any, error) {
	cfg := tfvalue.Attributes(config)
	out := map[string]any{}
	all := sections()
	for i := range all {
		s := &all[i]
		if !names[s.name] {
			continue
		}
		w, ok, err := s.toWire(cfg[s.name])
		if err != nil {
			return nil, err
		}
		if ok {
			out[s.wire] = w
		}
	}
	return out, nil
}

// SetsHidden reports whether the request of the named sections, as the
// configuration sets them, sets a member the service never returns (the
// master user, SAML's master user and backend role): no answer shows what
// such a request asked for.
func SetsHidden(config tftypes.Value, names map[string]bool) bool {
	cfg := tfvalue.Attributes(config)
	all := sections()
	for i := range all {
		s := &all[i]
		if !names[s.name] {
			continue
		}
		sent, _, err1 := s.toWire(cfg[s.name])
		shown, _, err2 := s.toWire(s.shown(cfg[s.name]))
		if err1 != nil || err2 != nil || !reflect.DeepEqual(Normalise(sent), Normalise(shown)) {
			return true
		}
	}
	return false
}

// ShownSection is one section as the service shows it, in its request
// form: what the service never returns (the master user) left out.
type ShownSection struct {
	Name, Wire string
	// Value is the request value; Set is false when there is none.
	Value any
	Set   bool
	// Err is a value that could not be put in request form.
	Err error
}

// Shown is every section of secs as the service shows it, in the spec's
// order.
func Shown(secs map[string]tftypes.Value) []ShownSection {
	all := sections()
	out := make([]ShownSection, 0, len(all))
	for i := range all {
		s := &all[i]
		w, ok, err := s.toWire(s.shown(secs[s.name]))
		out = append(out, ShownSection{Name: s.name, Wire: s.wire, Value: w, Set: ok, Err: err})
	}
	return out
}

// Normalise gives a request value the form an answer is read in (numbers
// exact, as json.Number), so equal requests give equal bytes.
func Normalise(v any) any {
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
