package search_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// Members of the spec the emulator answers and the client decodes, each
// checked against the emulator through the client: a member answered but
// misspelt on either side would otherwise decode as empty, unnoticed.

// ChangeProgressStatus carries the change's AcceptedWarnings, its
// ValidationFailures (the accepted Advisory one) and a LastUpdatedTime
// that moves with the stages.
func TestChangeProgressMembers(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	start := env.e.Clock().Now()
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{
		DomainName:       "demo",
		Sections:         obj{"ClusterConfig": obj{"DedicatedMasterEnabled": false}},
		AcceptedWarnings: []string{"ADV_NO_DEDICATED_MASTERS"},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DomainConfig.ChangeProgressDetails.ChangeId)
	p, err := env.c.DescribeDomainChangeProgress(c, "demo", id)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"ADV_NO_DEDICATED_MASTERS"}, p.AcceptedWarnings); d != "" {
		t.Errorf("AcceptedWarnings (-want +got):\n%s", d)
	}
	if len(p.ValidationFailures) != 1 || deref(p.ValidationFailures[0].Code) != "ADV_NO_DEDICATED_MASTERS" ||
		deref(p.ValidationFailures[0].Severity) != "Advisory" || deref(p.ValidationFailures[0].Message) == "" {
		t.Errorf("ValidationFailures %+v, want the accepted ADV_NO_DEDICATED_MASTERS", p.ValidationFailures)
	}
	if p.LastUpdatedTime == nil || p.StartTime == nil || p.LastUpdatedTime.Time().Before(start.Truncate(time.Millisecond)) {
		t.Fatalf("LastUpdatedTime %v, StartTime %v at submission", p.LastUpdatedTime, p.StartTime)
	}
	first := p.LastUpdatedTime.Time()
	env.e.Clock().Advance(90 * time.Minute) // into the second stage
	p, err = env.c.DescribeDomainChangeProgress(c, "demo", id)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.LastUpdatedTime.Time(); !got.After(first) || got.After(env.e.Clock().Now()) {
		t.Errorf("LastUpdatedTime %s after a stage change, want after %s and not after now", got, first)
	}
}

// DryRunProgressStatus.CreationDate stays; UpdateDate moves with the run's
// status, and both are RFC 3339 strings.
func TestDryRunProgressDates(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{
		DomainName: "demo", DryRun: new(true), DryRunMode: new("Verbose"),
		Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 3}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DryRunProgressStatus.DryRunId)
	var created, prev time.Time
	for i, step := range []struct {
		advance time.Duration
		status  string
	}{{0, "pending"}, {20 * time.Minute, "in-progress"}, {time.Hour, "completed"}} {
		env.e.Clock().Advance(step.advance)
		got, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: id})
		if err != nil {
			t.Fatal(err)
		}
		st := got.DryRunProgressStatus
		cd, err1 := time.Parse(time.RFC3339, deref(st.CreationDate))
		ud, err2 := time.Parse(time.RFC3339, deref(st.UpdateDate))
		if err1 != nil || err2 != nil || deref(st.DryRunStatus) != step.status {
			t.Fatalf("step %d: %q %q %q", i, deref(st.CreationDate), deref(st.UpdateDate), deref(st.DryRunStatus))
		}
		if i == 0 {
			created, prev = cd, ud
			if !ud.Equal(cd) {
				t.Errorf("a pending run's UpdateDate %s, want its CreationDate %s", ud, cd)
			}
			continue
		}
		if !cd.Equal(created) || !ud.After(prev) {
			t.Errorf("step %d (%s): CreationDate %s (want %s), UpdateDate %s (want after %s)", i, step.status, cd, created, ud, prev)
		}
		prev = ud
	}
}

// wrappedStatus is a wrapped section's Status.
type wrappedStatus struct {
	CreationDate    *float64 `json:"CreationDate"`
	PendingDeletion *bool    `json:"PendingDeletion"`
	State           string   `json:"State"`
	UpdateDate      *float64 `json:"UpdateDate"`
	UpdateVersion   *int64   `json:"UpdateVersion"`
}

