package search_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

func TestDryRunDeploymentType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   api.UpdateDomainConfigInput
		want string
	}{
		{"instance type", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}}}, "blue/green"},
		{"instance count", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceCount": 6}}}, "blue/green"},
		{"volume size", api.UpdateDomainConfigInput{Sections: obj{"BlockVolumeOptions": obj{"VolumeSize": 200}}}, "blue/green"},
		{"dualstack", api.UpdateDomainConfigInput{Sections: obj{"IPAddressType": "dualstack"}}, "blue/green"},
		{"field-data cache", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionFielddataCacheSize: "40"}}}, "blue/green"},
		{"vpc", api.UpdateDomainConfigInput{Sections: obj{"VPCOptions": obj{"SubnetIds": []string{"subnet-1"}}}}, "blue/green"},
		{"access policies", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": `{"Version":"2012-10-17","Statement":[]}`}}, "dynamic"},
		{"snapshot hour", api.UpdateDomainConfigInput{Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 5}}}, "dynamic"},
		{"off-peak window", api.UpdateDomainConfigInput{Sections: obj{"OffPeakWindowOptions": obj{"OffPeakWindow": obj{"WindowStartTime": obj{"Hours": 22}}}}}, "dynamic"},
		{"auto-tune", api.UpdateDomainConfigInput{Sections: obj{"AutoTuneOptions": obj{"DesiredState": "DISABLED"}}}, "dynamic"},
		{"explicit index applies live", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionAllowExplicitIndex: "false"}}}, "dynamic"},
		{"log publishing", api.UpdateDomainConfigInput{Sections: obj{"LogPublishingOptions": obj{"AUDIT_LOGS": obj{"Enabled": true}}}}, "dynamic"},
		{"software update", api.UpdateDomainConfigInput{Sections: obj{"SoftwareUpdateOptions": obj{"AutoSoftwareUpdateEnabled": true}}}, "dynamic"},
		{"master user is always a change", api.UpdateDomainConfigInput{Sections: obj{"AdvancedSecurityOptions": obj{"MasterUserOptions": obj{"MasterUserName": "admin", "MasterUserPassword": "s3cret!pw"}}}}, "dynamic"},
		{"dynamic and blue/green", api.UpdateDomainConfigInput{Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 5}, "ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}}}, "blue/green"},
		{"same values", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceCount": 3, "InstanceType": "r6g.large.search"}, "SnapshotOptions": obj{"AutomatedSnapshotStartHour": 0}}}, "none"},
		{"empty request", api.UpdateDomainConfigInput{}, "none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			before, err := env.c.DescribeDomainConfig(ctx(t), "demo")
			if err != nil {
				t.Fatal(err)
			}
			in := tc.in
			in.DomainName, in.DryRun = "demo", new(true)
			out, err := env.c.UpdateDomainConfig(ctx(t), &in)
			if err != nil {
				t.Fatal(err)
			}
			if got := deref(out.DryRunResults.DeploymentType); got != tc.want {
				t.Errorf("DeploymentType = %q, want %q (%s)", got, tc.want, deref(out.DryRunResults.Message))
			}
			if got := deref(out.DryRunProgressStatus.DryRunStatus); got != api.DryRunStatusCompleted {
				t.Errorf("a Basic dry run is %q, want completed", got)
			}
			if len(out.DryRunProgressStatus.ValidationFailures) != 0 {
				t.Errorf("a Basic dry run validated: %v", codes(out.DryRunProgressStatus.ValidationFailures))
			}
			// Rule 1: a dry run changes nothing.
			after, err := env.c.DescribeDomainConfig(ctx(t), "demo")
			if err != nil {
				t.Fatal(err)
			}
			// The clock of each answer is when it was read, not the domain.
			if d := cmp.Diff(before, after, cmpopts.IgnoreFields(api.DomainConfig{}, "Clock")); d != "" {
				t.Errorf("a dry run changed the domain (-before +after):\n%s", d)
			}
			// ModifyingProperties of a dry run's answer are the dry run's own
			// (TestDryRunModifyingProperties); the rest is the current config.
			if d := cmp.Diff(before, out.DomainConfig, cmpopts.IgnoreFields(api.DomainConfig{}, "ModifyingProperties", "Clock")); d != "" {
				t.Errorf("the dry run's DomainConfig is not the current one (-current +answer):\n%s", d)
			}
			if n := env.e.Answered("UpdateDomainConfig", true); n != 1 {
				t.Errorf("request log has %d dry-run UpdateDomainConfig calls, want 1", n)
			}
			if n := env.e.Answered("UpdateDomainConfig", false); n != 0 {
				t.Errorf("request log has %d real UpdateDomainConfig calls, want 0", n)
			}
		})
	}
}

