package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// The latency table: every emulator request waits a fixed delay (a delay
// fault), as a request to a real cloud waits its round trip, so what an
// operation costs is mostly how many calls it makes one after another.
// Each row puts ours next to a floor measured in the same run: for key
// bundles, the no-op provider's noop_thing of kind user, attachment and
// key, whose create, refresh and destroy make only the calls the
// operation needs, through our client, against an emulator of its own
// with the same delay; for a domain change, one dry run and the change
// made through our client.

// Wall time targets over the floor (issue's goals for a real network).
const (
	applyTarget   = 1.5
	destroyTarget = 1.2
)

// latencyRow is one row of the latency table.
type latencyRow struct {
	what      string
	made      string // the calls ours made, by operation
	needed    string // the calls the operation needs
	ours      measured
	floor     measured
	floorWhat string // the floor's calls, and what it is when not the no-op provider
	target    string // the target and whether this run met it; empty when none
}

func printLatencyHeader(delay time.Duration, p int) {
	fmt.Printf("\nLatency: %s on every emulator request, parallelism %d.\n\n", delay, p)
	fmt.Println("| Measure | Calls made (ours) | Calls needed | Ours: wall; provider CPU; peak memory | Floor: wall; provider CPU; peak memory | Ratio of wall times | Target |")
	fmt.Println("|---|---|---|---|---|---|---|")
}

func (r latencyRow) String() string {
	floor := r.floor.latencyCell()
	if r.floorWhat != "" {
		floor += " (" + r.floorWhat + ")"
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %.2f | %s |",
		r.what, r.made, r.needed, r.ours.latencyCell(), floor, wallRatio(r.ours, r.floor), r.target)
}

// latencyCell is wall time, then the provider's CPU and peak memory when a
// provider ran.
func (m measured) latencyCell() string {
	s := secs(m.wall)
	if m.providerCPU > 0 {
		s += "; " + secs(m.providerCPU)
	}
	if m.peakKB > 0 {
		s += fmt.Sprintf("; %.1f MiB", float64(m.peakKB)/1024)
	}
	return s
}

func wallRatio(ours, floor measured) float64 {
	if floor.wall == 0 {
		return 0
	}
	return float64(ours.wall) / float64(floor.wall)
}

// ratioTarget is the target cell of a wall time ratio: the bound, and
// whether ratio is within it.
func ratioTarget(ratio, bound float64) string {
	if bound == 0 {
		return ""
	}
	verdict := "met"
	if ratio > bound {
		verdict = "missed"
	}
	return fmt.Sprintf("≤ %.1fx: %s", bound, verdict)
}

// dryRunTarget is the target cell of a domain change: the dry runs it
// needs, and whether it made no more.
func dryRunTarget(made, needed int) string {
	verdict := "met"
	if made > needed {
		verdict = "missed"
	}
	return fmt.Sprintf("%s: %s", plural(needed, "dry run"), verdict)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// callName is how the latency table names a call: its operation, a dry
// run marked.
func callName(c emulator.Call) string {
	if c.DryRun {
		return c.Operation + " (dry run)"
	}
	return c.Operation
}

// callSummary is the calls' count, then each operation's, most made
// first: "502: CreateUser 50, ...".
func callSummary(calls []emulator.Call) string {
	counts := map[string]int{}
	for _, c := range calls {
		counts[callName(c)]++
	}
	ops := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	})
	parts := make([]string, len(ops))
	for i, op := range ops {
		parts[i] = fmt.Sprintf("%s %d", op, counts[op])
	}
	return fmt.Sprintf("%d: %s", len(calls), strings.Join(parts, ", "))
}

// delayAll resets emu and makes every request to it wait delay (none
// when delay is 0).
func delayAll(emu *emulator.Emulator, delay time.Duration) error {
	emu.Reset()
	if delay <= 0 {
		return nil
	}
	return emu.InjectFault(emulator.Fault{Kind: emulator.FaultDelay, Delay: delay, Times: -1})
}