func statusOf(t *testing.T, cfg *api.DomainConfig, section string) wrappedStatus {
	t.Helper()
	var st wrappedStatus
	if err := json.Unmarshal(cfg.Sections[section].Status, &st); err != nil {
		t.Fatalf("%s.Status: %v", section, err)
	}
	if st.CreationDate == nil || st.PendingDeletion == nil || st.UpdateDate == nil || st.UpdateVersion == nil {
		t.Fatalf("%s.Status lacks a member: %s", section, cfg.Sections[section].Status)
	}
	return st
}

// Each section's Status has CreationDate and PendingDeletion; a change
// keeps CreationDate, moves UpdateDate and UpdateVersion, and shows
// Processing while it runs.
func TestOptionStatusMembers(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	before, err := env.c.DescribeDomainConfig(c, "demo")
	if err != nil {
		t.Fatal(err)
	}
	for name := range before.Sections {
		if st := statusOf(t, before, name); *st.PendingDeletion || st.State != "Active" {
			t.Errorf("%s.Status %+v, want Active and not pending deletion", name, st)
		}
	}
	was := statusOf(t, before, "SnapshotOptions")
	env.e.Clock().Advance(time.Minute)
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 4}}})
	if err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, out.DomainConfig, "SnapshotOptions"); st.State != "Processing" {
		t.Errorf("while the change runs: %+v, want Processing", st)
	}
	env.e.Clock().Advance(3 * time.Hour)
	after, err := env.c.DescribeDomainConfig(c, "demo")
	if err != nil {
		t.Fatal(err)
	}
	now := statusOf(t, after, "SnapshotOptions")
	if *now.CreationDate != *was.CreationDate || *now.UpdateDate <= *was.UpdateDate || *now.UpdateVersion != *was.UpdateVersion+1 || now.State != "Active" || *now.PendingDeletion {
		t.Errorf("after the change: %+v (CreationDate %v UpdateDate %v UpdateVersion %v), before: CreationDate %v UpdateDate %v UpdateVersion %v",
			now, *now.CreationDate, *now.UpdateDate, *now.UpdateVersion, *was.CreationDate, *was.UpdateDate, *was.UpdateVersion)
	}
}

// DryRunConfig, the planned domain status, has every member of the spec's
// status object around the sections, against the emulator.
func TestDryRunConfigMembers(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{
		DomainName: "demo", DryRun: new(true), DryRunMode: new("Verbose"),
		Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 3}},
	})
	if err != nil {
		t.Fatal(err)
	}
	env.e.Clock().Advance(2 * time.Hour)
	got, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: deref(out.DryRunProgressStatus.DryRunId), LoadDryRunConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	m := got.DryRunConfig.Members
	kinds := map[string]string{
		"ARN": "string", "Created": "boolean", "Deleted": "boolean", "DomainId": "string", "DomainName": "string",
		"DomainProcessingStatus": "string", "Endpoint": "string", "EngineMode": "string", "EngineVersion": "string",
		"Processing": "boolean", "UpgradeProcessing": "boolean", "ServiceSoftwareOptions": "object", "AutoTuneOptions": "object",
	}
	for name, kind := range kinds {
		var v any
		if err := json.Unmarshal(m[name], &v); err != nil || jsonKind(v) != kind {
			t.Errorf("DryRunConfig.%s = %s, want a %s", name, m[name], kind)
		}
	}
	var sso map[string]any
	_ = json.Unmarshal(m["ServiceSoftwareOptions"], &sso)
	for name, kind := range map[string]string{
		"AutomatedUpdateDate": "number", "Cancellable": "boolean", "CurrentVersion": "string", "Description": "string",
		"NewVersion": "string", "OptionalDeployment": "boolean", "UpdateAvailable": "boolean", "UpdateStatus": "string",
	} {
		if jsonKind(sso[name]) != kind {
			t.Errorf("DryRunConfig.ServiceSoftwareOptions.%s = %v, want a %s", name, sso[name], kind)
		}
	}
	var at map[string]any
	_ = json.Unmarshal(m["AutoTuneOptions"], &at)
	if jsonKind(at["ErrorMessage"]) != "string" || jsonKind(at["State"]) != "string" || jsonKind(at["UseOffPeakWindow"]) != "boolean" {
		t.Errorf("DryRunConfig.AutoTuneOptions = %v, want ErrorMessage, State and UseOffPeakWindow", at)
	}
	var snap map[string]any
	_ = json.Unmarshal(m["SnapshotOptions"], &snap)
	if snap["AutomatedSnapshotStartHour"] != 3.0 {
		t.Errorf("DryRunConfig.SnapshotOptions = %v, want the planned hour 3", snap)
	}
}

