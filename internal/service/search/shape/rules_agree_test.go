package shape_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// probe is one value of one member: the Terraform value the provider
// validates and the JSON value the emulator is sent. tf is nil for a JSON
// value of another type than the member's Terraform type makes: the
// provider never sends one (its request carries the type the schema
// decides), so the verdict to agree with is a refusal, and the probe holds
// the emulator's types to the section table's.
type probe struct {
	leaf shape.Leaf
	tf   attr.Value
	wire any
	what string
}

// TestValueRulesAgree: for every member of the section table a request
// sends, values derived from its rule (at each limit and one past, empty,
// a wrong enumeration, a wrong type, JSON null, numbers out of range)
// get the same verdict from the provider's validators and from the
// emulator's request check (a Basic dry run), so a plan is never refused
// by one and accepted by the other. Every disagreement is printed. A
// string, whole-number or array member without a rule fails the test:
// add it to rules.DomainConfig (rules.AnyString when any string goes).
// The dedicated master rule, checked by the plan, is
// TestDedicatedMasterRuleAgrees in the service package.
func TestValueRulesAgree(t *testing.T) {
	emu := acctest.NewEmulator(t)
	t.Parallel()
	c, err := searchclient.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}, MaxRetries: -1}, emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	enums := emusearch.Enumerations()
	enumerationsAgree(t, enums)
	var probes []probe
	for _, l := range shape.Leaves() {
		ps, err := probesOf(l, enums[l.RuleKey])
		if err != nil {
			t.Error(err)
			continue
		}
		probes = append(probes, ps...)
	}
	probes = append(probes, advancedOptionProbes()...)
	pause, err := snapshotPauseProbes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	probes = append(probes, pause...)

	disagree := 0
	for _, p := range probes {
		name := fmt.Sprintf("%s = %.60s", p.leaf.RuleKey, p.what)
		providerRefuses := true // a JSON type the provider never sends
		if p.tf != nil {
			diags, err := shape.ValidateField(ctx, p.tf, p.leaf.Path...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			providerRefuses = diags.HasError()
		}
		_, err := c.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{
			DomainName: "demo", DryRun: new(true), DryRunMode: new(searchclient.DryRunModeBasic),
			Sections: map[string]any{p.leaf.Path[0]: nest(p.leaf.RuleKey, p.wire)},
		})
		if err != nil && !errors.Is(err, client.ErrValidation) && !errors.Is(err, client.ErrInvalidType) {
			t.Fatalf("%s: %v", name, err)
		}
		if emulatorRefuses := err != nil; emulatorRefuses != providerRefuses {
			disagree++
			t.Errorf("%s: provider refuses %v, emulator refuses %v (%v)", name, providerRefuses, emulatorRefuses, err)
		} else if err != nil {
			if why := refusedFor(p, err); why != "" {
				disagree++
				t.Errorf("%s: both refuse, but the emulator for another reason: its message %q %s", name, err, why)
			}
		}
	}
	t.Logf("%d probes of %d members, %d disagreements", len(probes), len(shape.Leaves()), disagree)
}

// enumerationsAgree: each member the emulator holds to a list is one the
// provider holds to a list, and the two lists are the same set. (The
// probes then send the union of both, so a value only one side has is a
// disagreement there too.)
func enumerationsAgree(t *testing.T, emu map[string][]string) {
	t.Helper()
	provider := map[string][]string{
		// A control member, not a section's: the client's constants.
		"DryRunMode": {searchclient.DryRunModeBasic, searchclient.DryRunModeVerbose},
		// A map's keys: the provider's mapvalidator.KeysAre list.
		"LogPublishingOptions.*": searchclient.LogTypes,
	}
	for _, l := range shape.Leaves() {
		if l.OneOf != nil {
			provider[l.RuleKey] = l.OneOf
		}
	}
	for key, want := range provider {
		got, ok := emu[key]
		if !ok {
			t.Errorf("%s: the provider allows one of %v, the emulator any value", key, want)
			continue
		}
		if a, b := slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got)); !slices.Equal(a, b) {
			t.Errorf("%s: the provider allows %v, the emulator %v", key, a, b)
		}
	}
	for key, got := range emu {
		if _, ok := provider[key]; !ok {
			t.Errorf("%s: the emulator allows one of %v, the provider any value", key, got)
		}
	}
}

