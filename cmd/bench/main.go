// Command bench measures the provider against the in-process emulator and
// prints two tables. The first: how soon waits see a change done and at
// what cost, next to the fixed polling of the best-known peer; terraform
// apply, plan and plan -refresh-only wall and CPU time for key bundles
// next to terraform_data (the Terraform core floor) and to a provider that
// does nothing (./noop, the floor of a framework provider); the
// connections the provider opens; the plan-time cost of the dry run;
// start-up and schema load time; and the provider's peak memory. The
// second (latency.go): with a delay on every request, as on a real
// network, the calls and wall time of creating, refreshing and destroying
// key bundles and of a domain change, next to floors that make only the
// calls each needs. `make bench` runs it.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

func main() {
	cli := flag.String("cli", os.Getenv("TF_CLI"), "the Terraform CLI")
	binDir := flag.String("provider-dir", "bin", "directory holding terraform-provider-cloud")
	sizes := flag.String("bundles", "50,300", "key bundle counts (user + attachment + key each) of the latency rows")
	latencyPar := flag.Int("latency-parallelism", 10, "terraform -parallelism of the latency rows")
	delay := flag.Duration("delay", 50*time.Millisecond, "the delay of every emulator request in the latency rows (0: none)")
	refreshSizes := flag.String("refresh-bundles", "100,300", "key bundle counts of the rows without delay (apply, plan, refresh next to the floors); empty for none")
	pars := flag.String("parallelism", "10,50", "terraform -parallelism values of the rows without delay")
	bundlesOnly := flag.Bool("bundles-only", false, "measure only the key bundles' rows (no waits, dry runs or start-up)")
	estateUsers := flag.Int("estate", 0, "users of the estate whose terraform query and import plan are measured (two keys each); 0 for none")
	estateCLI := flag.String("estate-cli", "", "the Terraform CLI of the estate rows, 1.14 or later (terraform query); default -cli")
	estateQueryOnly := flag.Bool("estate-query-only", false, "measure the estate's query, not its import plan (which Terraform itself takes long over at thousands of imports)")
	flag.Parse()
	if *cli == "" {
		fail(errors.New("set -cli or TF_CLI to the Terraform CLI"))
	}
	abs, err := filepath.Abs(*binDir)
	if err != nil {
		fail(err)
	}
	b := &bench{cli: *cli, binDir: abs}
	b.start()
	defer b.srv.Close()
	defer b.floorSrv.Close()
	ctx := context.Background()
	noopDir, err := buildNoop(ctx)
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(noopDir)
	b.noopDir = noopDir
	began := time.Now()

	if !*bundlesOnly || len(ints(*refreshSizes)) > 0 {
		fmt.Println("| Measure | Ours | Reference | Ratio |")
		fmt.Println("|---|---|---|---|")
	}
	if !*bundlesOnly {
		check(b.waits(ctx))
	}
	for _, n := range ints(*refreshSizes) {
		for _, p := range ints(*pars) {
			check(b.bundles(ctx, n, p))
		}
	}
	if !*bundlesOnly {
		check(b.dryRun(ctx))
		check(b.startup(ctx))
	}
	if b.peakKB > 0 {
		fmt.Printf("| Provider peak memory (VmHWM), %s | %.1f MiB | | |\n", b.peakWhat, float64(b.peakKB)/1024)
	}

	// Rows are printed as they are measured: a long run shows its progress.
	if !*bundlesOnly || len(ints(*sizes)) > 0 {
		printLatencyHeader(*delay, *latencyPar)
	}
	b.peakKB = 0
	for _, n := range ints(*sizes) {
		rows, err := b.latencyBundles(ctx, n, *latencyPar, *delay)
		check(err)
		for _, r := range rows {
			fmt.Println(r)
		}
	}
	if !*bundlesOnly {
		rows, err := b.latencyDomain(ctx, *delay)
		check(err)
		for _, r := range rows {
			fmt.Println(r)
		}
	}
	if b.peakKB > 0 {
		fmt.Printf("\nProvider peak memory (VmHWM) with the delay: %.1f MiB, %s.\n", float64(b.peakKB)/1024, b.peakWhat)
	}
	if *estateUsers > 0 {
		check(b.estate(ctx, cmp.Or(*estateCLI, *cli), *estateUsers, *delay, *estateQueryOnly))
	}
	fmt.Printf("\nTotal bench time %s.\n", time.Since(began).Round(time.Second))
}

