package seed_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/seed"
)

// start is the clock a test's emulator starts at.
var start = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// newEmulator is an emulator whose clock stands at start, as
// cloud-emulator -clock start -clock-held leaves it.
func newEmulator(t *testing.T) *emulator.Emulator {
	t.Helper()
	e := emulator.New(emulator.Options{})
	e.Clock().Hold()
	e.Clock().Set(start)
	return e
}

// apply parses content and applies it to a new emulator.
func apply(t *testing.T, content string) (*emulator.Emulator, error) {
	t.Helper()
	e := newEmulator(t)
	f, err := seed.Parse("seed.json", []byte(content))
	if err != nil {
		return e, err
	}
	return e, f.Apply(e)
}

func TestExampleSeedApplied(t *testing.T) {
	t.Parallel()
	e := newEmulator(t)
	f, err := seed.Load(filepath.Join("..", "..", "..", "examples", "emulator", "seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Apply(e); err != nil {
		t.Fatal(err)
	}

	st := e.Identity.State()
	var users []string
	for _, u := range st.Users {
		users = append(users, u.Arn)
	}
	if diff := cmp.Diff([]string{
		"arn:cloud:identity::123456789012:user/apps/billing-app",
		"arn:cloud:identity::123456789012:user/apps/capped-app",
	}, users); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"team": "billing", "env": "test"}, e.Identity.UserTags("billing-app")); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"arn:cloud:identity::cloud:policy/ModelsLimitedAccess"}, e.Identity.AttachedPolicyArns("billing-app")); diff != "" {
		t.Errorf("policies (-want +got):\n%s", diff)
	}
	keys := st.Users[0].Credentials
	if len(keys) != 2 {
		t.Fatalf("billing-app has %d keys, want 2", len(keys))
	}
	day := 24 * time.Hour
	if k := keys[0]; k.Status != "Inactive" || !k.CreateDate.Equal(start.Add(-80*day)) || !k.Expiration.Equal(start.Add(10*day)) {
		t.Errorf("old key: %s created %s expires %s; want Inactive, 80 days old, expiring in 10", k.Status, k.CreateDate, k.Expiration)
	}
	// The seeded secret is the key's value: the runtime takes it.
	info, ok := e.Identity.LookupServiceAPIKey("CLOUDKexample-seeded-key-value-0123456789abcdefghijklmnopqrstuvwxyzABC")
	if !ok || info.CredentialID != "ACCAEXAMPLEKEY2345672" || info.Status != "Active" || info.Region != "us-east-1" {
		t.Errorf("the seeded secret's key: %+v, %v", info, ok)
	}

	if diff := cmp.Diff([]string{"catalog", "orders"}, e.Search.DomainNames()); diff != "" {
		t.Errorf("domains (the demo domain replaced) (-want +got):\n%s", diff)
	}
	orders, _ := e.Search.Domain("orders")
	if got := *orders.ClusterConfig.InstanceCount; got != 3 || *orders.IPAddressType != "dualstack" || orders.AdvancedOptions["indices.fielddata.cache.size"] != "40" {
		t.Errorf("orders: InstanceCount %d, IPAddressType %s, AdvancedOptions %v", got, *orders.IPAddressType, orders.AdvancedOptions)
	}
	catalog, _ := e.Search.Domain("catalog")
	if catalog.ChangeProgressDetails == nil || *catalog.DomainProcessingStatus != "Modifying" || *catalog.ClusterConfig.InstanceType != "r6g.large.search" {
		t.Errorf("catalog: a change in progress wanted, got status %v, details %+v, type %s", *catalog.DomainProcessingStatus, catalog.ChangeProgressDetails, *catalog.ClusterConfig.InstanceType)
	}
	// The change runs by the seeded pace (10-minute stages) and the clock.
	e.Clock().Advance(41 * time.Minute)
	catalog, _ = e.Search.Domain("catalog")
	if *catalog.ClusterConfig.InstanceType != "r6g.xlarge.search" || *catalog.DomainProcessingStatus != "Active" {
		t.Errorf("catalog after the change: %s, %s", *catalog.ClusterConfig.InstanceType, *catalog.DomainProcessingStatus)
	}
}