// refusedFor says why the emulator's refusal of p is not one of p's
// member ("" when it is): the message must name the member's path as the
// probe sent it, and, when the member's own rule refuses the value, say
// the rule's words. A refusal for another reason (another member, a
// missing companion, a number strict decoding cannot hold) would
// otherwise count as agreeing.
func refusedFor(p probe, err error) string {
	at := strings.NewReplacer("[]", "[0]", "*", "AUDIT_LOGS").Replace(p.leaf.RuleKey)
	if !strings.Contains(err.Error(), at) {
		return "does not name " + at
	}
	if p.leaf.Rule == nil {
		return ""
	}
	var ruleErr error
	switch v := p.wire.(type) {
	case string:
		ruleErr = p.leaf.Rule.CheckString(v)
	case int64:
		// Past 2^53 strict decoding refuses the number before any rule,
		// naming the member (checked above).
		if v <= 1<<53 && v >= -(1<<53) {
			ruleErr = p.leaf.Rule.CheckWholeNumber(v)
		}
	case []any:
		if p.leaf.Kind == "list" {
			ruleErr = p.leaf.Rule.CheckCount(len(v))
		} else if strs, ok := stringItems(v); ok {
			ruleErr = p.leaf.Rule.CheckStrings(strs)
		}
	}
	if ruleErr != nil && !strings.Contains(err.Error(), ruleErr.Error()) {
		return fmt.Sprintf("does not say the rule's %q", ruleErr)
	}
	return ""
}

// stringItems is v's items when all are strings.
func stringItems(v []any) ([]string, bool) {
	out := make([]string, len(v))
	for i, x := range v {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// probesOf derives the probes of one member from its kind and rule;
// emuOneOf is the emulator's list when it holds the member to one.
func probesOf(l shape.Leaf, emuOneOf []string) ([]probe, error) {
	var out []probe
	add := func(tf attr.Value, wire any, what string) {
		out = append(out, probe{leaf: l, tf: tf, wire: wire, what: what})
	}
	str := func(s, what string) { add(types.StringValue(s), s, what) }
	needsRule := func() error {
		if l.Rule == nil && l.OneOf == nil && emuOneOf == nil {
			return fmt.Errorf("%s (%s) has no value rule: add it to rules.DomainConfig (rules.AnyString when any string goes)", l.RuleKey, l.Kind)
		}
		return nil
	}
	switch l.Kind {
	case "string":
		if err := needsRule(); err != nil {
			return nil, err
		}
		add(nil, 5, "a number")
		add(types.StringNull(), nil, "null")
		if l.OneOf != nil || emuOneOf != nil {
			union := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(l.OneOf), emuOneOf...))))
			for _, v := range union {
				str(v, v)
			}
			str("FOO", "FOO (no such value)")
			str("", `""`)
			str(strings.ToLower(union[0]), "another case")
			return out, nil
		}
		r := *l.Rule
		str("", `""`)
		if f := r.Form; f != nil {
			str(f.Example, f.Example)
			str("has space", `"has space"`)
			str("http://x", "http://x")
		}
		if n := r.Length; n != nil {
			ks := []int64{n.Min - 1, n.Min}
			if n.Max != rules.Unbounded {
				ks = append(ks, n.Max, n.Max+1)
			}
			for _, k := range ks {
				if k < 0 {
					continue
				}
				// Multi-byte characters: lengths count characters.
				str(strings.Repeat("é", int(k)), fmt.Sprintf("%d characters", k))
			}
		}
		if r.Form == nil && r.Length == nil {
			str("any text at all", "any text")
		}
	case "policy":
		add(nil, 5, "a number")
		str("", `""`)
		str("null", "the JSON text null")
		str("[]", "a JSON array")
		str(`"allow"`, "a JSON string")
		str(`{"Version":"2012-10-17","Statement":[]}`, "a JSON object")
		policy := func(n int) string {
			const frame = `{"a":""}`
			return `{"a":"` + strings.Repeat("é", n-len(frame)) + `"}`
		}
		str(policy(rules.MaxAccessPoliciesChars), "102400 characters")
		str(policy(rules.MaxAccessPoliciesChars+1), "102401 characters")
	case "int":
		if err := needsRule(); err != nil {
			return nil, err
		}
		if l.Rule.Range == nil {
			return nil, fmt.Errorf("%s is a whole number without a range", l.RuleKey)
		}
		add(nil, "7", "a string")
		add(nil, 1.5, "1.5")
		add(types.Int64Null(), nil, "null")
		r := *l.Rule.Range
		for _, v := range []int64{r.Min - 1, r.Min, r.Max, r.Max + 1, 1<<53 + 1, -(1<<53 + 1)} {
			add(types.Int64Value(v), v, fmt.Sprint(v))
		}
	case "set":
		if err := needsRule(); err != nil {
			return nil, err
		}
		add(nil, "sg-1", "a string")
		add(types.SetNull(types.StringType), nil, "null")
		set := func(items []string, what string) {
			elems := make([]attr.Value, len(items))
			wire := make([]any, len(items))
			for i, s := range items {
				elems[i], wire[i] = types.StringValue(s), s
			}
			add(types.SetValueMust(types.StringType, elems), wire, what)
		}
		set([]string{}, "no items")
		set([]string{""}, `[""]`)
		set([]string{"id-1"}, "one item")
		if n := l.Rule.Items; n != nil {
			for _, k := range []int64{n.Max, n.Max + 1} {
				items := make([]string, k)
				for i := range items {
					items[i] = fmt.Sprintf("id-%d", i)
				}
				set(items, fmt.Sprintf("%d items", k))
			}
		}
	case "list":
		if err := needsRule(); err != nil {
			return nil, err
		}
		add(nil, "x", "a string")
		if n := l.Rule.Items; n != nil {
			for _, k := range []int64{n.Max, n.Max + 1} {
				tf, err := shape.NullElements(int(k), l.Path...)
				if err != nil {
					return nil, err
				}
				wire := make([]any, k)
				for i := range wire {
					wire[i] = map[string]any{}
				}
				add(tf, wire, fmt.Sprintf("%d items", k))
			}
		}
	case "bool":
		add(types.BoolValue(false), false, "false")
		add(types.BoolNull(), nil, "null")
		add(nil, "true", "a string")
	case "time":
		add(nil, "2030-01-01T00:00:00Z", "a date string")
	case "object", "map", "objectMap":
		add(nil, "x", "a string")
		if l.Kind == "objectMap" {
			add(nil, map[string]any{"DEBUG_LOGS": map[string]any{}}, "an unknown key")
		}
	default:
		return nil, fmt.Errorf("%s: no probes for a %s", l.RuleKey, l.Kind)
	}
	return out, nil
}