type bench struct {
	cli, binDir string
	noopDir     string // holds terraform-provider-noop
	emu         *emulator.Emulator
	srv         *httptest.Server
	// floorEmu serves the latency rows' floor, so that ours and the floor
	// can take turns each on a state of its own.
	floorEmu *emulator.Emulator
	floorSrv *httptest.Server
	conns    atomic.Int64 // connections the emulator accepted
	requests atomic.Int64 // requests it served
	peakKB   int          // largest provider VmHWM seen, kB
	peakWhat string
}

func (b *bench) start() {
	b.emu = emulator.New(emulator.Options{})
	b.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.requests.Add(1)
		b.emu.ServeHTTP(w, r)
	}))
	b.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			b.conns.Add(1)
		}
	}
	b.srv.Start()
	b.floorEmu = emulator.New(emulator.Options{})
	b.floorSrv = httptest.NewServer(b.floorEmu)
}

// run runs one Terraform command and measures it: wall time, the CPU time
// of Terraform and its children (the provider), the provider's share, the
// provider's peak memory, and the connections and requests the emulator saw.
func (b *bench) run(ctx context.Context, ws *tfrun.Workspace, args ...string) (measured, error) {
	s := &procSampler{}
	ws.OnStart = s.follow
	defer func() { ws.OnStart = nil }()
	conns, requests := b.conns.Load(), b.requests.Load()
	cpu, self := rusage(syscall.RUSAGE_CHILDREN), rusage(syscall.RUSAGE_SELF)
	wall, err := ws.Run(ctx, args...)
	m := measured{wall: wall, cpu: rusage(syscall.RUSAGE_CHILDREN) - cpu}
	m.providerCPU, m.peakKB = s.wait()
	m.benchCPU = rusage(syscall.RUSAGE_SELF) - self
	m.conns, m.requests = b.conns.Load()-conns, b.requests.Load()-requests
	return m, err
}

type measured struct {
	wall, cpu, providerCPU time.Duration
	benchCPU               time.Duration // this process's: the emulator's, mostly
	peakKB                 int
	conns, requests        int64
}

