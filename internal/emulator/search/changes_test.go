package search_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	api "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

func stageStatuses(p *api.ChangeProgressStatus) []string {
	out := []string{}
	for _, s := range p.ChangeProgressStages {
		out = append(out, deref(s.Name)+"="+deref(s.Status))
	}
	return out
}

func TestRealUpdateRules(t *testing.T) {
	t.Parallel()
	bigger := obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search", "DedicatedMasterEnabled": false}}
	cases := []struct {
		name     string
		in       api.UpdateDomainConfigInput
		blocked  bool
		mentions string
	}{
		{"advisory not accepted blocks", api.UpdateDomainConfigInput{Sections: bigger}, true, "ADV_NO_DEDICATED_MASTERS (Advisory)"},
		{"other advisory accepted still blocks", api.UpdateDomainConfigInput{Sections: bigger, AcceptedWarnings: []string{"ADV_DUALSTACK_RECOMMENDED"}}, true, "ADV_NO_DEDICATED_MASTERS"},
		{"accepted advisory passes", api.UpdateDomainConfigInput{Sections: bigger, AcceptedWarnings: []string{"ADV_NO_DEDICATED_MASTERS"}}, false, ""},
		{"critical blocks even when listed", api.UpdateDomainConfigInput{Sections: obj{"EngineMode": "OPTIMIZED"}, AcceptedWarnings: []string{"CRIT_ENGINE_MODE_IMMUTABLE"}}, true, "CRIT_ENGINE_MODE_IMMUTABLE (Critical)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t)
			in := tc.in
			in.DomainName = "demo"
			out, err := env.c.UpdateDomainConfig(ctx(t), &in)
			if tc.blocked {
				if !errors.Is(err, client.ErrValidation) || !strings.Contains(err.Error(), tc.mentions) {
					t.Fatalf("want ValidationException naming %s, got %v", tc.mentions, err)
				}
				if d, _ := env.e.Search.Domain("demo"); deref(d.Processing) {
					t.Error("a refused change started")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.DryRunResults != nil || out.DryRunProgressStatus != nil {
				t.Error("a real change answered with dry-run members")
			}
			if api.ValidID(deref(out.DomainConfig.ChangeProgressDetails.ChangeId)) != nil {
				t.Errorf("no ChangeId: %+v", out.DomainConfig.ChangeProgressDetails)
			}
		})
	}
}

func TestBlueGreenChangeToCompletion(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	before, err := env.c.DescribeDomainConfig(c, "demo")
	if err != nil {
		t.Fatal(err)
	}
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{
		DomainName: "demo",
		Sections:   obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DomainConfig.ChangeProgressDetails.ChangeId)
	if got := deref(out.DomainConfig.ChangeProgressDetails.ConfigChangeStatus); got != api.ConfigChangeStatusPending {
		t.Errorf("ConfigChangeStatus at submission %q, want Pending", got)
	}
	if got := deref(sectionOptions[clusterConfig](t, out.DomainConfig, "ClusterConfig").InstanceType); got != "r6g.xlarge.search" {
		t.Errorf("the answer shows InstanceType %q, want the pending value", got)
	}

	// A second change while one runs is refused.
	_, err = env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 4}}})
	if !errors.Is(err, client.ErrLimitExceeded) || apiErr(t, err).StatusCode != 409 || !strings.Contains(err.Error(), "already in progress") {
		t.Errorf("second change: got %v, want LimitExceededException 409", err)
	}

	steps := []struct {
		advance        time.Duration
		status, config string
		stages         []string
		pending, done  []string
	}{
		{30 * time.Minute, "PROCESSING", "Validating",
			[]string{"Validation=PROCESSING", "CreatingNewEnvironment=PENDING", "CopyingShards=PENDING", "DeletingOldEnvironment=PENDING"},
			[]string{"ClusterConfig.InstanceType"}, []string{}},
		{time.Hour, "PROCESSING", "ApplyingChanges",
			[]string{"Validation=COMPLETED", "CreatingNewEnvironment=PROCESSING", "CopyingShards=PENDING", "DeletingOldEnvironment=PENDING"},
			[]string{"ClusterConfig.InstanceType"}, []string{}},
		{time.Hour, "PROCESSING", "ApplyingChanges",
			[]string{"Validation=COMPLETED", "CreatingNewEnvironment=COMPLETED", "CopyingShards=PROCESSING", "DeletingOldEnvironment=PENDING"},
			[]string{"ClusterConfig.InstanceType"}, []string{}},
		{2 * time.Hour, "COMPLETED", "Completed",
			[]string{"Validation=COMPLETED", "CreatingNewEnvironment=COMPLETED", "CopyingShards=COMPLETED", "DeletingOldEnvironment=COMPLETED"},
			[]string{}, []string{"ClusterConfig.InstanceType"}},
	}
	for i, s := range steps {
		if i == 0 {
			// While it runs the domain shows active values, Processing and
			// what is being modified.
			cfg, err := env.c.DescribeDomainConfig(c, "demo")
			if err != nil {
				t.Fatal(err)
			}
			if deref(sectionOptions[clusterConfig](t, cfg, "ClusterConfig").InstanceType) != "r6g.large.search" || deref(sectionStatus(t, cfg, "ClusterConfig").State) != "Processing" || deref(sectionStatus(t, cfg, "SnapshotOptions").State) != "Active" {
				t.Errorf("running change: %s, %s", showSection(cfg, "ClusterConfig"), showSection(cfg, "SnapshotOptions"))
			}
			want := []api.ModifyingProperty{{Name: new("ClusterConfig.InstanceType"), ActiveValue: new("r6g.large.search"), PendingValue: new("r6g.xlarge.search"), ValueType: new("PLAIN_TEXT")}}
			if d := cmp.Diff(want, cfg.ModifyingProperties); d != "" {
				t.Errorf("ModifyingProperties (-want +got):\n%s", d)
			}
		}
		env.e.Clock().Advance(s.advance)
		p, err := env.c.DescribeDomainChangeProgress(c, "demo", id)
		if err != nil {
			t.Fatal(err)
		}
		if deref(p.Status) != s.status || deref(p.ConfigChangeStatus) != s.config || deref(p.TotalNumberOfStages) != 4 || deref(p.ChangeId) != id {
			t.Errorf("step %d: Status %s ConfigChangeStatus %s stages %d", i, deref(p.Status), deref(p.ConfigChangeStatus), deref(p.TotalNumberOfStages))
		}
		if d := cmp.Diff(s.stages, stageStatuses(p)); d != "" {
			t.Errorf("step %d stages (-want +got):\n%s", i, d)
		}
		if d := cmp.Diff(s.pending, append([]string{}, p.PendingProperties...)); d != "" {
			t.Errorf("step %d pending (-want +got):\n%s", i, d)
		}
		if d := cmp.Diff(s.done, append([]string{}, p.CompletedProperties...)); d != "" {
			t.Errorf("step %d completed (-want +got):\n%s", i, d)
		}
	}
	after, err := env.c.DescribeDomainConfig(c, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if deref(sectionOptions[clusterConfig](t, after, "ClusterConfig").InstanceType) != "r6g.xlarge.search" || deref(sectionStatus(t, after, "ClusterConfig").State) != "Active" {
		t.Errorf("completed change not applied: %s", showSection(after, "ClusterConfig"))
	}
	statusBefore, statusAfter := sectionStatus(t, before, "ClusterConfig"), sectionStatus(t, after, "ClusterConfig")
	if v0, v1 := deref(statusBefore.UpdateVersion), deref(statusAfter.UpdateVersion); v1 != v0+1 {
		t.Errorf("UpdateVersion %d -> %d, want +1", v0, v1)
	}
	if deref(statusAfter.UpdateDate) <= deref(statusBefore.UpdateDate) {
		t.Error("UpdateDate did not move")
	}
	if after.ModifyingProperties != nil || deref(after.ChangeProgressDetails.ConfigChangeStatus) != "Completed" {
		t.Errorf("after completion: %+v %+v", after.ModifyingProperties, after.ChangeProgressDetails)
	}
	// Without changeid: the most recent change.
	latest, err := env.c.DescribeDomainChangeProgress(c, "demo", "")
	if err != nil || deref(latest.ChangeId) != id {
		t.Errorf("most recent change: %v %v", deref(latest.ChangeId), err)
	}
}