// runLogged is run with the calls emu logged during the command.
func (b *bench) runLogged(ctx context.Context, emu *emulator.Emulator, ws *tfrun.Workspace, args ...string) (measured, []emulator.Call, error) {
	emu.ClearCalls()
	m, err := b.run(ctx, ws, args...)
	if err != nil {
		return m, nil, err
	}
	if n := emu.DroppedCalls(); n > 0 {
		return m, nil, fmt.Errorf("the emulator's request log dropped %d calls of terraform %s", n, args[0])
	}
	return m, emu.Calls(), nil
}

// latencyStep is one command of the key bundles' latency rows.
type latencyStep struct {
	what   string
	args   []string
	needed int // calls needed per bundle
	target float64
	// onSchemaFloor: the target is measured against the floor with our
	// schemas (schemafloor.go), not noop_thing's.
	onSchemaFloor bool
}

// latencySteps are the commands, in order, at parallelism p: create,
// refresh with no change, destroy. A refresh needs one read per object;
// destroy refreshes, then deletes each object.
func latencySteps(p int) []latencyStep {
	par := "-parallelism=" + strconv.Itoa(p)
	return []latencyStep{
		{"terraform apply (create)", []string{"apply", "-auto-approve", par}, 3, applyTarget, false},
		// -detailed-exitcode fails the bench when the plan is not empty.
		{"terraform plan (refresh, no change)", []string{"plan", "-detailed-exitcode", par}, 3, 0, false},
		{"terraform destroy", []string{"destroy", "-auto-approve", par}, 6, destroyTarget, true},
	}
}

// latencyBundles measures create, refresh and destroy of n key bundles at
// parallelism p, ours and the floor in turn, each against an emulator of
// its own that delays every request.
func (b *bench) latencyBundles(ctx context.Context, n, p int, delay time.Duration) ([]latencyRow, error) {
	for _, e := range []*emulator.Emulator{b.emu, b.floorEmu} {
		if err := delayAll(e, delay); err != nil {
			return nil, err
		}
	}
	ours, err := b.workspace("latency-ours")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(ours.Dir)
	if err := ours.Write(b.providerBlock() + bundleConfig(n)); err != nil {
		return nil, err
	}
	floor, err := b.noopWorkspace(b.floorEmu, b.floorSrv.URL, bundleGraph("noop_thing", "id", n, "kind", [3]string{"user", "attachment", "key"}))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(floor.Dir)
	schemas, err := b.newSchemaFloor(n, delay)
	if err != nil {
		return nil, err
	}
	defer schemas.close()
	var rows []latencyRow
	for _, s := range latencySteps(p) {
		o, oCalls, err := b.runLogged(ctx, b.emu, ours, s.args...)
		if err != nil {
			return rows, err
		}
		if s.args[0] == "apply" && o.peakKB > b.peakKB {
			b.peakKB, b.peakWhat = o.peakKB, fmt.Sprintf("apply of %d bundles at parallelism %d, %s delay", n, p, delay)
		}
		f, fCalls, err := b.runLogged(ctx, b.floorEmu, floor, s.args...)
		if err != nil {
			return rows, err
		}
		sf, sfCalls, err := b.runSchemaFloor(ctx, schemas, s)
		if err != nil {
			return rows, err
		}
		rows = append(rows, bundleLatencyRow(s, n, o, oCalls, f, fCalls), schemaFloorRow(s, n, o, oCalls, sf, sfCalls))
	}
	return rows, nil
}

// bundleLatencyRow is step's row for n bundles, next to noop_thing; it
// has step's target unless that is measured against the floor with our
// schemas.
func bundleLatencyRow(s latencyStep, n int, ours measured, oursCalls []emulator.Call, floor measured, floorCalls []emulator.Call) latencyRow {
	r := latencyRow{
		what:      fmt.Sprintf("%s, %d key bundles (%d resources)", s.what, n, 3*n),
		made:      callSummary(oursCalls),
		needed:    strconv.Itoa(s.needed * n),
		ours:      ours,
		floor:     floor,
		floorWhat: fmt.Sprintf("%d calls", len(floorCalls)),
	}
	if !s.onSchemaFloor {
		r.target = ratioTarget(wallRatio(ours, floor), s.target)
	}
	return r
}