// rusage is user and system CPU time. Of RUSAGE_CHILDREN: this process's
// children that have ended (and of theirs that those waited for),
// Terraform's and its providers' for a Terraform command. Of RUSAGE_SELF:
// this process's, where the emulator runs (and the samplers, a little).
func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		fail(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (b *bench) providerBlock() string {
	return fmt.Sprintf(`
terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}
provider "cloud" {
  region     = %q
  access_key = %q
  secret_key = %q
  endpoints = {
    identity = %q
    search   = %q
    models   = %q
  }
}
`, b.emu.Region(), b.emu.AccessKeyID(), b.emu.SecretAccessKey(), b.srv.URL, b.srv.URL, b.srv.URL)
}

func (b *bench) workspace(name string) (*tfrun.Workspace, error) {
	dir, err := os.MkdirTemp("", "bench-"+name+"-")
	if err != nil {
		return nil, err
	}
	env, err := tfrun.DevOverrides(dir, "cloudlabs/cloud", b.binDir)
	if err != nil {
		return nil, err
	}
	return &tfrun.Workspace{CLI: b.cli, Dir: dir, Env: env}, nil
}

// waitCase is one change the waits follow: how long it takes, and how many
// times faster than real time the emulator's clock runs meanwhile.
type waitCase struct {
	length time.Duration
	speed  float64
}

// waitResult is what one strategy saw of one change.
type waitResult struct {
	polls int
	lag   time.Duration
	err   error
}

// waits follows real changes of the emulator, its clock sped up, with our
// strategy and with the peer's (first poll after 60 s, then every 10 s).
func (b *bench) waits(ctx context.Context) error {
	c, err := sc.New(client.Config{
		Region:      b.emu.Region(),
		Credentials: client.Credentials{AccessKeyID: b.emu.AccessKeyID(), SecretAccessKey: b.emu.SecretAccessKey()},
		MaxRetries:  -1,
	}, b.srv.URL)
	if err != nil {
		return err
	}
	for _, tc := range []waitCase{{5 * time.Second, 5}, {time.Minute, 10}, {15 * time.Minute, 60}} {
		res, err := b.waitBoth(ctx, c, tc)
		if err != nil {
			return err
		}
		fmt.Printf("| Wait, %s dynamic change (clock ×%g): lag / polls | %s / %d | %s / %d (peer: 60 s, then every 10 s) | lag %s |\n",
			tc.length, tc.speed, res[0].lag.Round(10*time.Millisecond), res[0].polls, res[1].lag.Round(10*time.Millisecond), res[1].polls,
			ratio(res[0].lag, res[1].lag))
	}
	return nil
}

// waitBoth submits the same change to two domains and follows them at
// once, the first with our strategy, the second with the peer's.
func (b *bench) waitBoth(ctx context.Context, c *sc.Client, tc waitCase) ([2]waitResult, error) {
	var res [2]waitResult
	b.emu.Clock().SetSpeed(tc.speed)
	defer b.emu.Clock().SetSpeed(1)
	var wg sync.WaitGroup
	defer wg.Wait()
	for i, strategy := range []string{"ours", "peer"} {
		ch, err := b.submitChange(ctx, c, tc, strategy)
		if err != nil {
			return res, err
		}
		wg.Go(func() { res[i] = ch.follow(ctx, strategy == "peer") })
	}
	wg.Wait()
	for _, r := range res {
		if r.err != nil {
			return res, r.err
		}
	}
	return res, nil
}

// change is a domain change submitted for a strategy to follow.
type change struct {
	c          *sc.Client
	domain, id string
	submitted  time.Time
	now        func() time.Time // the emulator's clock
	speed      float64
}

// submitChange makes a domain for strategy whose changes take tc.length,
// and submits a change to it.
func (b *bench) submitChange(ctx context.Context, c *sc.Client, tc waitCase, strategy string) (change, error) {
	domain := fmt.Sprintf("bench-%s-%d", strategy, int(tc.length.Seconds()))
	if err := b.emu.Search.AddDomain(emusearch.DomainSpec{DomainName: domain}); err != nil {
		return change{}, err
	}
	if err := b.emu.Search.SetPace(emusearch.Pace{Dynamic: tc.length}); err != nil {
		return change{}, err
	}
	ch := change{c: c, domain: domain, submitted: b.emu.Clock().Now(), now: b.emu.Clock().Now, speed: tc.speed}
	out, err := c.UpdateDomainConfig(ctx, &sc.UpdateDomainConfigInput{DomainName: domain, Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 5}}})
	if err != nil {
		return change{}, err
	}
	ch.id = *out.DomainConfig.ChangeProgressDetails.ChangeId
	return ch, nil
}

// follow polls the change until it is complete, with our strategy
// (internal/poll) or the peer's, sleeping emulated time.
func (ch change) follow(ctx context.Context, peer bool) waitResult {
	var r waitResult
	next := poll.Next(poll.Observation{Now: ch.now(), Start: ch.submitted})
	if peer {
		next = time.Minute
	}
	for {
		time.Sleep(time.Duration(float64(next) / ch.speed))
		p, err := ch.c.DescribeDomainChangeProgress(ctx, ch.domain, ch.id)
		now := ch.now()
		r.polls++
		if err != nil {
			r.err = err
			return r
		}
		if p.Status != nil && *p.Status == sc.ChangeStatusCompleted {
			r.lag = now.Sub(p.LastUpdatedTime.Time())
			return r
		}
		next = 10 * time.Second
		if !peer {
			o := p.Observation(now)
			o.Waited = now.Sub(ch.submitted)
			next = poll.Next(o)
		}
	}
}