func TestChangeFailsAtChosenStage(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	if err := env.e.Search.FailNextChangeAt("CopyingShards", ""); err != nil {
		t.Fatal(err)
	}
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"BlockVolumeOptions": obj{"VolumeSize": 200}}})
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DomainConfig.ChangeProgressDetails.ChangeId)
	env.e.Clock().Advance(150 * time.Minute)
	p, err := env.c.DescribeDomainChangeProgress(c, "demo", id)
	if err != nil {
		t.Fatal(err)
	}
	if deref(p.Status) != "PROCESSING" {
		t.Errorf("before the failing stage ends: %s", deref(p.Status))
	}
	env.e.Clock().Advance(time.Hour)
	p, err = env.c.DescribeDomainChangeProgress(c, "demo", id)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Validation=COMPLETED", "CreatingNewEnvironment=COMPLETED", "CopyingShards=FAILED", "DeletingOldEnvironment=PENDING"}
	if d := cmp.Diff(want, stageStatuses(p)); d != "" {
		t.Errorf("stages (-want +got):\n%s", d)
	}
	if deref(p.Status) != "FAILED" || deref(p.ConfigChangeStatus) != "Cancelled" {
		t.Errorf("Status %s ConfigChangeStatus %s, want FAILED Cancelled", deref(p.Status), deref(p.ConfigChangeStatus))
	}
	cfg, err := env.c.DescribeDomainConfig(c, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if deref(sectionOptions[blockVolumeOptions](t, cfg, "BlockVolumeOptions").VolumeSize) != 100 || deref(sectionStatus(t, cfg, "BlockVolumeOptions").State) != "Active" {
		t.Errorf("a failed change was applied: %s", showSection(cfg, "BlockVolumeOptions"))
	}
	if !strings.Contains(deref(cfg.ChangeProgressDetails.Message), "CopyingShards") {
		t.Errorf("failure message %q does not name the stage", deref(cfg.ChangeProgressDetails.Message))
	}
	// The domain takes changes again.
	if _, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 4}}}); err != nil {
		t.Errorf("change after a failure: %v", err)
	}
}

