package provider_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	cloudprovider "github.com/cloudlabs/terraform-provider-cloud/internal/provider"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// notRules are the validators that are no value rule, by type: a rule
// between attributes, an enumeration (each side keeps its own list, which
// the agreement tests compare: TestValueRulesAgree's enumerationsAgree,
// TestControlRulesAgree, TestIdentityRulesAgree's probes), a validator of
// a map's keys (walked: its own validators must pass), Terraform's
// timeouts, and the provider's validators that check a value with
// internal/rules themselves.
var notRules = map[string]string{
	"schemavalidator.ConflictsWithValidator": "between attributes",
	"schemavalidator.AlsoRequiresValidator":  "between attributes",
	"schemavalidator.ExactlyOneOfValidator":  "between attributes",
	"schemavalidator.AtLeastOneOfValidator":  "between attributes",
	"stringvalidator.oneOfValidator":         "an enumeration",
	"mapvalidator.keysAreValidator":          "its key validators, walked",
	"validators.timeDurationValidator":       "Terraform's timeouts (terraform-plugin-framework-timeouts), never sent",
	"validators.positiveDuration":            "Terraform's timeouts, never sent",
	"validators.advancedOptionValues":        "rules.CheckAdvancedOption",
	"validators.snapshotPauseWindow":         "rules.MaxSnapshotPause, between start_time and end_time",
	"validators.jsonObject":                  "the form of a JSON object (its length is rules.DomainConfig's)",
}

// outsideRules are the attributes whose validators hold a rule written
// outside internal/rules, with why: the provider's own settings, which no
// request carries, and values whose rule is not one of a request's.
var outsideRules = map[string]string{
	"provider.access_key":                                            "signs requests; a wrong key is the service's signature error, not a value rule",
	"provider.secret_key":                                            "signs requests, never sent",
	"provider.profile":                                               "a profile of the local shared files, never sent",
	"provider.max_retries":                                           "the provider's retry count, never sent",
	"provider.http_timeout":                                          "the provider's timeout, never sent",
	"provider.list_concurrency":                                      "the provider's concurrency, never sent",
	"provider.apply_principal_arn":                                   "compared with the caller's ARN, never sent",
	"provider.endpoints.identity":                                    "where requests go, never sent",
	"provider.endpoints.search":                                      "where requests go, never sent",
	"provider.endpoints.sts":                                         "where requests go, never sent",
	"provider.endpoints.models":                                      "where requests go, never sent",
	"provider.shared_config_files":                                   "local files, never sent",
	"provider.shared_credentials_files":                              "local files, never sent",
	"provider.assume_role.role_arn":                                  "the token service's RoleArn, whose role must exist: the form of a role's ARN, compiled on first use (~0.6 ms per process)",
	"provider.assume_role.duration":                                  "a duration string, its bounds rules.RoleSessionSeconds: converted before it is sent",
	"provider.assume_role_with_web_identity.role_arn":                "the token service's RoleArn, as assume_role's",
	"provider.assume_role_with_web_identity.web_identity_token_file": "a local file, never sent",
	"cloud_identity_service_specific_credential.renew_before_days":   "the provider's own renewal margin, checked against credential_age_days, never sent",
	"cloud_models_converse.api_key":                                  "the bearer key, not empty; the runtime authenticates it",
	"cloud_models_converse.runtime_url":                              "where requests go, never sent",
	"cloud_models_short_term_api_key.expires_in":                     "a duration string, its bound rules.MaxShortTermKeyLifetime, the minute the provider's own floor: signed, not sent as a value",
}