// bundles applies n key bundles and as many terraform_data resources,
// then plans both (a refresh), at parallelism p, and the same graph of the
// provider that does nothing.
func (b *bench) bundles(ctx context.Context, n, p int) error {
	b.emu.Reset()
	ours, err := b.workspace("ours")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ours.Dir)
	ref, err := b.workspace("floor")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ref.Dir)
	if err := ours.Write(b.providerBlock() + bundleConfig(n)); err != nil {
		return err
	}
	// The floor: the same number of resources, with the same dependencies.
	if err := ref.Write(bundleGraph("terraform_data", "output", n, "", [3]string{})); err != nil {
		return err
	}
	o, err := b.commands(ctx, ours, p, false)
	if err != nil {
		return err
	}
	if o.apply.peakKB > b.peakKB {
		b.peakKB, b.peakWhat = o.apply.peakKB, fmt.Sprintf("apply of %d bundles at parallelism %d", n, p)
	}
	r, err := b.commands(ctx, ref, p, false)
	if err != nil {
		return err
	}
	noop, err := b.noopCommands(ctx, n, p, false)
	if err != nil {
		return err
	}
	calls, err := b.noopCommands(ctx, n, p, true)
	if err != nil {
		return err
	}
	schemas, err := b.schemaFloorCommands(ctx, n, p)
	if err != nil {
		return err
	}
	printBundles(n, p, o, r, noop)
	printCallFloor(n, p, o, calls)
	printSchemaFloor(n, p, o, schemas)
	return nil
}

// bundleConfig is n key bundles: a user, its policy attachment and its key.
func bundleConfig(n int) string {
	return fmt.Sprintf(`
resource "cloud_identity_user" "u" {
  count     = %[1]d
  user_name = "bench-${count.index}"
}
resource "cloud_identity_user_policy_attachment" "a" {
  count      = %[1]d
  user_name  = cloud_identity_user.u[count.index].user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}
resource "cloud_identity_service_specific_credential" "k" {
  count               = %[1]d
  user_name           = cloud_identity_user.u[count.index].user_name
  service_name        = "models.cloud.example"
  credential_age_days = 90
}
`, n)
}

// commandSet is what one workspace's apply, plan and plan -refresh-only
// measured.
type commandSet struct {
	apply, plan, refresh measured
	plans                []measured // each plan's, of which plan is the median
}

// planRuns is how many times commands runs the plan (refresh): its figures
// are the medians, since one plan's vary by a quarter on a busy machine.
const planRuns = 3

// medianOf is each figure's median over runs.
func medianOf(runs []measured) measured {
	return measured{
		wall:        medianBy(runs, func(m measured) time.Duration { return m.wall }),
		cpu:         medianBy(runs, func(m measured) time.Duration { return m.cpu }),
		providerCPU: medianBy(runs, func(m measured) time.Duration { return m.providerCPU }),
		benchCPU:    medianBy(runs, func(m measured) time.Duration { return m.benchCPU }),
		peakKB:      medianBy(runs, func(m measured) int { return m.peakKB }),
		conns:       medianBy(runs, func(m measured) int64 { return m.conns }),
		requests:    medianBy(runs, func(m measured) int64 { return m.requests }),
	}
}

// commands applies ws's configuration, then plans it with no change (a
// refresh) planRuns times, then plans -refresh-only, at parallelism p.
func (b *bench) commands(ctx context.Context, ws *tfrun.Workspace, p int, strict bool) (commandSet, error) {
	par := "-parallelism=" + strconv.Itoa(p)
	var c commandSet
	var err error
	if c.apply, err = b.run(ctx, ws, "apply", "-auto-approve", par); err != nil {
		return c, err
	}
	// -detailed-exitcode fails the bench when a plan is not empty.
	plans := make([]measured, planRuns)
	for i := range plans {
		if plans[i], err = b.run(ctx, ws, "plan", "-detailed-exitcode", par); err != nil {
			return c, err
		}
	}
	c.plan, c.plans = medianOf(plans), plans
	// Ours not -detailed-exitcode: the key's first refresh records the
	// service's clock offset in private state, which counts as a change.
	refresh := []string{"plan", "-refresh-only", par}
	if strict {
		refresh = append(refresh, "-detailed-exitcode")
	}
	c.refresh, err = b.run(ctx, ws, refresh...)
	return c, err
}