// A repeat dry run of the same change gives the same findings, messages
// included, a minute later: Terraform plans the change again at apply and
// refuses a plan whose known values changed.
func TestVerboseDryRunFindingsRepeat(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if err := env.e.Search.SetPace(search.Pace{}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock().Advance(12 * time.Hour) // outside the demo domain's off-peak window
	dryRun := func() []api.ValidationFailure {
		t.Helper()
		in := api.UpdateDomainConfigInput{DomainName: "demo", DryRun: new(true), DryRunMode: new("Verbose"),
			Sections: obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}}}
		out, err := env.c.UpdateDomainConfig(ctx(t), &in)
		if err != nil {
			t.Fatal(err)
		}
		return out.DryRunProgressStatus.ValidationFailures
	}
	first := dryRun()
	env.e.Clock().Advance(time.Minute)
	if d := cmp.Diff(first, dryRun()); d != "" {
		t.Errorf("a repeat dry run a minute later differs (-first +repeat):\n%s", d)
	}
	if len(first) != 1 {
		t.Fatalf("findings = %v, want ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK", codes(first))
	}
}

func TestVerboseDryRunFindings(t *testing.T) {
	t.Parallel()
	now := time.Now()
	cases := []struct {
		name       string
		in         api.UpdateDomainConfigInput
		outsideWin bool
		domain     *search.DomainSpec
		want       []string
	}{
		{"clean dynamic change", api.UpdateDomainConfigInput{Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 3}}}, false, nil, []string{}},
		{"clean blue/green in the off-peak window", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}}}, false, nil, []string{}},
		{"blue/green outside the off-peak window", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}}}, true, nil, []string{"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK/Advisory"}},
		{"engine mode", api.UpdateDomainConfigInput{Sections: obj{"EngineMode": "OPTIMIZED"}}, false, nil, []string{"CRIT_ENGINE_MODE_IMMUTABLE/Critical"}},
		{"instance count not a multiple of zones", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"InstanceCount": 4}}}, false, nil, []string{"CRIT_INSTANCE_COUNT_ZONE_MISMATCH/Critical"}},
		{"dedicated master count", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"DedicatedMasterCount": 2}}}, false, nil, []string{"CRIT_DEDICATED_MASTER_COUNT_INVALID/Critical"}},
		{"no dedicated masters", api.UpdateDomainConfigInput{Sections: obj{"ClusterConfig": obj{"DedicatedMasterEnabled": false}}}, false, nil, []string{"ADV_NO_DEDICATED_MASTERS/Advisory"}},
		{"encryption at rest off", api.UpdateDomainConfigInput{Sections: obj{"EncryptionAtRestOptions": obj{"Enabled": false}}}, false, nil, []string{"CRIT_ENCRYPTION_AT_REST_DISABLE/Critical"}},
		{"node-to-node off", api.UpdateDomainConfigInput{Sections: obj{"NodeToNodeEncryptionOptions": obj{"Enabled": false}}}, false, nil, []string{"CRIT_NODE_TO_NODE_DISABLE/Critical"}},
		{"unbounded field data", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionAllowExplicitIndex: "false"}}}, false, nil, []string{"ADV_FIELDDATA_CACHE_UNBOUNDED/Advisory"}},
		{"field data 100", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionFielddataCacheSize: "100"}}}, false, nil, []string{"ADV_FIELDDATA_CACHE_UNBOUNDED/Advisory"}},
		{"bounded field data", api.UpdateDomainConfigInput{Sections: obj{"AdvancedOptions": obj{api.AdvancedOptionFielddataCacheSize: "40"}}}, false, nil, []string{}},
		{"sub-resource policy with explicit index allowed (the default)", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": subPolicy}}, false, nil, []string{"CRIT_EXPLICIT_INDEX_SUBRESOURCE_POLICY/Critical"}},
		{"sub-resource policy with allow_explicit_index true", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": subPolicy, "AdvancedOptions": obj{api.AdvancedOptionAllowExplicitIndex: "true", api.AdvancedOptionFielddataCacheSize: "40"}}}, false, nil, []string{"CRIT_EXPLICIT_INDEX_SUBRESOURCE_POLICY/Critical"}},
		{"sub-resource policy with allow_explicit_index false", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": subPolicy, "AdvancedOptions": obj{api.AdvancedOptionAllowExplicitIndex: "false", api.AdvancedOptionFielddataCacheSize: "40"}}}, false, nil, []string{}},
		{"whole-domain policy", api.UpdateDomainConfigInput{Sections: obj{"AccessPolicies": `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"search:*","Resource":["arn:cloud:search:us-east-1:123456789012:domain/demo/*","arn:cloud:search:us-east-1:123456789012:domain/demo"]}]}`}}, false, nil, []string{}},
		{"ipv4 set explicitly", api.UpdateDomainConfigInput{Sections: obj{"IPAddressType": "ipv4"}}, false, nil, []string{"ADV_DUALSTACK_RECOMMENDED/Advisory"}},
		{"dualstack back to ipv4", api.UpdateDomainConfigInput{Sections: obj{"IPAddressType": "ipv4"}}, false,
			&search.DomainSpec{DomainName: "dual", IPAddressType: "dualstack"},
			[]string{"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK/Advisory", "ADV_DUALSTACK_RECOMMENDED/Advisory", "CRIT_DUALSTACK_IRREVERSIBLE/Critical"}},
		{"snapshot pause", api.UpdateDomainConfigInput{Sections: obj{"AutomatedSnapshotPauseOptions": obj{"Enabled": true, "StartTime": api.Epoch(now), "EndTime": api.Epoch(now.Add(48 * time.Hour))}}}, false, nil, []string{"ADV_SNAPSHOT_PAUSE_NO_RESTORE/Advisory"}},
		{"snapshot pause past 3 days", api.UpdateDomainConfigInput{Sections: obj{"AutomatedSnapshotPauseOptions": obj{"Enabled": true, "StartTime": api.Epoch(now), "EndTime": api.Epoch(now.Add(80 * time.Hour))}}}, false, nil, []string{"ADV_SNAPSHOT_PAUSE_NO_RESTORE/Advisory", "CRIT_SNAPSHOT_PAUSE_TOO_LONG/Critical"}},
		{"several, sorted by code", api.UpdateDomainConfigInput{Sections: obj{"EngineMode": "OPTIMIZED", "ClusterConfig": obj{"InstanceCount": 4, "DedicatedMasterEnabled": false}}}, true, nil,
			[]string{"ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK/Advisory", "ADV_NO_DEDICATED_MASTERS/Advisory", "CRIT_ENGINE_MODE_IMMUTABLE/Critical", "CRIT_INSTANCE_COUNT_ZONE_MISMATCH/Critical"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			if err := env.e.Search.SetPace(search.Pace{}); err != nil {
				t.Fatal(err)
			}
			name := "demo"
			if tc.domain != nil {
				if err := env.e.Search.AddDomain(*tc.domain); err != nil {
					t.Fatal(err)
				}
				name = tc.domain.DomainName
			}
			if tc.outsideWin {
				env.e.Clock().Advance(12 * time.Hour) // 14:00 UTC
			}
			in := tc.in
			in.DomainName, in.DryRun, in.DryRunMode = name, new(true), new("Verbose")
			out, err := env.c.UpdateDomainConfig(ctx(t), &in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, codes(out.DryRunProgressStatus.ValidationFailures)); d != "" {
				t.Errorf("validation failures (-want +got):\n%s", d)
			}
			for _, f := range out.DryRunProgressStatus.ValidationFailures {
				if deref(f.Message) == "" {
					t.Errorf("%s has no message", deref(f.Code))
				}
			}
		})
	}
}

// subPolicy grants one index of the demo domain.
const subPolicy = `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Principal":{"CLOUD":"*"},"Action":"search:ESHttpGet","Resource":"arn:cloud:search:us-east-1:123456789012:domain/demo/my-index/*"}}`

func TestVerboseDryRunProgress(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	before, _ := env.e.Search.Domain("demo")
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{
		DomainName: "demo", DryRun: new(true), DryRunMode: new("Verbose"), AcceptedWarnings: []string{"ADV_X"},
		Sections: obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search", "DedicatedMasterEnabled": false}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DryRunProgressStatus.DryRunId)
	if api.ValidID(id) != nil {
		t.Fatalf("DryRunId %q is not 8-4-4-4-12 hex", id)
	}
	if got := deref(out.DryRunProgressStatus.DryRunStatus); got != api.DryRunStatusPending {
		t.Errorf("status at submission %q, want pending", got)
	}
	if deref(out.DryRunResults.DeploymentType) != "blue/green" {
		t.Errorf("results while pending: %+v, want the deployment type at once", out.DryRunResults)
	}
	if len(out.DryRunProgressStatus.ValidationFailures) != 0 {
		t.Errorf("validation failures before completion: %v", codes(out.DryRunProgressStatus.ValidationFailures))
	}
	steps := []struct {
		advance time.Duration
		status  string
		codes   []string
	}{
		{30 * time.Minute, api.DryRunStatusInProgress, []string{}},
		{31 * time.Minute, api.DryRunStatusCompleted, []string{"ADV_NO_DEDICATED_MASTERS/Advisory"}},
	}
	for _, s := range steps {
		env.e.Clock().Advance(s.advance)
		got, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: id, LoadDryRunConfig: true})
		if err != nil {
			t.Fatal(err)
		}
		if st := deref(got.DryRunProgressStatus.DryRunStatus); st != s.status {
			t.Errorf("status %q, want %q", st, s.status)
		}
		if d := cmp.Diff(s.codes, codes(got.DryRunProgressStatus.ValidationFailures)); d != "" {
			t.Errorf("failures at %s (-want +got):\n%s", s.status, d)
		}
		if d := cmp.Diff([]string{"ADV_X"}, got.DryRunProgressStatus.AcceptedWarnings); d != "" {
			t.Errorf("accepted warnings (-want +got):\n%s", d)
		}
		cfg := got.DryRunConfig
		if cfg == nil {
			t.Errorf("no DryRunConfig, want the domain as it would be")
		} else if cc := member[clusterConfig](t, cfg, "ClusterConfig"); deref(cc.InstanceType) != "r6g.xlarge.search" || deref(cc.InstanceCount) != 3 || member[string](t, cfg, "DomainName") != "demo" || member[string](t, cfg, "ARN") == "" {
			t.Errorf("DryRunConfig is not the domain as it would be: ClusterConfig %s, DomainName %s, ARN %s", cfg.Members["ClusterConfig"], cfg.Members["DomainName"], cfg.Members["ARN"])
		}
	}
	// Without dryRunId: the most recent dry run.
	latest, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo"})
	if err != nil || deref(latest.DryRunProgressStatus.DryRunId) != id || latest.DryRunConfig != nil {
		t.Errorf("latest dry run: %+v, %v", latest, err)
	}
	after, _ := env.e.Search.Domain("demo")
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("the dry run changed the domain (-before +after):\n%s", d)
	}
}