func TestDynamicChange(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	empty, err := env.c.DescribeDomainChangeProgress(c, "demo", "")
	if err != nil || empty.ChangeId != nil {
		t.Errorf("never changed: %+v %v", empty, err)
	}
	out, err := env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 4}}})
	if err != nil {
		t.Fatal(err)
	}
	id := deref(out.DomainConfig.ChangeProgressDetails.ChangeId)
	env.e.Clock().Advance(2 * time.Hour)
	p, err := env.c.DescribeDomainChangeProgress(c, "demo", "")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"Validation=COMPLETED", "ApplyingDynamicChanges=COMPLETED"}, stageStatuses(p)); d != "" || deref(p.ChangeId) != id || deref(p.Status) != "COMPLETED" {
		t.Errorf("dynamic change %s %s (-want +got):\n%s", deref(p.ChangeId), deref(p.Status), d)
	}
	cfg, _ := env.c.DescribeDomainConfig(c, "demo")
	if deref(sectionOptions[snapshotOptions](t, cfg, "SnapshotOptions").AutomatedSnapshotStartHour) != 4 {
		t.Errorf("not applied: %s", showSection(cfg, "SnapshotOptions"))
	}
	// A request that changes nothing starts no change.
	out, err = env.c.UpdateDomainConfig(c, &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 4}}})
	if err != nil || deref(out.DomainConfig.ChangeProgressDetails.ChangeId) != id {
		t.Errorf("no-op change: %v %v", out, err)
	}
	_, err = env.c.DescribeDomainChangeProgress(c, "demo", "00000000-0000-4000-8000-000000000000")
	if !errors.Is(err, client.ErrNotFound) || apiErr(t, err).StatusCode != 409 {
		t.Errorf("unknown change id: %v", err)
	}
}