// printBundles prints the rows of n key bundles at parallelism p: ours
// next to terraform_data, then ours next to the provider that does nothing.
func printBundles(n, p int, ours, ref, noop commandSet) {
	fmt.Printf("| terraform apply, %d key bundles (%d resources), parallelism %d | %s | %s (%d terraform_data) | %s |\n",
		n, 3*n, p, ours.apply.cell(), ref.apply.cell(), 3*n, ratios(ours.apply, ref.apply))
	fmt.Printf("| terraform plan (refresh), %d key bundles, parallelism %d | %s | %s (%d terraform_data) | %s |\n",
		n, p, ours.plan.cell(), ref.plan.cell(), 3*n, ratios(ours.plan, ref.plan))
	fmt.Printf("| terraform plan -refresh-only, %d key bundles, parallelism %d | %s | %s (%d terraform_data) | %s |\n",
		n, p, ours.refresh.cell(), ref.refresh.cell(), 3*n, ratios(ours.refresh, ref.refresh))
	fmt.Printf("| Connections the provider opened, plan (refresh) of %d key bundles, parallelism %d | %d | %d API requests | %.3f per request |\n",
		n, p, ours.plan.conns, ours.plan.requests, float64(ours.plan.conns)/float64(max(ours.plan.requests, 1)))
	fmt.Printf("| Floor of a framework provider: plan (refresh) / plan -refresh-only of %d resources that make no API call, parallelism %d | %s / %s | %s / %s (%d terraform_data) | %.2f / %.2f |\n",
		3*n, p, secs(noop.plan.wall), secs(noop.refresh.wall), secs(ref.plan.wall), secs(ref.refresh.wall), 3*n,
		float64(noop.plan.wall)/float64(ref.plan.wall), float64(noop.refresh.wall)/float64(ref.refresh.wall))
	fmt.Printf("| terraform plan (refresh) of %d key bundles next to the no-op provider, parallelism %d: wall; CPU (target 1.3) | %s; wall %s | %s (%d noop_thing); wall %s | %s |\n",
		n, p, ours.plan.cell(), wallSpread(ours.plans), noop.plan.cell(), 3*n, wallSpread(noop.plans), ratios(ours.plan, noop.plan))
	perOurs, perNoop := ours.plan.providerCPU/time.Duration(3*n), noop.plan.providerCPU/time.Duration(3*n)
	fmt.Printf("| Provider CPU per refreshed resource, plan (refresh) of %d key bundles, parallelism %d (target 1.3) | %s %s (provider %s / %d) | %s %s (no-op provider %s / %d) | %.2f |\n",
		n, p, millis(perOurs), perResourceSpread(ours.plans, 3*n), secs(ours.plan.providerCPU), 3*n,
		millis(perNoop), perResourceSpread(noop.plans, 3*n), secs(noop.plan.providerCPU), 3*n,
		float64(ours.plan.providerCPU)/float64(max(noop.plan.providerCPU, 1)))
}

