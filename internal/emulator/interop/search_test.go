package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/opensearch"
	"github.com/aws/aws-sdk-go-v2/service/opensearch/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

const domain = "demo"

// A Basic dry run answers the deployment type at once and changes nothing;
// a Verbose one runs by the emulator's clock and ends with its validation
// failures, and loads the planned configuration on request.
func TestSearchSDK_dryRun(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.setClock(t, offPeak)
	// An hour-long dry run: the few milliseconds of real time the test
	// takes cannot move it; only Advance does.
	if err := s.Search.SetPace(search.Pace{DryRun: time.Hour}); err != nil {
		t.Fatal(err)
	}
	c := s.search()
	ctx := context.Background()
	change := &types.ClusterConfig{InstanceType: types.OpenSearchPartitionInstanceType("r6g.xlarge.search"), DedicatedMasterCount: aws.Int32(4)}

	basic, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{
		DomainName: aws.String(domain), DryRun: aws.Bool(true), DryRunMode: types.DryRunModeBasic, ClusterConfig: change,
	})
	if err != nil {
		t.Fatalf("Basic dry run: %v", err)
	}
	if got := aws.ToString(basic.DryRunResults.DeploymentType); got != "blue/green" {
		t.Errorf("Basic dry run: DeploymentType %q, want blue/green", got)
	}
	if got := aws.ToString(basic.DryRunProgressStatus.DryRunStatus); got != "completed" || len(basic.DryRunProgressStatus.ValidationFailures) != 0 {
		t.Errorf("Basic dry run: status %q, failures %v; want completed, none (Basic does not validate)", got, basic.DryRunProgressStatus.ValidationFailures)
	}
	if got := basic.DomainConfig.ClusterConfig.Options.InstanceType; got != "r6g.large.search" {
		t.Errorf("Basic dry run: the answer's DomainConfig shows InstanceType %q, want the current r6g.large.search", got)
	}
	if !slices.ContainsFunc(basic.DomainConfig.ModifyingProperties, func(p types.ModifyingProperties) bool {
		return aws.ToString(p.Name) == "ClusterConfig.InstanceType" && aws.ToString(p.PendingValue) == "r6g.xlarge.search" && p.ValueType == types.PropertyValueTypePlainText
	}) {
		t.Errorf("Basic dry run: ModifyingProperties %+v lack ClusterConfig.InstanceType -> r6g.xlarge.search", basic.DomainConfig.ModifyingProperties)
	}
	_, err = c.DescribeDryRunProgress(ctx, &opensearch.DescribeDryRunProgressInput{
		DomainName: aws.String(domain), DryRunId: basic.DryRunProgressStatus.DryRunId, LoadDryRunConfig: aws.Bool(true),
	})
	var disabled *types.DisabledOperationException
	if !errors.As(err, &disabled) {
		t.Errorf("loading the configuration of a Basic dry run: %v, want DisabledOperationException", err)
	}

	verbose, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{
		DomainName: aws.String(domain), DryRun: aws.Bool(true), DryRunMode: types.DryRunModeVerbose, ClusterConfig: change,
	})
	if err != nil {
		t.Fatalf("Verbose dry run: %v", err)
	}
	id := verbose.DryRunProgressStatus.DryRunId
	if len(aws.ToString(id)) != 36 || aws.ToString(id) == aws.ToString(basic.DryRunProgressStatus.DryRunId) {
		t.Errorf("Verbose dry run id %q: want a new 36-character id", aws.ToString(id))
	}
	progress := func(load bool, byID bool) *opensearch.DescribeDryRunProgressOutput {
		t.Helper()
		in := &opensearch.DescribeDryRunProgressInput{DomainName: aws.String(domain), LoadDryRunConfig: aws.Bool(load)}
		if byID {
			in.DryRunId = id
		}
		out, err := c.DescribeDryRunProgress(ctx, in)
		if err != nil {
			t.Fatalf("DescribeDryRunProgress: %v", err)
		}
		return out
	}
	for _, step := range []struct {
		advance  time.Duration
		status   string
		failures []string
	}{
		{0, "pending", nil},
		{20 * time.Minute, "in-progress", nil},
		{41 * time.Minute, "completed", []string{"CRIT_DEDICATED_MASTER_COUNT_INVALID"}},
	} {
		s.Clock().Advance(step.advance)
		p := progress(false, true)
		var codes []string
		for _, f := range p.DryRunProgressStatus.ValidationFailures {
			codes = append(codes, aws.ToString(f.Code))
		}
		if got := aws.ToString(p.DryRunProgressStatus.DryRunStatus); got != step.status || !slices.Equal(codes, step.failures) {
			t.Errorf("after %s more: status %q, failures %v; want %q, %v", step.advance, got, codes, step.status, step.failures)
		}
		created, err1 := time.Parse(time.RFC3339, aws.ToString(p.DryRunProgressStatus.CreationDate))
		updated, err2 := time.Parse(time.RFC3339, aws.ToString(p.DryRunProgressStatus.UpdateDate))
		if err1 != nil || err2 != nil || updated.Before(created) {
			t.Errorf("after %s more: CreationDate %q, UpdateDate %q", step.advance, aws.ToString(p.DryRunProgressStatus.CreationDate), aws.ToString(p.DryRunProgressStatus.UpdateDate))
		}
		if got := aws.ToString(p.DryRunResults.DeploymentType); got != "blue/green" {
			t.Errorf("after %s more: DeploymentType %q, want blue/green (known at submission)", step.advance, got)
		}
	}
	loaded := progress(true, false)
	if aws.ToString(loaded.DryRunProgressStatus.DryRunId) != aws.ToString(id) {
		t.Errorf("without dryRunId: dry run %q, want the latest, %q", aws.ToString(loaded.DryRunProgressStatus.DryRunId), aws.ToString(id))
	}
	cfg := loaded.DryRunConfig
	if cfg == nil || aws.ToString(cfg.DomainName) != domain || cfg.ClusterConfig == nil || cfg.ClusterConfig.InstanceType != "r6g.xlarge.search" {
		t.Errorf("loadDryRunConfig: DryRunConfig %+v, want domain demo with InstanceType r6g.xlarge.search", cfg)
	} else if !strings.HasPrefix(aws.ToString(cfg.Endpoint), "search-demo-") || aws.ToString(cfg.ARN) == "" {
		t.Errorf("DryRunConfig: Endpoint %q, ARN %q", aws.ToString(cfg.Endpoint), aws.ToString(cfg.ARN))
	}
	if now, err := c.DescribeDomainConfig(ctx, &opensearch.DescribeDomainConfigInput{DomainName: aws.String(domain)}); err != nil {
		t.Fatal(err)
	} else if got := now.DomainConfig.ClusterConfig.Options.InstanceType; got != "r6g.large.search" {
		t.Errorf("after two dry runs InstanceType is %q: a dry run was applied", got)
	}
}