func TestDescribeDryRunProgressErrors(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	_, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo"})
	if !errors.Is(err, client.ErrNotFound) {
		t.Errorf("no dry run yet: got %v, want not found", err)
	}
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", DryRun: new(true), DryRunMode: new("Basic")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: deref(out.DryRunProgressStatus.DryRunId), LoadDryRunConfig: true})
	if !errors.Is(err, client.ErrDisabledOperation) || apiErr(t, err).StatusCode != 409 {
		t.Errorf("loadDryRunConfig of a Basic run: got %v, want DisabledOperationException 409", err)
	}
	_, err = env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: "00000000-0000-4000-8000-000000000000"})
	if !errors.Is(err, client.ErrNotFound) || apiErr(t, err).Code != "ResourceNotFoundException" {
		t.Errorf("unknown dry run: got %v", err)
	}
	_, err = env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "gone"})
	if !errors.Is(err, client.ErrNotFound) || apiErr(t, err).StatusCode != 409 {
		t.Errorf("unknown domain: got %v", err)
	}
}

// A dry run is frozen at its own time: its DryRunConfig names the change
// that was the domain's latest when it was made, as it stood then, not a
// change made since. Clients rely on it to tell a verdict made before an
// out-of-band change from one made after.
func TestDryRunFrozenAtItsOwnTime(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if err := env.e.Search.SetPace(search.Pace{}); err != nil {
		t.Fatal(err)
	}
	dry := &api.UpdateDomainConfigInput{DomainName: "demo", DryRun: new(true), DryRunMode: new(api.DryRunModeVerbose),
		Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 5}}}
	out, err := env.c.UpdateDomainConfig(ctx(t), dry)
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DryRunProgressStatus.DryRunId)
	first, err := env.c.UpdateDomainConfig(ctx(t), &api.UpdateDomainConfigInput{DomainName: "demo",
		Sections: obj{"SoftwareUpdateOptions": obj{"AutoSoftwareUpdateEnabled": true}}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := env.c.DescribeDryRunProgress(ctx(t), api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: id, LoadDryRunConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := got.DryRunConfig.ChangeProgressDetails; d != nil && deref(d.ChangeId) == deref(first.DomainConfig.ChangeProgressDetails.ChangeId) {
		t.Errorf("the dry run made before change %s names it as its latest change", deref(d.ChangeId))
	}
	// A dry run made after the change names it.
	out, err = env.c.UpdateDomainConfig(ctx(t), dry)
	if err != nil {
		t.Fatal(err)
	}
	got, err = env.c.DescribeDryRunProgress(ctx(t), api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: deref(out.DryRunProgressStatus.DryRunId), LoadDryRunConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := got.DryRunConfig.ChangeProgressDetails; d == nil || deref(d.ChangeId) != deref(first.DomainConfig.ChangeProgressDetails.ChangeId) {
		t.Errorf("the dry run made after change %s does not name it: %+v", deref(first.DomainConfig.ChangeProgressDetails.ChangeId), d)
	}
}

// Dry runs kept are bounded: the oldest is dropped first.
func TestDryRunsBounded(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if err := env.e.Search.SetPace(search.Pace{}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 101 {
		out, err := env.c.UpdateDomainConfig(ctx(t), &api.UpdateDomainConfigInput{DomainName: "demo", DryRun: new(true),
			Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 5}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, deref(out.DryRunProgressStatus.DryRunId))
	}
	_, err := env.c.DescribeDryRunProgress(ctx(t), api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: ids[0]})
	if !errors.Is(err, client.ErrNotFound) {
		t.Errorf("the oldest of 101 dry runs: err = %v, want not found (dropped)", err)
	}
	if _, err := env.c.DescribeDryRunProgress(ctx(t), api.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: ids[1]}); err != nil {
		t.Errorf("the second oldest of 101 dry runs: %v, want kept", err)
	}
}

// What a client needs to find its own dry run again: without dryRunId the
// latest one, with its planned configuration, its CreationDate and the
// answer's Date by the service's clock, and, in DryRunConfig, the domain's
// latest change as it stood when the dry run was made.
func TestLatestDryRunFoundAgain(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	dry := func(hour int) string {
		t.Helper()
		out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": hour}}, DryRun: new(true), DryRunMode: new("Verbose")})
		if err != nil {
			t.Fatal(err)
		}
		return deref(out.DryRunProgressStatus.DryRunId)
	}
	dry(3)
	made := env.e.Clock().Now().UTC()
	id := dry(4)
	env.e.Clock().Advance(2 * time.Hour) // the Verbose run (1 h) completes
	got, err := env.c.DescribeDryRunProgress(c, api.DescribeDryRunProgressInput{DomainName: "demo", LoadDryRunConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	st := got.DryRunProgressStatus
	if deref(st.DryRunId) != id || deref(st.DryRunStatus) != "completed" {
		t.Errorf("latest dry run %s (%s), want %s completed", deref(st.DryRunId), deref(st.DryRunStatus), id)
	}
	created, err := time.Parse(time.RFC3339, deref(st.CreationDate))
	if err != nil || created.Sub(made) > time.Second || made.Sub(created) > time.Second {
		t.Errorf("CreationDate %q, want the clock's %s: %v", deref(st.CreationDate), made.Format(time.RFC3339), err)
	}
	if age := got.Clock.At.Sub(created); age < 2*time.Hour-time.Second || age > 2*time.Hour+time.Second {
		t.Errorf("the answer's Date is %s after CreationDate, want 2h by the service's clock", age)
	}
	if got.DryRunConfig == nil || got.DryRunConfig.ChangeProgressDetails != nil {
		t.Errorf("DryRunConfig of a domain with no change yet: %+v, want one without ChangeProgressDetails", got.DryRunConfig)
	}
	if p := got.DryRunConfig.ModifyingProperties; len(p) != 1 || deref(p[0].Name) != "SnapshotOptions.AutomatedSnapshotStartHour" || deref(p[0].PendingValue) != "4" {
		t.Errorf("ModifyingProperties %+v, want the start hour going to 4", p)
	}
	dc, err := env.c.DescribeDomainConfig(c, "demo")
	if d := dc.Clock.At.Sub(got.Clock.At); err != nil || d < -time.Second || d > time.Second {
		t.Errorf("DescribeDomainConfig's Date %s, want the service's clock (%s): %v", dc.Clock.At, got.Clock.At, err)
	}
}