// printCallFloor prints ours next to the no-op provider making the same
// API calls: the floor of a framework provider that refreshes through the
// emulator on the same cores.
func printCallFloor(n, p int, ours, calls commandSet) {
	fmt.Printf("| Floor with our API calls: plan (refresh) of %d key bundles next to %d noop_thing that each make the call ours makes, parallelism %d: wall; CPU | %s | %s (%d API requests) | %s |\n",
		n, 3*n, p, ours.plan.cell(), calls.plan.cell(), calls.plan.requests, ratios(ours.plan, calls.plan))
	fmt.Printf("| CPU of the emulator (the bench process) serving those plans, parallelism %d | %s (%d requests) | %s (%d requests) | |\n",
		p, secs(ours.plan.benchCPU), ours.plan.requests, secs(calls.plan.benchCPU), calls.plan.requests)
	fmt.Printf("| Provider CPU per refreshed resource next to the floor with our API calls, parallelism %d | %s | %s | %.2f |\n",
		p, millis(ours.plan.providerCPU/time.Duration(3*n)), millis(calls.plan.providerCPU/time.Duration(3*n)),
		float64(ours.plan.providerCPU)/float64(max(calls.plan.providerCPU, 1)))
}

// noopCommands applies and plans 3n resources of the provider that does
// nothing, with the same dependencies as n key bundles: what Terraform and
// the framework cost a provider process before it does any work. With
// calls, each resource's Read makes the identity call that ours makes (the
// user GetUser, the attachment ListAttachedUserPolicies, the key
// ListServiceSpecificCredentials) through our client, and nothing else.
func (b *bench) noopCommands(ctx context.Context, n, p int, calls bool) (commandSet, error) {
	graph := bundleGraph("noop_thing", "id", n, "", [3]string{})
	if calls {
		graph = bundleGraph("noop_thing", "id", n, "call", [3]string{"GetUser", "ListAttachedUserPolicies", "ListServiceSpecificCredentials"})
	}
	ws, err := b.noopWorkspace(b.emu, b.srv.URL, graph)
	if err != nil {
		return commandSet{}, err
	}
	defer os.RemoveAll(ws.Dir)
	return b.commands(ctx, ws, p, true)
}

// bundleGraph is n key bundles' graph in resources of type typ: a user,
// then an attachment and a key that refer to it by the attribute out. The
// floors use it, so they match the measured configuration's count and
// dependencies. attr, when set, is a noop_thing attribute (call or kind),
// and values the user's, the attachment's and the key's values of it.
func bundleGraph(typ, out string, n int, attr string, values [3]string) string {
	call := func(i int) string {
		if attr == "" {
			return ""
		}
		return fmt.Sprintf("  %s  = %q\n", attr, values[i])
	}
	return fmt.Sprintf(`
resource %[1]q "u" {
  count = %[3]d
  input = "bench-${count.index}"
%[4]s}
resource %[1]q "a" {
  count = %[3]d
  input = %[1]s.u[count.index].%[2]s
%[5]s}
resource %[1]q "k" {
  count = %[3]d
  input = %[1]s.u[count.index].%[2]s
%[6]s}
`, typ, out, n, call(0), call(1), call(2))
}

// buildNoop builds ./noop into a temporary directory; bench runs from the
// repository's root (make bench).
func buildNoop(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "bench-noop-bin-")
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(dir, "terraform-provider-noop"), "./cmd/bench/noop") //nolint:gosec // our own package into our own temporary directory
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the noop provider: %w\n%s", err, out)
	}
	return dir, nil
}

// cell is wall time, then CPU time of Terraform and the provider, and the
// provider's part of it when there is one.
func (m measured) cell() string {
	if m.providerCPU == 0 {
		return fmt.Sprintf("%s; CPU %s", secs(m.wall), secs(m.cpu))
	}
	return fmt.Sprintf("%s; CPU %s (provider %s)", secs(m.wall), secs(m.cpu), secs(m.providerCPU))
}

// ratios compare wall time and CPU time.
func ratios(ours, ref measured) string {
	return fmt.Sprintf("%.2f; CPU %.2f", float64(ours.wall)/float64(ref.wall), float64(ours.cpu)/float64(ref.cpu))
}

// The dry run rows' emulator pace: how long a dry run and a dynamic change
// take.
const dryRunTime, dynamicTime = 2 * time.Second, time.Second