// A real change, its advisory warnings accepted as a Verbose dry run
// reported them, followed stage by stage with DescribeDomainChangeProgress
// while the test moves the emulator's clock, to completion.
func TestSearchSDK_changeProgress(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.setClock(t, offPeak)
	const stage = time.Hour
	if err := s.Search.SetPace(search.Pace{BlueGreenStage: stage}); err != nil {
		t.Fatal(err)
	}
	c := s.search()
	ctx := context.Background()
	change := &types.ClusterConfig{InstanceType: types.OpenSearchPartitionInstanceType("r6g.xlarge.search")}
	dry, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{
		DomainName: aws.String(domain), DryRun: aws.Bool(true), DryRunMode: types.DryRunModeVerbose, ClusterConfig: change,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Inside the off-peak window the change draws no warning at all.
	if codes := advisoryCodes(t, s, dry.DryRunProgressStatus.ValidationFailures); len(codes) != 0 {
		t.Fatalf("the dry run at %s reports %v, want none", offPeak, codes)
	}
	up, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{DomainName: aws.String(domain), ClusterConfig: change})
	if err != nil {
		t.Fatalf("the change: %v", err)
	}
	if got := up.DomainConfig.ClusterConfig.Options.InstanceType; got != "r6g.xlarge.search" {
		t.Errorf("the answer shows InstanceType %q, want the pending r6g.xlarge.search", got)
	}
	// PENDING lasts no time at all: the answer to the submission, made at
	// the change's start, is the one place it shows; the emulator's clock
	// runs on from there.
	details := up.DomainConfig.ChangeProgressDetails
	id := details.ChangeId
	if len(aws.ToString(id)) != 36 || details.ConfigChangeStatus != types.ConfigChangeStatusPending {
		t.Fatalf("ChangeProgressDetails of the submission: %+v, want a ChangeId and Pending", details)
	}
	type want struct {
		status types.OverallChangeStatus
		config types.ConfigChangeStatus
		stages []string // the status of each stage
	}
	steps := []struct {
		advance time.Duration
		want    want
	}{
		{stage / 2, want{types.OverallChangeStatusProcessing, types.ConfigChangeStatusValidating, []string{"PROCESSING", "PENDING", "PENDING", "PENDING"}}},
		{stage, want{types.OverallChangeStatusProcessing, types.ConfigChangeStatusApplyingChanges, []string{"COMPLETED", "PROCESSING", "PENDING", "PENDING"}}},
		{stage, want{types.OverallChangeStatusProcessing, types.ConfigChangeStatusApplyingChanges, []string{"COMPLETED", "COMPLETED", "PROCESSING", "PENDING"}}},
		{stage, want{types.OverallChangeStatusProcessing, types.ConfigChangeStatusApplyingChanges, []string{"COMPLETED", "COMPLETED", "COMPLETED", "PROCESSING"}}},
		{stage, want{types.OverallChangeStatusCompleted, types.ConfigChangeStatusCompleted, []string{"COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED"}}},
	}
	for i, step := range steps {
		s.Clock().Advance(step.advance)
		out, err := c.DescribeDomainChangeProgress(ctx, &opensearch.DescribeDomainChangeProgressInput{DomainName: aws.String(domain), ChangeId: id})
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		p := out.ChangeProgressStatus
		var stages, names []string
		for _, st := range p.ChangeProgressStages {
			stages = append(stages, aws.ToString(st.Status))
			names = append(names, aws.ToString(st.Name))
			if aws.ToString(st.Description) == "" || (st.LastUpdated == nil) != (aws.ToString(st.Status) == "PENDING") {
				t.Errorf("step %d: stage %s (%s): description %q, LastUpdated %v; want a description, and LastUpdated once started", i, aws.ToString(st.Name), aws.ToString(st.Status), aws.ToString(st.Description), st.LastUpdated)
			}
		}
		if want := []string{"Validation", "CreatingNewEnvironment", "CopyingShards", "DeletingOldEnvironment"}; !slices.Equal(names, want) {
			t.Errorf("step %d: stages %v, want %v", i, names, want)
		}
		got := want{p.Status, p.ConfigChangeStatus, stages}
		if got.status != step.want.status || got.config != step.want.config || !slices.Equal(got.stages, step.want.stages) {
			t.Errorf("step %d (+%s): %v, want %v", i, step.advance, got, step.want)
		}
		if p.TotalNumberOfStages != 4 || aws.ToString(p.ChangeId) != aws.ToString(id) || p.StartTime == nil || p.LastUpdatedTime == nil {
			t.Errorf("step %d: %d stages, id %q, start %v, updated %v", i, p.TotalNumberOfStages, aws.ToString(p.ChangeId), p.StartTime, p.LastUpdatedTime)
		}
		done := p.Status == types.OverallChangeStatusCompleted
		props := p.PendingProperties
		if done {
			props = p.CompletedProperties
		}
		if !slices.Contains(props, "ClusterConfig.InstanceType") {
			t.Errorf("step %d: pending %v, completed %v; want ClusterConfig.InstanceType in the %s", i, p.PendingProperties, p.CompletedProperties, map[bool]string{true: "completed", false: "pending"}[done])
		}
	}
	// Without a ChangeId: the most recent change, the same one.
	latest, err := c.DescribeDomainChangeProgress(ctx, &opensearch.DescribeDomainChangeProgressInput{DomainName: aws.String(domain)})
	if err != nil || aws.ToString(latest.ChangeProgressStatus.ChangeId) != aws.ToString(id) {
		t.Errorf("without changeid: %v, %v", latest, err)
	}
	cfg, err := c.DescribeDomainConfig(ctx, &opensearch.DescribeDomainConfigInput{DomainName: aws.String(domain)})
	if err != nil {
		t.Fatal(err)
	}
	cc := cfg.DomainConfig.ClusterConfig
	if cc.Options.InstanceType != "r6g.xlarge.search" || cc.Status.UpdateVersion != 2 || cc.Status.State != types.OptionStateActive {
		t.Errorf("after completion: InstanceType %q, UpdateVersion %d, State %q; want r6g.xlarge.search, 2, Active", cc.Options.InstanceType, cc.Status.UpdateVersion, cc.Status.State)
	}
	if d := cfg.DomainConfig.ChangeProgressDetails; d == nil || aws.ToString(d.ChangeId) != aws.ToString(id) || d.ConfigChangeStatus != types.ConfigChangeStatusCompleted {
		t.Errorf("ChangeProgressDetails after completion: %+v", d)
	}
}