// advancedOptionProbes are AdvancedOptions' keys and value forms
// (rules.CheckAdvancedOption on both sides).
func advancedOptionProbes() []probe {
	l := shape.Leaf{Path: []string{"AdvancedOptions"}, RuleKey: "AdvancedOptions", Kind: "map"}
	var out []probe
	for key, values := range map[string][]string{
		rules.AllowExplicitIndex: {"true", "false", "yes", ""},
		rules.FielddataCacheSize: {"unbounded", "40", "40%", "100", "0", "101", "lots"},
		rules.MaxClauseCount:     {"1024", "1", "2147483647", "2147483648", "9999999999", "0", "01", "many"},
		"cluster.max_shards":     {"1"},
	} {
		for _, v := range values {
			out = append(out, probe{
				leaf: l, what: key + "=" + v, wire: map[string]any{key: v},
				tf: types.MapValueMust(types.StringType, map[string]attr.Value{key: types.StringValue(v)}),
			})
		}
	}
	return out
}

// snapshotPauseProbes are windows of the automated snapshot suspension,
// whose time members' rules are the object's (at most 3 days, end after
// start, both set when enabled): validators.SnapshotPauseWindow in the
// provider; in the emulator the request check when enabled lacks a time
// or end is not after start, and the 3 days refused outright by the Basic
// dry run these probes send (a Verbose dry run reports it as
// CRIT_SNAPSHOT_PAUSE_TOO_LONG, a change is blocked by it).
func snapshotPauseProbes(ctx context.Context) ([]probe, error) {
	l := shape.Leaf{Path: []string{"AutomatedSnapshotPauseOptions"}, RuleKey: "AutomatedSnapshotPauseOptions", Kind: "object"}
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []probe
	for _, c := range []struct {
		what    string
		enabled bool
		end     time.Duration // after start; 0 for no end
	}{
		{"3 days", true, 72 * time.Hour},
		{"3 days and 1 second", true, 72*time.Hour + time.Second},
		{"1 hour", true, time.Hour},
		{"end at start", true, -0},
		{"end before start", true, -time.Hour},
		{"enabled without end", true, 0},
		{"disabled without end", false, 0},
		{"disabled, 4 days", false, 96 * time.Hour},
	} {
		tf := map[string]any{"enabled": c.enabled, "start_time": start.Format(time.RFC3339)}
		wire := map[string]any{"Enabled": c.enabled, "StartTime": start.Unix()}
		if c.end != 0 || c.what == "end at start" {
			end := start.Add(c.end)
			tf["end_time"], wire["EndTime"] = end.Format(time.RFC3339), end.Unix()
		}
		obj, err := shape.ObjectOf(ctx, tf, l.Path...)
		if err != nil {
			return nil, err
		}
		out = append(out, probe{leaf: l, tf: obj, wire: wire, what: c.what})
	}
	return out, nil
}

// nest is v at the member the rule key names, below its section: an
// array of objects holds one element, a map of objects one key.
func nest(key string, v any) any {
	segs := strings.Split(key, ".")
	for i := len(segs) - 1; i > 0; i-- {
		switch seg := segs[i]; {
		case seg == "*":
			v = map[string]any{"AUDIT_LOGS": v}
		case strings.HasSuffix(seg, "[]"):
			v = map[string]any{strings.TrimSuffix(seg, "[]"): []any{v}}
		default:
			v = map[string]any{seg: v}
		}
	}
	return v
}