// dryRun is the plan-time cost of the dry run: a plan of a changed domain
// config minus a plan of an unchanged one, next to how long the emulator
// takes for the dry run; then an apply of a change and the dry runs it made.
func (b *bench) dryRun(ctx context.Context) error {
	b.emu.Reset()
	if err := b.emu.Search.SetPace(emusearch.Pace{DryRun: dryRunTime, Dynamic: dynamicTime}); err != nil {
		return err
	}
	ws, err := b.workspace("dryrun")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ws.Dir)
	if err := ws.Write(b.domainConfig(3, false)); err != nil {
		return err
	}
	if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
		return err
	}
	if err := b.dryRunOverhead(ctx, ws); err != nil {
		return err
	}
	return b.applyDryRuns(ctx, ws)
}

// domainConfig is the dry run rows' configuration: one domain config with
// the snapshot hour given, and with or without its dry run.
func (b *bench) domainConfig(hour int, dryRun bool) string {
	mode := `  dry_run_mode     = "Off"` + "\n"
	if dryRun {
		mode = ""
	}
	return b.providerBlock() + fmt.Sprintf(`
resource "cloud_search_domain_config" "d" {
  domain_name      = "demo"
%s  snapshot_options = { automated_snapshot_start_hour = %d }
}
`, mode, hour)
}

// dryRunOverhead plans the applied configuration and a change of it, three
// times each, and prints the difference of the medians.
func (b *bench) dryRunOverhead(ctx context.Context, ws *tfrun.Workspace) error {
	const reps = 3
	var unchanged, changed []time.Duration
	for i := range reps {
		// Another change each time: a plan of the same change again would
		// read the first one's dry run back.
		for _, hour := range []int{3, 4 + i} {
			if err := ws.Write(b.domainConfig(hour, true)); err != nil {
				return err
			}
			d, err := ws.Run(ctx, "plan")
			if err != nil {
				return err
			}
			if hour == 3 {
				unchanged = append(unchanged, d)
			} else {
				changed = append(changed, d)
			}
		}
	}
	over := median(changed) - median(unchanged)
	fmt.Printf("| Plan-time dry run overhead (changed minus unchanged plan, median of %d) | %s | %s (emulator's dry run) | %.2f |\n",
		reps, secs(over), secs(dryRunTime), float64(over)/float64(dryRunTime))
	return nil
}

// applyDryRuns applies a change and counts the dry runs it made: the
// apply's plan and the plan Terraform makes again at apply time may each
// make one.
func (b *bench) applyDryRuns(ctx context.Context, ws *tfrun.Workspace) error {
	if err := ws.Write(b.domainConfig(9, true)); err != nil {
		return err
	}
	before := b.emu.Answered("UpdateDomainConfig", true)
	d, err := ws.Run(ctx, "apply", "-auto-approve")
	if err != nil {
		return err
	}
	fmt.Printf("| terraform apply of a dynamic domain change (%s dry run, %s change): wall / dry runs made | %s / %d | %s + %s (one dry run and the change) | %.2f |\n",
		secs(dryRunTime), secs(dynamicTime), secs(d), b.emu.Answered("UpdateDomainConfig", true)-before, secs(dryRunTime), secs(dynamicTime), float64(d)/float64(dryRunTime+dynamicTime))
	return nil
}

// startup times `terraform providers schema -json` with the provider,
// against the same command for a configuration with terraform_data only.
func (b *bench) startup(ctx context.Context) error {
	ours, err := b.workspace("schema")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ours.Dir)
	ref, err := b.workspace("schema-floor")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ref.Dir)
	if err := ours.Write(b.providerBlock()); err != nil {
		return err
	}
	if err := ref.Write(`resource "terraform_data" "x" {}` + "\n"); err != nil {
		return err
	}
	const reps = 5
	var o, r []time.Duration
	for range reps {
		d, err := ours.Run(ctx, "providers", "schema", "-json")
		if err != nil {
			return err
		}
		o = append(o, d)
		d, err = ref.Run(ctx, "providers", "schema", "-json")
		if err != nil {
			return err
		}
		r = append(r, d)
	}
	fmt.Printf("| Provider start-up and schema load: `terraform providers schema -json` (median of %d) | %s | %s (terraform_data only) | +%s |\n",
		reps, secs(median(o)), secs(median(r)), secs(median(o)-median(r)))
	return nil
}