// Outside the off-peak window a blue/green change draws the advisory
// ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK: reported by a dry run, it refuses the
// change until accepted.
func TestSearchSDK_outsideOffPeak(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.setClock(t, outsideOff)
	if err := s.Search.SetPace(search.Pace{}); err != nil {
		t.Fatal(err)
	}
	c := s.search(func(o *opensearch.Options) { o.RetryMaxAttempts = 1 })
	ctx := context.Background()
	change := &types.ClusterConfig{InstanceType: types.OpenSearchPartitionInstanceType("r6g.xlarge.search")}
	dry, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{
		DomainName: aws.String(domain), DryRun: aws.Bool(true), DryRunMode: types.DryRunModeVerbose, ClusterConfig: change,
	})
	if err != nil {
		t.Fatal(err)
	}
	codes := advisoryCodes(t, s, dry.DryRunProgressStatus.ValidationFailures)
	if want := []string{search.AdvBlueGreenOutsideOffPeak}; !slices.Equal(codes, want) {
		t.Fatalf("the dry run at %s reports %v, want %v", outsideOff, codes, want)
	}
	_, err = c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{DomainName: aws.String(domain), ClusterConfig: change})
	if !isErr[*types.ValidationException](err) || !strings.Contains(err.Error(), search.AdvBlueGreenOutsideOffPeak) {
		t.Errorf("the change, the warning not accepted: %v, want a ValidationException naming %s", err, search.AdvBlueGreenOutsideOffPeak)
	}
	if _, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{DomainName: aws.String(domain), ClusterConfig: change},
		withMembers(map[string]any{"AcceptedWarnings": codes})); err != nil {
		t.Errorf("the change, the warning accepted: %v", err)
	}
}

