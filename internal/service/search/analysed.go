package search

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// What a dry run analysed, by the service's own record of it: its
// DryRunConfig (the domain as the change would leave it) and its accepted
// warnings. A dry run stands for a request only when that record is the
// domain as it is now with the request laid over: then it analysed the
// same change from the same starting point, whoever made it and whatever a
// local file says of it.

// plannedInOwnShape are the sections a DryRunConfig shows in a shape of
// its own, not the configuration's (the spec: AutoTuneOptions is its
// state there, not its settings), so its planned values cannot be
// compared; what the dry run changes in them shows in its
// ModifyingProperties.
var plannedInOwnShape = map[string]bool{"AutoTuneOptions": true}

// notAnalysed says why the dry run whose record is planned and accepted
// did not analyse in on the domain as it is now (live); "" when it did:
// each section in sets is, in planned, the domain's with in's members laid
// over (the service keeps what a request leaves out, member by member),
// every other section is the domain's, every property it would modify is
// in a section in sets, and it accepted the same warnings. prior supplies
// what the service never returns, to both sides alike.
func notAnalysed(planned *searchclient.DomainStatus, accepted []string, live *domainState, in *searchclient.UpdateDomainConfigInput, prior tftypes.Value) string {
	if !slices.Equal(sortedCopy(accepted), sortedCopy(in.AcceptedWarnings)) {
		return "it accepted other warnings"
	}
	for _, mp := range planned.ModifyingProperties {
		name := searchclient.Deref(mp.Name)
		if _, ok := in.Sections[strings.SplitN(name, ".", 2)[0]]; !ok {
			return "it modifies " + name + ", which this request does not set"
		}
	}
	secs, err := shape.ReadPlanned(planned, prior)
	if err != nil {
		return "its planned configuration could not be read: " + err.Error()
	}
	now, then := shape.Shown(live.sections), shape.Shown(secs)
	for i, cur := range now {
		req, sets := in.Sections[cur.Wire]
		switch {
		case plannedInOwnShape[cur.Wire] && sets:
			return "its record does not show what it plans for " + cur.Wire
		case plannedInOwnShape[cur.Wire]:
			continue
		case cur.Err != nil || then[i].Err != nil:
			return cur.Wire + " could not be compared"
		}
		want := shownValue(cur)
		if sets {
			want = layOver(want, shape.Normalise(req))
		}
		if !sameWire(want, shownValue(then[i])) {
			return "it plans " + cur.Wire + " otherwise than this request on the domain as it is"
		}
	}
	return ""
}

// shownValue is a section as the service shows it, nil when unset.
func shownValue(s shape.ShownSection) any {
	if !s.Set {
		return nil
	}
	return shape.Normalise(s.Value)
}

// layOver is base with the request's members laid over, as the service
// applies a request: objects (maps too) member by member, anything else
// replaced; a member the request leaves null is kept.
func layOver(base, req any) any {
	rm, ok := req.(map[string]any)
	bm, ok2 := base.(map[string]any)
	if !ok || !ok2 {
		return req
	}
	out := make(map[string]any, len(bm)+len(rm))
	for k, v := range bm {
		out[k] = v
	}
	for k, v := range rm {
		if v != nil {
			out[k] = layOver(bm[k], v)
		}
	}
	return out
}

// sameWire reports whether a and b are the same JSON value (encoding/json
// sorts map keys).
func sameWire(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