// noopWorkspace is a workspace of the no-op provider, configured to call
// emu at url, holding graph.
func (b *bench) noopWorkspace(emu *emulator.Emulator, url, graph string) (*tfrun.Workspace, error) {
	dir, err := os.MkdirTemp("", "bench-noop-")
	if err != nil {
		return nil, err
	}
	env, err := tfrun.DevOverrides(dir, "cloudlabs/noop", b.noopDir)
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	ws := &tfrun.Workspace{CLI: b.cli, Dir: dir, Env: env}
	cfg := fmt.Sprintf(`
terraform {
  required_providers {
    noop = { source = "cloudlabs/noop" }
  }
}
provider "noop" {
  identity_endpoint = %q
  region            = %q
  access_key        = %q
  secret_key        = %q
}
`, url, emu.Region(), emu.AccessKeyID(), emu.SecretAccessKey())
	if err := ws.Write(cfg + graph); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return ws, nil
}

// latencyDomain measures the dry runs of a dynamic domain change with
// every request delayed: a plain apply, a saved plan's apply, and a saved
// plan's apply after a colleague changed another section, next to one dry
// run and the change made through our client.
func (b *bench) latencyDomain(ctx context.Context, delay time.Duration) ([]latencyRow, error) {
	if err := delayAll(b.emu, delay); err != nil {
		return nil, err
	}
	if err := b.emu.Search.SetPace(emusearch.Pace{DryRun: dryRunTime, Dynamic: dynamicTime}); err != nil {
		return nil, err
	}
	c, err := sc.New(client.Config{
		Region:      b.emu.Region(),
		Credentials: client.Credentials{AccessKeyID: b.emu.AccessKeyID(), SecretAccessKey: b.emu.SecretAccessKey()},
	}, b.srv.URL)
	if err != nil {
		return nil, err
	}
	ws, err := b.workspace("latency-domain")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(ws.Dir)
	if err := ws.Write(b.domainConfig(3, false)); err != nil {
		return nil, err
	}
	if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
		return nil, err
	}
	floor, floorCalls, err := b.oneDryRunAndChange(ctx, c, 4)
	if err != nil {
		return nil, err
	}
	floorWhat := fmt.Sprintf("one dry run and the change through our client, %d calls", len(floorCalls))
	row := func(what string, m measured, calls []emulator.Call, needed int) latencyRow {
		return latencyRow{
			what:      fmt.Sprintf("Dynamic domain change (%s dry run, %s change): %s", secs(dryRunTime), secs(dynamicTime), what),
			made:      fmt.Sprintf("%s; %s", plural(emulator.DryRuns(calls), "dry run"), callSummary(calls)),
			needed:    plural(needed, "dry run") + " and the change",
			ours:      m,
			floor:     floor,
			floorWhat: floorWhat,
			target:    dryRunTarget(emulator.DryRuns(calls), needed),
		}
	}

	var rows []latencyRow
	if err := ws.Write(b.domainConfig(5, true)); err != nil {
		return nil, err
	}
	m, calls, err := b.runLogged(ctx, b.emu, ws, "apply", "-auto-approve")
	if err != nil {
		return nil, err
	}
	rows = append(rows, row("plain terraform apply", m, calls, 1))

	m, calls, err = b.savedPlanApply(ctx, ws, 6, nil)
	if err != nil {
		return nil, err
	}
	rows = append(rows, row("terraform plan -out, then terraform apply of the plan", m, calls, 1))

	// A colleague changes another section between the plan and its apply,
	// and their change is done: apply has to dry-run again, since the
	// domain is no longer the one the plan's dry run saw.
	colleague := func() error {
		out, err := c.UpdateDomainConfig(ctx, &sc.UpdateDomainConfigInput{DomainName: "demo", Sections: map[string]any{
			"SoftwareUpdateOptions": map[string]any{"AutoSoftwareUpdateEnabled": true},
		}})
		if err != nil {
			return err
		}
		return waitChange(ctx, c, *out.DomainConfig.ChangeProgressDetails.ChangeId)
	}
	m, calls, err = b.savedPlanApply(ctx, ws, 7, colleague)
	if err != nil {
		return nil, err
	}
	rows = append(rows, row("terraform plan -out, a colleague's change of another section, then terraform apply of the plan", m, calls, 2))
	return rows, nil
}