// Each error of the spec's table, as the SDK's typed error.
func TestSearchSDK_errors(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.setClock(t, offPeak)
	ctx := context.Background()
	c := s.search(func(o *opensearch.Options) { o.RetryMaxAttempts = 1 })
	if err := s.Search.SetPace(search.Pace{Dynamic: time.Hour, BlueGreenStage: time.Hour}); err != nil {
		t.Fatal(err)
	}
	update := func(in *opensearch.UpdateDomainConfigInput) error {
		if in.DomainName == nil {
			in.DomainName = aws.String(domain)
		}
		_, err := c.UpdateDomainConfig(ctx, in)
		return err
	}
	fault := func(code string, status int) {
		if err := s.InjectFault(emulatorFault("search", code, status)); err != nil {
			t.Fatal(err)
		}
	}
	tooMany := make([]string, 26)
	for i := range tooMany {
		tooMany[i] = "ADV_CODE"
	}
	cases := []struct {
		name string
		call func() error
		as   func(error) bool
		msg  string
	}{
		{"ValidationException: a domain name of 2 characters", func() error {
			_, err := c.DescribeDomainChangeProgress(ctx, &opensearch.DescribeDomainChangeProgressInput{DomainName: aws.String("ab")})
			return err
		}, isErr[*types.ValidationException], ""},
		{"ValidationException: 26 AcceptedWarnings", func() error {
			_, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{DomainName: aws.String(domain), SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(3)}},
				withMembers(map[string]any{"AcceptedWarnings": tooMany}))
			return err
		}, isErr[*types.ValidationException], "25"},
		{"ResourceNotFoundException: an unknown domain", func() error {
			return update(&opensearch.UpdateDomainConfigInput{DomainName: aws.String("nowhere"), SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(3)}})
		}, isErr[*types.ResourceNotFoundException], ""},
		{"ResourceNotFoundException: an unknown dry run", func() error {
			_, err := c.DescribeDryRunProgress(ctx, &opensearch.DescribeDryRunProgressInput{DomainName: aws.String(domain), DryRunId: aws.String("00000000-0000-4000-8000-000000000000")})
			return err
		}, isErr[*types.ResourceNotFoundException], ""},
		{"ResourceNotFoundException: an unknown change", func() error {
			_, err := c.DescribeDomainChangeProgress(ctx, &opensearch.DescribeDomainChangeProgressInput{DomainName: aws.String(domain), ChangeId: aws.String("00000000-0000-4000-8000-000000000000")})
			return err
		}, isErr[*types.ResourceNotFoundException], ""},
		{"InvalidTypeException: a log type that is not one of the four", func() error {
			return update(&opensearch.UpdateDomainConfigInput{LogPublishingOptions: map[string]types.LogPublishingOption{"TASK_DETAILS_LOGS": {Enabled: aws.Bool(false)}}})
		}, isErr[*types.InvalidTypeException], ""},
		{"DisabledOperationException: the configuration of a Basic dry run", func() error {
			out, err := c.UpdateDomainConfig(ctx, &opensearch.UpdateDomainConfigInput{DomainName: aws.String(domain), DryRun: aws.Bool(true), DryRunMode: types.DryRunModeBasic, SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(3)}})
			if err != nil {
				return err
			}
			_, err = c.DescribeDryRunProgress(ctx, &opensearch.DescribeDryRunProgressInput{DomainName: aws.String(domain), DryRunId: out.DryRunProgressStatus.DryRunId, LoadDryRunConfig: aws.Bool(true)})
			return err
		}, isErr[*types.DisabledOperationException], ""},
		{"LimitExceededException: a change while another runs", func() error {
			if err := update(&opensearch.UpdateDomainConfigInput{SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(4)}}); err != nil {
				return err
			}
			return update(&opensearch.UpdateDomainConfigInput{SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(5)}})
		}, isErr[*types.LimitExceededException], "already in progress"},
		{"BaseException (injected)", func() error {
			fault("BaseException", 400)
			return update(&opensearch.UpdateDomainConfigInput{SnapshotOptions: &types.SnapshotOptions{AutomatedSnapshotStartHour: aws.Int32(3)}})
		}, isErr[*types.BaseException], ""},
		{"InternalException (injected)", func() error {
			fault("", 500)
			_, err := c.DescribeDomainChangeProgress(ctx, &opensearch.DescribeDomainChangeProgressInput{DomainName: aws.String(domain)})
			return err
		}, isErr[*types.InternalException], ""},
		{"ThrottlingException, 429 (injected; the design guide's, not in the spec's table, nor a typed error of the SDK's DescribeDomainConfig: its code)", func() error {
			if err := s.InjectFault(emulator.Fault{Service: "search", Kind: emulator.FaultThrottle}); err != nil {
				t.Fatal(err)
			}
			_, err := c.DescribeDomainConfig(ctx, &opensearch.DescribeDomainConfigInput{DomainName: aws.String(domain)})
			return err
		}, func(err error) bool { return errorCode(err) == "ThrottlingException" }, "Rate exceeded"},
	}
	for _, tc := range cases {
		err := tc.call()
		if !tc.as(err) {
			t.Errorf("%s: %v (%T)", tc.name, err, errors.Unwrap(err))
		} else if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want a message with %q", tc.name, err, tc.msg)
		}
	}
}