// TestValueRulesHome walks every schema the provider serves (the provider
// block, the resources, the list resources' configurations, the data
// sources, the ephemeral resources) and fails for a validator that holds a
// value rule written anywhere but internal/rules: each must be derived
// from a rules.Value (validators.StringRule and its kin, which say so by
// validators.Ruled), be no value rule (notRules), or belong to one of the
// provider's own settings (outsideRules, with why).
func TestValueRulesHome(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := cloudprovider.New("test")()
	schemas := map[string]any{}
	var presp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &presp)
	schemas["provider"] = presp.Schema
	lp := p.(provider.ProviderWithListResources)
	for _, f := range p.Resources(ctx) {
		r := f()
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		schemas[resourceName(r)] = resp.Schema
	}
	for _, f := range lp.ListResources(ctx) {
		l := f()
		var resp list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &resp)
		var m resource.MetadataResponse
		l.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "cloud"}, &m)
		schemas["list "+m.TypeName] = resp.Schema
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "cloud"}, &m)
		schemas["data "+m.TypeName] = resp.Schema
	}
	if ep, ok := p.(provider.ProviderWithEphemeralResources); ok {
		for _, f := range ep.EphemeralResources(ctx) {
			e := f()
			var resp ephemeral.SchemaResponse
			e.Schema(ctx, ephemeral.SchemaRequest{}, &resp)
			var m ephemeral.MetadataResponse
			e.Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "cloud"}, &m)
			schemas["ephemeral "+m.TypeName] = resp.Schema
		}
	}
	for _, want := range []string{"provider", "list cloud_identity_user", "list cloud_identity_user_policy_attachment",
		"list cloud_identity_service_specific_credential", "list cloud_search_domain_config"} {
		if _, ok := schemas[want]; !ok {
			t.Fatalf("no schema %q to walk: the walk would miss it", want)
		}
	}

	ruled, used := 0, map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		walkValidators(reflect.ValueOf(schemas[name]), name, func(at string, v any) {
			// A list's own attribute is the resource's setting of the same
			// name: one entry in outsideRules serves both.
			key := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(at, "list "), "data "), "ephemeral ")
			if _, ok := v.(validators.Ruled); ok {
				ruled++
				return
			}
			if _, ok := notRules[typeOf(v)]; ok && !wrapsRule(v) {
				return
			}
			if _, ok := outsideRules[key]; ok {
				used[key] = true
				return
			}
			t.Errorf("%s: a %s holds a value rule written outside internal/rules: derive it from a rules.Value "+
				"(validators.StringRule, Int64Rule, SetRule, ListRule), or, for the provider's own setting that no request carries, "+
				"add it to outsideRules with why", at, typeOf(v))
		})
	}
	for key := range outsideRules {
		if !used[key] {
			t.Errorf("outsideRules names %s, which has no validator of its own rule: remove it", key)
		}
	}
	if ruled == 0 {
		t.Error("no validator derived from internal/rules found: the walk sees nothing")
	}
}

// wrapsRule reports a validator that holds others (mapvalidator.KeysAre)
// with one of them neither derived from a rule nor in notRules.
func wrapsRule(v any) bool {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return false
	}
	ruled := reflect.TypeFor[validators.Ruled]()
	for i := range rv.NumField() {
		f := rv.Field(i)
		if f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Interface {
			continue
		}
		for j := range f.Len() {
			inner := f.Index(j).Elem()
			if !inner.IsValid() || inner.Type().Implements(ruled) {
				continue
			}
			if _, ok := notRules[typeName(inner.Type())]; !ok {
				return true
			}
		}
	}
	return false
}

// walkValidators calls found with each validator of each attribute and
// block of a schema of any kind (provider, resource, list, data source,
// ephemeral), by reflection on their common shape: Attributes, Blocks,
// NestedObject, Validators.
func walkValidators(v reflect.Value, at string, found func(at string, v any)) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	if vs := v.FieldByName("Validators"); vs.IsValid() && vs.Kind() == reflect.Slice {
		for i := range vs.Len() {
			found(at, vs.Index(i).Interface())
		}
	}
	for _, field := range []string{"Attributes", "Blocks"} {
		m := v.FieldByName(field)
		if !m.IsValid() || m.Kind() != reflect.Map {
			continue
		}
		keys := m.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			walkValidators(m.MapIndex(k), at+"."+k.String(), found)
		}
	}
	if n := v.FieldByName("NestedObject"); n.IsValid() {
		walkValidators(n, at, found)
	}
}

// typeOf is a validator's type as its package names it, such as
// stringvalidator.oneOfValidator.
func typeOf(v any) string { return typeName(reflect.TypeOf(v)) }

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.TrimPrefix(fmt.Sprintf("%v", t), "*")
}

func resourceName(r resource.Resource) string {
	var m resource.MetadataResponse
	r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "cloud"}, &m)
	return m.TypeName
}