// TestDryRunConfigEndpoints: a DryRunConfig's endpoint members, as the
// spec lists them: Endpoint (a string) for a public domain, EndpointV2 and
// DomainEndpointV2HostedZoneId (strings) once the planned configuration is
// dualstack, and Endpoints (a map of strings) for a domain in a VPC, which
// has no Endpoint.
func TestDryRunConfigEndpoints(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	if err := env.e.Search.AddDomain(search.DomainSpec{DomainName: "private", Config: json.RawMessage(`{"ClusterConfig":{"InstanceCount":1,"InstanceType":"r6g.large.search"},"VPCOptions":{"SubnetIds":["subnet-1"]}}`)}); err != nil {
		t.Fatal(err)
	}
	config := func(domain string, sections obj) map[string]json.RawMessage {
		t.Helper()
		out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: domain, DryRun: new(true), DryRunMode: new("Verbose"), Sections: sections})
		if err != nil {
			t.Fatal(err)
		}
		env.e.Clock().Advance(2 * time.Hour)
		got, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: domain, DryRunID: deref(out.DryRunProgressStatus.DryRunId), LoadDryRunConfig: true})
		if err != nil {
			t.Fatal(err)
		}
		return got.DryRunConfig.Members
	}
	str := func(m map[string]json.RawMessage, name string) string {
		var s string
		if err := json.Unmarshal(m[name], &s); err != nil || s == "" {
			t.Errorf("DryRunConfig.%s = %s, want a non-empty string", name, m[name])
		}
		return s
	}

	public := config("demo", obj{"IPAddressType": "dualstack"})
	endpoint, v2 := str(public, "Endpoint"), str(public, "EndpointV2")
	str(public, "DomainEndpointV2HostedZoneId")
	if endpoint == v2 || !strings.Contains(v2, "demo") {
		t.Errorf("Endpoint %q and EndpointV2 %q: want two endpoints of demo", endpoint, v2)
	}
	if _, ok := public["Endpoints"]; ok {
		t.Errorf("a public domain has Endpoints %s", public["Endpoints"])
	}

	ipv4 := config("demo", obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 3}})
	for _, name := range []string{"EndpointV2", "DomainEndpointV2HostedZoneId"} {
		if _, ok := ipv4[name]; ok {
			t.Errorf("an ipv4 domain has %s %s", name, ipv4[name])
		}
	}

	vpc := config("private", obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 3}})
	var endpoints map[string]string
	if err := json.Unmarshal(vpc["Endpoints"], &endpoints); err != nil || !strings.Contains(endpoints["vpc"], "private") {
		t.Errorf("DryRunConfig.Endpoints = %s, want a map of strings with the vpc endpoint of private", vpc["Endpoints"])
	}
	if _, ok := vpc["Endpoint"]; ok {
		t.Errorf("a VPC domain has Endpoint %s", vpc["Endpoint"])
	}
}
