package reliability

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// badCase is one configuration the provider must refuse before any API
// call, with an error on attr (a top-level argument of the block).
type badCase struct {
	name string
	kind string // resource, data, ephemeral or provider
	typ  string // type name ("" for provider)
	body string
	attr string
	want string // regexp over summary and detail
	// leaf, when set, is a nested attribute the error may name instead of
	// pointing at attr (Terraform points nested errors at the block).
	leaf  string
	label string // set by the test
}

const (
	domainOK = `domain_name = "demo"` + "\n"
	userOK   = `user_name = "alice"` + "\n"
	id36     = "3f1c9a2e-4b7d-4e8f-9a0b-1c2d3e4f5a6b"
)

func badCases() []badCase {
	dc := func(name, body, attr, want string) badCase {
		return badCase{name: name, kind: "resource", typ: "cloud_search_domain_config", body: body, attr: attr, want: want}
	}
	dcOK := func(name, body, attr, want string) badCase { return dc(name, domainOK+body, attr, want) }
	key := func(name, body, attr, want string) badCase {
		return badCase{name: name, kind: "resource", typ: "cloud_identity_service_specific_credential", body: userOK + `service_name = "models.cloud.example"` + "\n" + body, attr: attr, want: want}
	}
	prov := func(name, body, attr, want string) badCase {
		return badCase{name: name, kind: "provider", body: body, attr: attr, want: want}
	}
	return []badCase{
		// Search domain: DomainName 3 to 28 characters, [a-z][a-z0-9\-]+.
		dc("domain name too short", `domain_name = "ab"`, "domain_name", `string length must be between 3 and 28`),
		dc("domain name too long", `domain_name = "`+strings.Repeat("d", 29)+`"`, "domain_name", `string length must be between 3 and 28`),
		dc("domain name upper case", `domain_name = "Demo"`, "domain_name", `must start with a lower-case letter`),
		dc("domain name starts with a digit", `domain_name = "1demo"`, "domain_name", `must start with a lower-case letter`),
		dc("domain name underscore", `domain_name = "my_domain"`, "domain_name", `must start with a lower-case letter`),
		// AcceptedWarnings at most 25.
		dcOK("26 accepted warnings", `accepted_warnings = [for i in range(26) : format("ADV_CODE_%02d", i)]`, "accepted_warnings", `set must contain at most 25 elements`),
		dcOK("accepted warning not a code", `accepted_warnings = ["not a code"]`, "accepted_warnings", `must be a validation code`),
		// AccessPolicies 0 to 102400 characters.
		dcOK("access policies over 102400", `access_policies = jsonencode({ Version = "2012-10-17", Pad = format("%0102400d", 0) })`, "access_policies", `character count must be at most 102400`),
		// AccessPolicies is a policy document: a JSON object.
		dcOK("access policies an array", `access_policies = jsonencode(["s3:*"])`, "access_policies", `must be a JSON policy document, an object.*got an array`),
		dcOK("access policies a string", `access_policies = jsonencode("allow")`, "access_policies", `must be a JSON policy document, an object.*got a string`),
		// AdvancedOptions: the three keys, string values of their forms.
		dcOK("advanced option unknown key", `advanced_options = { "cluster.max_shards" = "1" }`, "advanced_options", `cluster\.max_shards`),
		dcOK("allow_explicit_index not true/false", `advanced_options = { "rest.action.multi.allow_explicit_index" = "yes" }`, "advanced_options", `"true" or "false"`),
		dcOK("fielddata cache size not a percentage", `advanced_options = { "indices.fielddata.cache.size" = "lots" }`, "advanced_options", `indices\.fielddata\.cache\.size`),
		dcOK("max_clause_count not a number", `advanced_options = { "indices.query.bool.max_clause_count" = "many" }`, "advanced_options", `indices\.query\.bool\.max_clause_count`),
		// Enumerations.
		dcOK("engine mode", `engine_mode = "FAST"`, "engine_mode", `value must be one of: \["GENERAL" "OPTIMIZED"\]`),
		dcOK("ip address type", `ip_address_type = "ipv6"`, "ip_address_type", `value must be one of: \["ipv4" "dualstack"\]`),
		dcOK("use case", `use_case = "GAMES"`, "use_case", `value must be one of: \["SEARCH" "VECTOR" "OBSERVABILITY" "MIXED"\]`),
		dcOK("dry run mode", `dry_run_mode = "Loud"`, "dry_run_mode", `value must be one of: \["Verbose" "Basic" "Off"\]`),
		dcOK("log publishing key", `log_publishing_options = { DEBUG_LOGS = { enabled = true } }`, "log_publishing_options", `INDEX_SLOW_LOGS`),
		// Hours 0-23, minutes 0-59.
		dcOK("off-peak hour 24", `off_peak_window_options = { off_peak_window = { window_start_time = { hours = 24, minutes = 0 } } }`, "off_peak_window_options", `hours value must be between 0 and 23`),
		dcOK("off-peak minute 60", `off_peak_window_options = { off_peak_window = { window_start_time = { hours = 1, minutes = 60 } } }`, "off_peak_window_options", `minutes value must be between 0 and 59`),
		dcOK("snapshot hour -1", `snapshot_options = { automated_snapshot_start_hour = -1 }`, "snapshot_options", `value must be between 0 and 23`),
		dcOK("snapshot hour 24", `snapshot_options = { automated_snapshot_start_hour = 24 }`, "snapshot_options", `value must be between 0 and 23`),
		// Automated snapshot suspension at most 3 days.
		dcOK("snapshot pause over 3 days", `automated_snapshot_pause_options = { enabled = true, start_time = "2026-01-01T00:00:00Z", end_time = "2026-01-04T00:00:01Z" }`, "automated_snapshot_pause_options", `Snapshot Suspension Too Long.*at most 3 days`).nested("end_time"),
		dcOK("snapshot pause ends first", `automated_snapshot_pause_options = { enabled = true, start_time = "2026-01-02T00:00:00Z", end_time = "2026-01-01T00:00:00Z" }`, "automated_snapshot_pause_options", `must be after start_time`).nested("end_time"),
		dcOK("snapshot pause enabled without times", `automated_snapshot_pause_options = { enabled = true }`, "automated_snapshot_pause_options", `Incomplete Snapshot Suspension.*needs start_time and end_time`).nested("start_time"),
		dcOK("snapshot pause enabled without end", `automated_snapshot_pause_options = { enabled = true, start_time = "2026-01-01T00:00:00Z" }`, "automated_snapshot_pause_options", `end_time is not set`).nested("end_time"),
		// Whole numbers where the service takes integers.
		dcOK("instance count 1.5", `cluster_config = { instance_count = 1.5 }`, "cluster_config", `must be a whole number.*got 1.5`).nested("cluster_config.instance_count"),
		dcOK("off-peak hour 2.5", `off_peak_window_options = { off_peak_window = { window_start_time = { hours = 2.5 } } }`, "off_peak_window_options", `hours must be a whole number`).nested("off_peak_window_options.off_peak_window.window_start_time.hours"),
		// The shared value rules (internal/rules), the ones the emulator checks requests with.
		dcOK("instance count 1001", `cluster_config = { instance_count = 1001 }`, "cluster_config", `must be between 1 and 1000, got: 1001`).nested("cluster_config.instance_count"),
		dcOK("zone count 4", `cluster_config = { zone_awareness_config = { availability_zone_count = 4 } }`, "cluster_config", `must be between 2 and 3, got: 4`).nested("cluster_config.zone_awareness_config.availability_zone_count"),
		dcOK("subnet id empty", `vpc_options = { subnet_ids = [""] }`, "vpc_options", `string length must be at least 1`).nested("vpc_options.subnet_ids"),
		dcOK("timeout negative", `timeouts = { update = "-1h" }`, "timeouts", `timeouts.update must be a positive duration`).nested("timeouts.update"),
		// The value rules the emulator applies too (rules.DomainConfig): a plan
		// refuses what the service would.
		dcOK("volume size 2^53+1", `block_volume_options = { volume_size = 9007199254740993 }`, "block_volume_options", `volume_size value must be between 1 and 65536, got: 9007199254740993`).nested("block_volume_options.volume_size"),
		dcOK("iops -1", `block_volume_options = { iops = -1 }`, "block_volume_options", `iops value must be between 0 and 256000, got: -1`).nested("block_volume_options.iops"),
		dcOK("saml session of 1441 minutes", `advanced_security_options = { saml_options = { session_timeout_minutes = 1441 } }`, "advanced_security_options", `session_timeout_minutes value must be between 1 and 1440, got: 1441`).nested("advanced_security_options.saml_options.session_timeout_minutes"),
		dcOK("jwks url over http", `advanced_security_options = { jwt_options = { jwks_url = "http://x" } }`, "advanced_security_options", `must be an https URL`).nested("advanced_security_options.jwt_options.jwks_url"),
		dcOK("role arn not an ARN", `user_pool_auth_options = { role_arn = "admin" }`, "user_pool_auth_options", `must be an ARN`).nested("user_pool_auth_options.role_arn"),
		dcOK("11 node options", `cluster_config = { node_options = [for i in range(11) : { node_type = "coordinator" }] }`, "cluster_config", `node_options list must contain at most 10 elements, got: 11`).nested("cluster_config.node_options"),
		dcOK("accepted warning empty", `accepted_warnings = [""]`, "accepted_warnings", `must be a validation code`),
		// Secrets.
		dcOK("master password too short", `advanced_security_options = { master_user_options = { master_user_name = "admin", master_user_password = "short" } }`, "advanced_security_options", `between 8 and 128`).nested("advanced_security_options.master_user_options.master_user_password"),
		dcOK("write-only version without password", `master_user_password_wo_version = 1`, "master_user_password_wo_version", `master_user_password_wo`),
		// Ids of 36 characters (data sources).
		{name: "dry run id of 35", kind: "data", typ: "cloud_search_domain_dry_run", body: domainOK + `dry_run_id = "` + id36[:35] + `"`, attr: "dry_run_id", want: `string length must be between 36 and 36`},
		{name: "dry run id not hex groups", kind: "data", typ: "cloud_search_domain_dry_run", body: domainOK + `dry_run_id = "` + strings.Repeat("z", 36) + `"`, attr: "dry_run_id", want: `hexadecimal groups 8-4-4-4-12`},
		{name: "dry run domain name", kind: "data", typ: "cloud_search_domain_dry_run", body: `domain_name = "X"` + "\n" + `dry_run_id = "` + id36 + `"`, attr: "domain_name", want: `between 3 and 28`},
		{name: "change id of 37", kind: "data", typ: "cloud_search_domain_change_progress", body: domainOK + `change_id = "` + id36 + `0"`, attr: "change_id", want: `string length must be between 36 and 36`},
		{name: "change progress domain name", kind: "data", typ: "cloud_search_domain_change_progress", body: `domain_name = "-demo"`, attr: "domain_name", want: `must start with a lower-case letter`},
		// Identity: user names, paths, policy ARNs.
		{name: "user name of 65", kind: "resource", typ: "cloud_identity_user", body: `user_name = "` + strings.Repeat("u", 65) + `"`, attr: "user_name", want: `between 1 and 64`},
		{name: "user name empty", kind: "resource", typ: "cloud_identity_user", body: `user_name = ""`, attr: "user_name", want: `between 1 and 64`},
		{name: "user name with a space", kind: "resource", typ: "cloud_identity_user", body: `user_name = "bad name"`, attr: "user_name", want: `only letters, digits`},
		{name: "user path without slashes", kind: "resource", typ: "cloud_identity_user", body: userOK + `path = "team"`, attr: "path", want: `must be / or begin and end with /`},
		{name: "user path of 513", kind: "resource", typ: "cloud_identity_user", body: userOK + `path = "/` + strings.Repeat("p", 511) + `/"`, attr: "path", want: `between 1 and 512`},
		{name: "user path not printable", kind: "resource", typ: "cloud_identity_user", body: userOK + `path = "/a b/"`, attr: "path", want: `printable ASCII`},
		{name: "policy ARN", kind: "resource", typ: "cloud_identity_user_policy_attachment", body: userOK + `policy_arn = "ModelsLimitedAccess"`, attr: "policy_arn", want: `must be a policy ARN`},
		{name: "attachment user name", kind: "resource", typ: "cloud_identity_user_policy_attachment", body: `user_name = "a/b"` + "\n" + `policy_arn = "` + limitedAccess + `"`, attr: "user_name", want: `only letters, digits`},
		// The long-term key.
		key("credential age missing (an expiry is chosen at creation)", ``, "credential_age_days", `The argument "credential_age_days" is required`),
		key("credential age 0 days", `credential_age_days = 0`, "credential_age_days", `between 1 and 36600`),
		key("credential age 36601 days", `credential_age_days = 36601`, "credential_age_days", `between 1 and 36600`),
		key("status Disabled", `credential_age_days = 30`+"\n"+`status = "Disabled"`, "status", `value must be one of: \["Active" "Inactive"\]`),
		key("renew before 0 days", `credential_age_days = 30`+"\n"+`renew_before_days = 0`, "renew_before_days", `must be between 1`),
		{name: "service name too short", kind: "resource", typ: "cloud_identity_service_specific_credential", body: userOK + `service_name = "mo"` + "\ncredential_age_days = 30", attr: "service_name", want: `between 3 and 128`},
		{name: "key user name", kind: "resource", typ: "cloud_identity_service_specific_credential", body: `user_name = "bad name"` + "\n" + `service_name = "models.cloud.example"` + "\ncredential_age_days = 30", attr: "user_name", want: `only letters, digits`},
		// The short-term key: at most 12 hours.
		{name: "short-term key of 13h", kind: "ephemeral", typ: "cloud_models_short_term_api_key", body: `expires_in = "13h"`, attr: "expires_in", want: `12h`},
		{name: "short-term key of 12h1s", kind: "ephemeral", typ: "cloud_models_short_term_api_key", body: `expires_in = "12h0m1s"`, attr: "expires_in", want: `12h`},
		{name: "short-term key not a duration", kind: "ephemeral", typ: "cloud_models_short_term_api_key", body: `expires_in = "soon"`, attr: "expires_in", want: `soon`},
		{name: "short-term key region", kind: "ephemeral", typ: "cloud_models_short_term_api_key", body: `region = "Mars"`, attr: "region", want: `region name`},
		{name: "converse region", kind: "data", typ: "cloud_models_converse", body: `model_id = "m"` + "\n" + `prompt = "hi"` + "\n" + `region = "moon"`, attr: "region", want: `region name`},
		{name: "converse model id", kind: "data", typ: "cloud_models_converse", body: `model_id = "a model"` + "\n" + `prompt = "hi"`, attr: "model_id", want: `letters, digits`},
		{name: "converse empty prompt", kind: "data", typ: "cloud_models_converse", body: `model_id = "m"` + "\n" + `prompt = ""`, attr: "prompt", want: `character count must be between 1 and 100000`},
		{name: "converse runtime url", kind: "data", typ: "cloud_models_converse", body: `model_id = "m"` + "\n" + `prompt = "hi"` + "\n" + `runtime_url = "runtime.example"`, attr: "runtime_url", want: `http`},
		// Provider settings.
		prov("provider region", `region = "Mars"`, "region", `must be a region name such as us-east-1`),
		prov("provider endpoint not a URL", `endpoints = { search = "127.0.0.1:8080" }`, "endpoints", `must start with http:// or https://`),
		prov("provider endpoint with a query", `endpoints = { identity = "http://127.0.0.1:8080/?x=1" }`, "endpoints", `must not have a query`),
		prov("provider max_retries", `max_retries = 26`, "max_retries", `between 0 and 25`),
		prov("provider http_timeout", `http_timeout = "2h"`, "http_timeout", `between 1ms and 1h`),
		prov("provider access key too short", `access_key = "AK"`, "access_key", `between 16 and 128`),
		prov("provider empty secret key", `secret_key = ""`, "secret_key", `at least 1`),
	}
}