// savedPlanApply plans the change to hour into a file, runs between (if
// any), then applies the file: the two commands' time and calls, without
// between's.
func (b *bench) savedPlanApply(ctx context.Context, ws *tfrun.Workspace, hour int, between func() error) (measured, []emulator.Call, error) {
	if err := ws.Write(b.domainConfig(hour, true)); err != nil {
		return measured{}, nil, err
	}
	plan, planCalls, err := b.runLogged(ctx, b.emu, ws, "plan", "-out=change.tfplan")
	if err != nil {
		return measured{}, nil, err
	}
	if between != nil {
		if err := between(); err != nil {
			return measured{}, nil, err
		}
	}
	apply, applyCalls, err := b.runLogged(ctx, b.emu, ws, "apply", "change.tfplan")
	if err != nil {
		return measured{}, nil, err
	}
	return sumOf(plan, apply), append(planCalls, applyCalls...), nil
}

// sumOf is two commands' figures together: times and counts added, the
// larger peak.
func sumOf(a, b measured) measured {
	return measured{
		wall: a.wall + b.wall, cpu: a.cpu + b.cpu, providerCPU: a.providerCPU + b.providerCPU, benchCPU: a.benchCPU + b.benchCPU,
		peakKB: max(a.peakKB, b.peakKB), conns: a.conns + b.conns, requests: a.requests + b.requests,
	}
}

// oneDryRunAndChange is the floor of a domain change: a Verbose dry run
// of the change to hour, followed until done, then the change, followed
// until done, through our client with the provider's polling (package
// poll).
func (b *bench) oneDryRunAndChange(ctx context.Context, c *sc.Client, hour int) (measured, []emulator.Call, error) {
	b.emu.ClearCalls()
	start := time.Now()
	sections := map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": hour}}
	yes, verbose := true, sc.DryRunModeVerbose
	dry, err := c.UpdateDomainConfig(ctx, &sc.UpdateDomainConfigInput{DomainName: "demo", Sections: sections, DryRun: &yes, DryRunMode: &verbose})
	if err != nil {
		return measured{}, nil, err
	}
	id := sc.Deref(dry.DryRunProgressStatus.DryRunId)
	err = poll.Until(ctx, func(ctx context.Context) (bool, time.Duration, error) {
		p, err := c.DescribeDryRunProgress(ctx, sc.DescribeDryRunProgressInput{DomainName: "demo", DryRunID: id, LoadDryRunConfig: true})
		if err != nil {
			return false, 0, err
		}
		switch sc.Deref(p.DryRunProgressStatus.DryRunStatus) {
		case sc.DryRunStatusCompleted:
			return true, 0, nil
		case sc.DryRunStatusFailed:
			return false, 0, fmt.Errorf("the floor's dry run failed")
		}
		return false, poll.Share(start), nil
	})
	if err != nil {
		return measured{}, nil, err
	}
	out, err := c.UpdateDomainConfig(ctx, &sc.UpdateDomainConfigInput{DomainName: "demo", Sections: sections})
	if err != nil {
		return measured{}, nil, err
	}
	if err := waitChange(ctx, c, *out.DomainConfig.ChangeProgressDetails.ChangeId); err != nil {
		return measured{}, nil, err
	}
	return measured{wall: time.Since(start)}, b.emu.Calls(), nil
}

// waitChange follows the demo domain's change id until it is done, as
// the provider does (package poll).
func waitChange(ctx context.Context, c *sc.Client, id string) error {
	start := time.Now()
	return poll.Until(ctx, func(ctx context.Context) (bool, time.Duration, error) {
		p, err := c.DescribeDomainChangeProgress(ctx, "demo", id)
		if err != nil {
			return false, 0, err
		}
		switch sc.Deref(p.Status) {
		case sc.ChangeStatusCompleted:
			return true, 0, nil
		case sc.ChangeStatusFailed:
			return false, 0, fmt.Errorf("change %s failed", id)
		}
		now := time.Now()
		o := p.Observation(now)
		o.Waited = now.Sub(start)
		return false, poll.Next(o), nil
	})
}