func TestExampleFaultsArmed(t *testing.T) {
	t.Parallel()
	e := newEmulator(t)
	f, err := seed.Load(filepath.Join("..", "..", "..", "examples", "emulator", "seed-faults.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Apply(e); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, f := range e.Faults() {
		kinds = append(kinds, string(f.Kind)+" "+f.Service+" "+f.Operation+" "+f.Domain)
	}
	want := []string{
		"verdict search UpdateDomainConfig orders",
		"validation_failure search UpdateDomainConfig orders",
		"throttle identity CreateUser ",
		"lost_response identity AttachUserPolicy ",
		"delay search DescribeDryRunProgress ",
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("faults (-want +got):\n%s", diff)
	}
}

func TestBadSeedNamesPath(t *testing.T) {
	t.Parallel()
	user := func(fields string) string {
		return `{"format_version": 1, "users": [{"name": "ok"}, {"name": "app", ` + fields + `}]}`
	}
	key := func(fields string) string {
		return user(`"keys": [{"credential_age_days": 90}, {` + fields + `}]`)
	}
	domain := func(fields string) string {
		return `{"format_version": 1, "domains": [{"name": "orders", ` + fields + `}]}`
	}
	fault := func(fields string) string {
		return `{"format_version": 1, "faults": [{"kind": "throttle"}, {` + fields + `}]}`
	}
	for _, tc := range []struct{ name, seed, want string }{
		{"not JSON", `{"format_version": 1,`, "seed.json: not valid JSON"},
		{"no version", `{}`, "seed.json: format_version: required; this emulator reads format_version 1"},
		{"other version", `{"format_version": 2}`, "seed.json: format_version: 2 is not a version this emulator reads (1)"},
		{"unknown top-level field", `{"format_version": 1, "user": []}`, "seed.json: user: not a field here; the fields are domains, faults, format_version, policies, search_pace, users"},
		{"wrong type", `{"format_version": "1"}`, "seed.json: format_version: expected a whole number, not string"},
		{"data after the object", `{"format_version": 1} {}`, "seed.json: data after the JSON value"},

		{"policy ARN", `{"format_version": 1, "policies": [{"arn": "policy/x", "document": {}}]}`, `seed.json: policies[0].arn: "policy/x" is not a policy ARN`},
		{"policy document", `{"format_version": 1, "policies": [{"arn": "arn:cloud:identity::123456789012:policy/x", "document": {"Version": "1999"}}]}`, "seed.json: policies[0].document: "},

		{"unknown user field", user(`"colour": "red"`), "seed.json: users[1].colour: not a field here; the fields are keys, name, path, policies, tags"},
		{"user name", user(`"name": "a b"`), `seed.json: users[1].name: UserName "a b" must be 1 to 64 characters`},
		{"user twice", `{"format_version": 1, "users": [{"name": "app"}, {"name": "APP"}]}`, "seed.json: users[1].name: User with name APP already exists."},
		{"user path", user(`"path": "apps"`), `seed.json: users[1].path: Path "apps" must begin and end with /`},
		{"tag type", user(`"tags": {"team": 1}`), "seed.json: users[1].tags.team: expected a string, not number"},
		{"tag key", user(`"tags": {"bad*key": "x"}`), "seed.json: users[1].tags: 1 validation error detected: Value \"bad*key\" at 'tags.member.key'"},
		{"policy not in catalogue", user(`"policies": ["arn:cloud:identity::cloud:policy/ModelsLimitedAccess", "arn:cloud:identity::cloud:policy/Nope"]`), "seed.json: users[1].policies[1]: "},

		{"key status", key(`"status": "Enabled", "credential_age_days": 90`), `seed.json: users[1].keys[1].status: "Enabled" is not Active or Inactive`},
		{"key service", key(`"service_name": "mail.cloud.example", "credential_age_days": 90`), `seed.json: users[1].keys[1].service_name: ServiceName "mail.cloud.example" is not a service`},
		{"key without expiry", key(`"age_days": 3`), "seed.json: users[1].keys[1]: a key needs credential_age_days or expires"},
		{"key life out of range", key(`"credential_age_days": 0`), "seed.json: users[1].keys[1].credential_age_days: 0 is not from 1 to 36600"},
		{"key age negative", key(`"age_days": -1, "credential_age_days": 9`), "seed.json: users[1].keys[1].age_days: -1: an age cannot be negative"},
		{"key age and created", key(`"age_days": 1, "created": "2026-01-01T00:00:00Z", "credential_age_days": 9`), "seed.json: users[1].keys[1].created: give age_days or created, not both"},
		{"key created malformed", key(`"created": "yesterday", "credential_age_days": 9`), `seed.json: users[1].keys[1].created: "yesterday" is not an RFC 3339 time`},
		{"key created in the future", key(`"created": "2027-01-01T00:00:00Z", "credential_age_days": 9`), "seed.json: users[1].keys[1].created: 2027-01-01T00:00:00Z is after the emulator's clock (2026-11-28T12:00:00Z)"},
		{"key expires before created", key(`"age_days": 10, "expires": "2026-11-01T00:00:00Z"`), "seed.json: users[1].keys[1].expires: a key expires after it is created"},
		{"key third", user(`"keys": [{"credential_age_days": 9}, {"credential_age_days": 9}, {"credential_age_days": 9}]`), "seed.json: users[1].keys[2].service_name: Cannot exceed quota for ServiceSpecificCredentialsPerUserPerService: 2."},
		{"key secret", key(`"secret": "hunter2", "credential_age_days": 9`), "seed.json: users[1].keys[1].secret: not a key value (CLOUDK and 64 characters of URL-safe base64)"},
		{"key id", key(`"id": "KEY1", "credential_age_days": 9`), `seed.json: users[1].keys[1].id: "KEY1" is not a key id`},
		{"key unknown field", key(`"value": "x"`), "seed.json: users[1].keys[1].value: not a field here"},

		{"domain name", `{"format_version": 1, "domains": [{"name": "Orders"}]}`, `seed.json: domains[0].name: domain name "Orders" must start with a lower-case letter`},
		{"domain twice", `{"format_version": 1, "domains": [{"name": "orders"}, {"name": "orders"}]}`, "seed.json: domains[1].name: domain orders already exists in us-east-1"},
		{"engine mode", domain(`"engine_mode": "FAST"`), "seed.json: domains[0].engine_mode: EngineMode must be one of [GENERAL OPTIMIZED]"},
		{"ip address type", domain(`"ip_address_type": "ipv6"`), "seed.json: domains[0].ip_address_type: "},
		{"region", domain(`"region": "moon"`), `seed.json: domains[0].region: the region "moon" is not a region name`},
		{"unknown section", domain(`"config": {"ClusterConfg": {}}`), "seed.json: domains[0].config: ClusterConfg: not a member of the UpdateDomainConfig request"},
		{"section value type", domain(`"config": {"ClusterConfig": {"InstanceCount": 3.5}}`), "seed.json: domains[0].config: ClusterConfig.InstanceCount: expected a whole number, not 3.5"},
		{"section value rule", domain(`"config": {"SnapshotOptions": {"AutomatedSnapshotStartHour": 24}}`), "seed.json: domains[0].config: SnapshotOptions.AutomatedSnapshotStartHour must be between 0 and 23"},
		{"response-only member", domain(`"config": {"VPCOptions": {"VPCId": "vpc-1"}}`), "seed.json: domains[0].config: VPCOptions.VPCId: a response-only member"},
		{"change blocked", domain(`"config": {"ClusterConfig": {"InstanceCount": 2}}, "change_in_progress": {"ClusterConfig": {"InstanceType": "r6g.xlarge.search"}}`), "seed.json: domains[0].change_in_progress: The change is blocked by validation failures: "},
		{"change of nothing", domain(`"change_in_progress": {}`), "seed.json: domains[0].change_in_progress: the request changes nothing, so no change starts"},
		{"change a dry run", domain(`"change_in_progress": {"DryRun": true}`), "seed.json: domains[0].change_in_progress: DryRun: a change in progress is a real change"},
		{"pace", `{"format_version": 1, "search_pace": {"blue_green_stage": "soon"}}`, `seed.json: search_pace: blue_green_stage: "soon" is not a Go duration`},

		{"fault kind missing", fault(`"operation": "CreateUser"`), "seed.json: faults[1].kind: required"},
		{"fault kind unknown", fault(`"kind": "explode"`), `seed.json: faults[1]: unknown fault kind "explode"`},
		{"fault times type", fault(`"kind": "throttle", "times": "2"`), "seed.json: faults[1].times: expected a whole number, not string"},
		{"fault delay", fault(`"kind": "delay", "delay": "2 seconds"`), `seed.json: faults[1]: delay "2 seconds": `},
		{"fault hits", fault(`"kind": "throttle", "hits": 3`), "seed.json: faults[1].hits: not a field here"},
		{"verdict type", fault(`"kind": "verdict", "domain": "orders", "deployment_type": "Blue/Green"`), `seed.json: faults[1]: deployment_type "Blue/Green" is not one of [blue/green dynamic none]`},
		{"verdict on identity", fault(`"kind": "verdict", "service": "identity", "deployment_type": "dynamic"`), `seed.json: faults[1]: service "identity": a verdict fault hits the search service's dry runs`},
		{"failure severity", fault(`"kind": "validation_failure", "code": "ADV_X", "severity": "Warning", "message": "m"`), `seed.json: faults[1]: severity "Warning" is not Critical or Advisory`},
		{"failure code", fault(`"kind": "validation_failure", "code": "bad code!", "severity": "Advisory", "message": "m"`), `seed.json: faults[1]: code "bad code!" `},
		{"failure message", fault(`"kind": "validation_failure", "code": "ADV_X", "severity": "Advisory"`), "seed.json: faults[1]: a validation_failure fault needs a message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := apply(t, tc.seed)
			if err == nil {
				t.Fatalf("accepted; want %q", tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error:\n got %s\nwant %s...", err, tc.want)
			}
		})
	}
}

func TestLoadNamesFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "fixture.json")
	if err := os.WriteFile(path, []byte(`{"format_version": 1, "users": [{"name": "a", "keys": [{"status": "Enabled", "credential_age_days": 1}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := seed.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Apply(newEmulator(t))
	if want := `fixture.json: users[0].keys[0].status: "Enabled" is not Active or Inactive`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestParseFault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec string
		want emulator.Fault
	}{
		{"kind=throttle,service=identity,operation=CreateUser,times=2", emulator.Fault{Kind: emulator.FaultThrottle, Service: "identity", Operation: "CreateUser", Times: 2}},
		{"kind=delay,delay=2s,operation=DescribeDryRunProgress", emulator.Fault{Kind: emulator.FaultDelay, DelayText: "2s", Operation: "DescribeDryRunProgress"}},
		{"kind=verdict,domain=orders,deployment_type=blue/green,times=-1", emulator.Fault{Kind: emulator.FaultVerdict, Domain: "orders", DeploymentType: "blue/green", Times: -1}},
		{"kind=validation_failure,code=ADV_X,severity=Advisory,message=Too many shards, per node.", emulator.Fault{Kind: emulator.FaultValidationFailure, Code: "ADV_X", Severity: "Advisory", Message: "Too many shards, per node."}},
		{`{"kind": "lost_response", "operation": "AttachUserPolicy"}`, emulator.Fault{Kind: emulator.FaultLostResponse, Operation: "AttachUserPolicy"}},
	} {
		got, err := seed.ParseFault(tc.spec, "-fault[0]")
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(emulator.Fault{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.spec, diff)
		}
	}
	for spec, want := range map[string]string{
		"kind=throttle,times=two":  `-fault[0].times: expected a whole number, not "two"`,
		"kind=throttle,operation":  `-fault[0]: "operation" is not name=value`,
		"kind=throttle,kind=delay": "-fault[0].kind: given twice",
		"kind=throttle,colour=red": "-fault[0].colour: not a field here",
		`{"kind": "throttle",}`:    "-fault[0]: not valid JSON",
	} {
		if _, err := seed.ParseFault(spec, "-fault[0]"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s...", spec, err, want)
		}
	}
}