// isErr reports whether err is, or wraps, an error of type T.
func isErr[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}

// advisoryCodes are the codes of failures, which must all be Advisory. The
// SDK's ValidationFailure has no Severity member (the spec's has), so the
// severity is read from the raw answer the recorder kept.
func advisoryCodes(t *testing.T, s *server, failures []types.ValidationFailure) []string {
	t.Helper()
	var raw struct {
		DryRunProgressStatus struct {
			ValidationFailures []struct{ Code, Message, Severity string }
		}
	}
	_, resp, _ := s.rec.last()
	if err := json.Unmarshal([]byte(resp), &raw); err != nil {
		t.Fatalf("the raw dry run answer: %v", err)
	}
	codes := []string{}
	for i, f := range raw.DryRunProgressStatus.ValidationFailures {
		if i >= len(failures) || aws.ToString(failures[i].Code) != f.Code || aws.ToString(failures[i].Message) != f.Message {
			t.Fatalf("the SDK decoded %+v from %s", failures, resp)
		}
		if f.Severity != "Advisory" {
			t.Fatalf("the dry run reports a %s failure: %s %s", f.Severity, f.Code, f.Message)
		}
		codes = append(codes, f.Code)
	}
	if len(failures) != len(raw.DryRunProgressStatus.ValidationFailures) {
		t.Fatalf("the SDK decoded %d failures of %d", len(failures), len(raw.DryRunProgressStatus.ValidationFailures))
	}
	return codes
}