func TestZeroPaceIsImmediate(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if err := env.e.Search.SetPace(emulatorZeroPace()); err != nil {
		t.Fatal(err)
	}
	out, err := env.c.UpdateDomainConfig(ctx(t), &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"ClusterConfig": obj{"InstanceType": "r6g.xlarge.search"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := deref(out.DomainConfig.ChangeProgressDetails.ConfigChangeStatus); got != "Completed" {
		t.Errorf("zero pace: %s", got)
	}
	d, _ := env.e.Search.Domain("demo")
	if deref(d.ClusterConfig.InstanceType) != "r6g.xlarge.search" {
		t.Errorf("not applied: %+v", d.ClusterConfig)
	}
}

func TestErrorTypesThroughClient(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	c := ctx(t)
	if err := env.e.InjectFault(emulator.Fault{Service: "search", Operation: "DescribeDomainConfig", Kind: emulator.FaultError}); err != nil {
		t.Fatal(err)
	}
	_, err := env.c.DescribeDomainConfig(c, "demo")
	if !errors.Is(err, client.ErrInternal) || apiErr(t, err).Code != "InternalException" {
		t.Errorf("injected error: %v", err)
	}
	if err := env.e.InjectFault(emulator.Fault{Service: "search", Operation: "DescribeDomainChangeProgress", Kind: emulator.FaultThrottle}); err != nil {
		t.Fatal(err)
	}
	_, err = env.c.DescribeDomainChangeProgress(c, "demo", "")
	if !errors.Is(err, client.ErrThrottled) {
		t.Errorf("throttled: %v", err)
	}
	for _, tc := range []struct{ key, secret, code string }{
		{emulator.DefaultAccessKeyID, "wrong-secret", "InvalidSignatureException"},
		{"UNKNOWNKEY", "x", "UnrecognizedClientException"},
	} {
		bad, err := api.New(client.Config{Region: "us-east-1", MaxRetries: -1, Credentials: client.Credentials{AccessKeyID: tc.key, SecretAccessKey: tc.secret}}, env.url)
		if err != nil {
			t.Fatal(err)
		}
		_, err = bad.DescribeDomainConfig(c, "demo")
		if !errors.Is(err, client.ErrAuthentication) || apiErr(t, err).Code != tc.code {
			t.Errorf("%s: got %v", tc.code, err)
		}
	}
}

func TestResetRestoresDemo(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	before, _ := env.e.Search.Domain("demo")
	if err := env.e.Search.SetPace(emulatorZeroPace()); err != nil {
		t.Fatal(err)
	}
	if _, err := env.c.UpdateDomainConfig(ctx(t), &api.UpdateDomainConfigInput{DomainName: "demo", Sections: obj{"SnapshotOptions": obj{"AutomatedSnapshotStartHour": 7}}}); err != nil {
		t.Fatal(err)
	}
	env.e.Reset()
	after, _ := env.e.Search.Domain("demo")
	if d := cmp.Diff(deref(before.SnapshotOptions), deref(after.SnapshotOptions)); d != "" || after.ChangeProgressDetails != nil {
		t.Errorf("reset did not restore the demo (-before +after):\n%s", d)
	}
	if deref(after.ClusterConfig.InstanceCount) != 3 || deref(after.ClusterConfig.ZoneAwarenessConfig.AvailabilityZoneCount) != 3 || deref(after.IPAddressType) != "ipv4" || deref(after.EngineMode) != "GENERAL" {
		t.Errorf("demo domain: %+v", after)
	}
}