// procSampler follows a terraform process and records, for each of its
// provider children (ours or the no-op one), the largest VmHWM and the last CPU
// time seen. A provider idles at the end of a command while Terraform shuts
// it down, so the last sample misses little of its CPU.
type procSampler struct {
	mu    sync.Mutex
	peak  int                   // kB
	ticks map[int]time.Duration // CPU time per provider pid
	done  chan struct{}
}

func (s *procSampler) follow(p *os.Process) {
	s.ticks = map[int]time.Duration{}
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		for {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.Pid)); err != nil {
				return
			}
			for _, child := range providerChildren(p.Pid) {
				kb, cpu := procStatus(child)
				s.mu.Lock()
				s.peak = max(s.peak, kb)
				if cpu > 0 {
					s.ticks[child] = cpu
				}
				s.mu.Unlock()
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
}

// wait returns the providers' CPU time and peak memory (kB).
func (s *procSampler) wait() (time.Duration, int) {
	if s.done == nil {
		return 0, 0
	}
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	var cpu time.Duration
	for _, d := range s.ticks {
		cpu += d
	}
	return cpu, s.peak
}

// providerComm is what the kernel keeps of "terraform-provider-<name>":
// 15 characters, the same for ours and for the no-op provider.
const providerComm = "terraform-provi"

// providerChildren lists the children of pid (from each of its threads'
// children file) that are providers.
func providerChildren(pid int) []int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var out []int
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			child, err := strconv.Atoi(field)
			if err != nil {
				continue
			}
			comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", child))
			if err == nil && strings.TrimSpace(string(comm)) == providerComm {
				out = append(out, child)
			}
		}
	}
	return out
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat times: 100 on Linux.
const clockTick = 10 * time.Millisecond

// procStatus returns a process's VmHWM (kB) and user+system CPU time.
func procStatus(pid int) (int, time.Duration) {
	kb := 0
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			}
		}
	}
	var cpu time.Duration
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// pid (comm) state ppid ... utime stime: the 14th and 15th fields,
		// the 12th and 13th after the comm.
		s := string(b)
		if fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(fields) > 12 {
			u, _ := strconv.Atoi(fields[11])
			st, _ := strconv.Atoi(fields[12])
			cpu = time.Duration(u+st) * clockTick
		}
	}
	return kb, cpu
}

// wallSpread is the plans' wall times from the least to the most.
func wallSpread(runs []measured) string {
	lo, hi := spreadBy(runs, func(m measured) time.Duration { return m.wall })
	return fmt.Sprintf("%.2f–%.2f s over %d plans", lo.Seconds(), hi.Seconds(), len(runs))
}

// perResourceSpread is the plans' provider CPU per resource (of n), from
// the least to the most.
func perResourceSpread(runs []measured, n int) string {
	lo, hi := spreadBy(runs, func(m measured) time.Duration { return m.providerCPU / time.Duration(n) })
	return fmt.Sprintf("(%.2f–%.2f ms over %d plans)", float64(lo)/float64(time.Millisecond), float64(hi)/float64(time.Millisecond), len(runs))
}

// spreadBy is the least and the most of f over runs.
func spreadBy[T cmp.Ordered](runs []measured, f func(measured) T) (lo, hi T) {
	for i, m := range runs {
		v := f(m)
		if i == 0 || v < lo {
			lo = v
		}
		if i == 0 || v > hi {
			hi = v
		}
	}
	return lo, hi
}

func median(ds []time.Duration) time.Duration {
	return medianBy(ds, func(d time.Duration) time.Duration { return d })
}

// medianBy is the median of f over xs (the upper one of an even count).
func medianBy[X any, T cmp.Ordered](xs []X, f func(X) T) T {
	vs := make([]T, len(xs))
	for i, x := range xs {
		vs[i] = f(x)
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func millis(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

func ratio(a, b time.Duration) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(a)/float64(b))
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