// attributeScoped: the error points at the attribute's line, or (for a
// nested attribute, which Terraform points at the block) names it.
func attributeScoped(d jsonDiag, c badCase) bool {
	text := d.Summary + d.Detail
	return (d.Snippet != nil && strings.Contains(d.Snippet.Code, c.attr)) ||
		strings.Contains(text, c.attr) || (c.leaf != "" && strings.Contains(text, c.leaf))
}

func (c badCase) nested(leaf string) badCase { c.leaf = leaf; return c }

// TestBadInput_validate writes every bad case as its own block of one
// configuration and runs `terraform validate -json`: each block must get
// an error on its attribute, and the emulator must see no request.
func TestBadInput_validate(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	cases := badCases()
	var cfg strings.Builder
	cfg.WriteString(e.providerBlock(""))
	lines := func() int { return strings.Count(cfg.String(), "\n") + 1 }
	type span struct{ from, to int }
	spans := make([]span, len(cases))
	for i := range cases {
		c := &cases[i]
		c.label = fmt.Sprintf("c%02d", i)
		from := lines()
		switch c.kind {
		case "provider":
			fmt.Fprintf(&cfg, "provider \"cloud\" {\n  alias = %q\n%s\n}\nresource \"cloud_identity_user\" %q {\n  provider  = cloud.%s\n  user_name = \"p\"\n}\n", c.label, c.body, c.label, c.label)
		default:
			fmt.Fprintf(&cfg, "%s %q %q {\n%s\n}\n", c.kind, c.typ, c.label, c.body)
		}
		spans[i] = span{from, lines() - 1}
	}
	w.write(cfg.String())
	out, _ := w.run("validate", "-json")
	var doc struct {
		Diagnostics []jsonDiag `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("validate -json: %v\n%s", err, out)
	}
	found := make([][]jsonDiag, len(cases))
	for _, d := range doc.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		if d.Range == nil {
			t.Errorf("error without a source range: %s: %s", d.Summary, d.Detail)
			continue
		}
		matched := false
		for i, s := range spans {
			if d.Range.Start.Line >= s.from && d.Range.Start.Line <= s.to {
				found[i] = append(found[i], d)
				matched = true
			}
		}
		if !matched {
			t.Errorf("error outside every case (line %d): %s: %s", d.Range.Start.Line, d.Summary, d.Detail)
		}
	}
	for i, c := range cases {
		var hit *jsonDiag
		for j, d := range found[i] {
			text := d.Summary + "\n" + d.Detail
			if regexp.MustCompile(`(?s)` + c.want).MatchString(strings.Join(strings.Fields(text), " ")) {
				hit = &found[i][j]
			}
		}
		block := c.typ
		if c.kind == "provider" {
			block = "provider cloud"
		}
		switch {
		case hit == nil:
			var got []string
			for _, d := range found[i] {
				got = append(got, shorten(d.Summary+": "+d.Detail, 300))
			}
			t.Errorf("%s (%s %s): no error matching %q; got %q", c.name, block, c.label, c.want, got)
			continue
		case !attributeScoped(*hit, c):
			code := ""
			if hit.Snippet != nil {
				code = hit.Snippet.Code
			}
			t.Errorf("%s: the error is not on attribute %s (it points at %q)", c.name, c.attr, code)
		}
		addRow("bad input refused with no API call", badHead, c.name, block, c.attr, "validate", shorten(hit.Summary+": "+strings.Join(strings.Fields(hit.Detail), " "), 80))
	}
	if calls := e.Calls(); len(calls) != 0 {
		t.Errorf("validate made %d API calls, first %+v", len(calls), calls[0])
	}
	addNote("bad inputs refused at validate time: %d cases, each with an attribute-scoped error, 0 API calls", len(cases))
}

// TestBadInput_plan: the spec's rules that need the domain's current
// configuration are refused at plan time with no dry run and no change.
func TestBadInput_plan(t *testing.T) {
	e := newEmu(t)
	if err := e.Search.AddDomain(emusearch.DomainSpec{DomainName: "dual", EngineMode: "OPTIMIZED", IPAddressType: "dualstack"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, body, attr, want string
	}{
		{"engine mode change", `domain_name = "dual"` + "\n" + `engine_mode = "GENERAL"`, "engine_mode", `Engine Mode Cannot Change.*created with engine_mode OPTIMIZED`},
		{"dualstack back to ipv4", `domain_name = "dual"` + "\n" + `ip_address_type = "ipv4"`, "ip_address_type", `IP Address Type Cannot Go Back.*dualstack`},
		{"domain that does not exist", `domain_name = "nosuch"` + "\n" + `snapshot_options = { automated_snapshot_start_hour = 1 }`, "domain_name", `Search Domain Not Found`},
	}
	for _, c := range cases {
		w := newWorkdir(t)
		w.write(e.providerBlock("") + "resource \"cloud_search_domain_config\" \"d\" {\n" + c.body + "\n}\n")
		mark := len(e.Calls())
		out, err := w.run("plan", "-input=false")
		if err == nil {
			t.Errorf("%s: plan succeeded:\n%s", c.name, out)
			continue
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !regexp.MustCompile(c.want).MatchString(flat) {
			t.Errorf("%s: want %q in:\n%s", c.name, c.want, out)
		}
		if !regexp.MustCompile(regexp.QuoteMeta(c.attr) + ` = `).MatchString(out) {
			t.Errorf("%s: the error does not point at %s:\n%s", c.name, c.attr, out)
		}
		for _, call := range e.Calls()[mark:] {
			// GetCallerIdentity is the provider's credential check when it is configured.
			if call.Operation != "DescribeDomainConfig" && call.Operation != "GetCallerIdentity" {
				t.Errorf("%s: plan made a %s call (dry run %v)", c.name, call.Operation, call.DryRun)
			}
		}
		addRow("bad input refused with no API call", badHead, c.name, "cloud_search_domain_config", c.attr, "plan (one DescribeDomainConfig read, no dry run)", shorten(errorSummaries(out), 80))
	}
	addNote("bad inputs refused at plan time: %d cases, no dry run, no change", len(cases))
}
