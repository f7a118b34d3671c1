// Command bench measures the provider against the in-process emulator and
// prints one table: how soon waits see a change done and at what cost, next
// to the fixed polling of the best-known peer; terraform apply and plan
// wall time for key bundles next to terraform_data (the Terraform core
// floor); the plan-time cost of the dry run; start-up and schema load time;
// and the provider's peak memory. `make bench` runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfrun"
)

func main() {
	cli := flag.String("cli", os.Getenv("TF_CLI"), "the Terraform CLI")
	binDir := flag.String("provider-dir", "bin", "directory holding terraform-provider-cloud")
	sizes := flag.String("bundles", "100,300", "key bundle counts (user + attachment + key each)")
	pars := flag.String("parallelism", "10,50", "terraform -parallelism values")
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
	ctx := context.Background()
	began := time.Now()

	fmt.Println("| Measure | Ours | Reference | Ratio |")
	fmt.Println("|---|---|---|---|")
	check(b.waits(ctx))
	for _, n := range ints(*sizes) {
		for _, p := range ints(*pars) {
			check(b.bundles(ctx, n, p))
		}
	}
	check(b.dryRun(ctx))
	check(b.startup(ctx))
	fmt.Printf("\nTotal bench time %s.\n", time.Since(began).Round(time.Second))
}

type bench struct {
	cli, binDir string
	emu         *emulator.Emulator
	srv         *httptest.Server
	peakKB      int // largest provider VmHWM seen, kB
	peakWhat    string
}

func (b *bench) start() {
	b.emu = emulator.New(emulator.Options{})
	b.srv = httptest.NewServer(b.emu)
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
	env, err := tfrun.DevOverrides(dir, b.binDir)
	if err != nil {
		return nil, err
	}
	return &tfrun.Workspace{CLI: b.cli, Dir: dir, Env: env}, nil
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
	clock := b.emu.Clock()
	for _, tc := range []struct {
		length time.Duration
		speed  float64
	}{{5 * time.Second, 5}, {time.Minute, 10}, {15 * time.Minute, 60}} {
		type result struct {
			polls int
			lag   time.Duration
			err   error
		}
		var wg sync.WaitGroup
		res := make([]result, 2)
		clock.SetSpeed(tc.speed)
		for i, strategy := range []string{"ours", "peer"} {
			domain := fmt.Sprintf("bench-%s-%d", strategy, int(tc.length.Seconds()))
			if err := b.emu.Search.AddDomain(emusearch.DomainSpec{DomainName: domain}); err != nil {
				return err
			}
			if err := b.emu.Search.SetPace(emusearch.Pace{Dynamic: tc.length}); err != nil {
				return err
			}
			submitted := clock.Now()
			hour := int64(5)
			out, err := c.UpdateDomainConfig(ctx, &sc.UpdateDomainConfigInput{DomainName: domain, SnapshotOptions: &sc.SnapshotOptions{AutomatedSnapshotStartHour: &hour}})
			if err != nil {
				return err
			}
			id := *out.DomainConfig.ChangeProgressDetails.ChangeId
			wg.Add(1)
			go func() {
				defer wg.Done()
				sleep := func(d time.Duration) { time.Sleep(time.Duration(float64(d) / tc.speed)) }
				var r result
				next := poll.Next(poll.Observation{Now: clock.Now(), Start: submitted})
				if strategy == "peer" {
					next = time.Minute
				}
				for {
					sleep(next)
					p, err := c.DescribeDomainChangeProgress(ctx, domain, id)
					now := clock.Now()
					r.polls++
					if err != nil {
						r.err = err
						break
					}
					if p.Status != nil && *p.Status == sc.ChangeStatusCompleted {
						r.lag = now.Sub(p.LastUpdatedTime.Time())
						break
					}
					if strategy == "peer" {
						next = 10 * time.Second
						continue
					}
					o := poll.FromChange(p, now)
					o.Waited = now.Sub(submitted)
					next = poll.Next(o)
				}
				res[i] = r
			}()
		}
		wg.Wait()
		clock.SetSpeed(1)
		for _, r := range res {
			if r.err != nil {
				return r.err
			}
		}
		fmt.Printf("| Wait, %s dynamic change (clock ×%g): lag / polls | %s / %d | %s / %d (peer: 60 s, then every 10 s) | lag %s |\n",
			tc.length, tc.speed, res[0].lag.Round(10*time.Millisecond), res[0].polls, res[1].lag.Round(10*time.Millisecond), res[1].polls,
			ratio(res[0].lag, res[1].lag))
	}
	return nil
}

// bundles applies n key bundles and as many terraform_data resources,
// then plans both (a refresh), at parallelism p.
func (b *bench) bundles(ctx context.Context, n, p int) error {
	b.emu.Reset()
	var cfg strings.Builder
	cfg.WriteString(b.providerBlock())
	fmt.Fprintf(&cfg, `
resource "cloud_identity_user" "u" {
  count     = %d
  user_name = "bench-${count.index}"
}
resource "cloud_identity_user_policy_attachment" "a" {
  count      = %d
  user_name  = cloud_identity_user.u[count.index].user_name
  policy_arn = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
}
resource "cloud_identity_service_specific_credential" "k" {
  count        = %d
  user_name    = cloud_identity_user.u[count.index].user_name
  service_name = "models.cloud.example"
}
`, n, n, n)
	// The floor: the same number of resources, with the same dependencies.
	floor := fmt.Sprintf(`
resource "terraform_data" "u" {
  count = %d
  input = "bench-${count.index}"
}
resource "terraform_data" "a" {
  count = %d
  input = terraform_data.u[count.index].output
}
resource "terraform_data" "k" {
  count = %d
  input = terraform_data.u[count.index].output
}
`, n, n, n)
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
	if err := ours.Write(cfg.String()); err != nil {
		return err
	}
	if err := ref.Write(floor); err != nil {
		return err
	}
	par := "-parallelism=" + strconv.Itoa(p)
	peak := &peakSampler{}
	ours.OnStart = peak.follow
	applyOurs, err := ours.Run(ctx, "apply", "-auto-approve", par)
	if err != nil {
		return err
	}
	if kb := peak.wait(); kb > b.peakKB {
		b.peakKB, b.peakWhat = kb, fmt.Sprintf("apply of %d bundles at parallelism %d", n, p)
	}
	applyRef, err := ref.Run(ctx, "apply", "-auto-approve", par)
	if err != nil {
		return err
	}
	ours.OnStart = nil
	planOurs, err := ours.Run(ctx, "plan", "-detailed-exitcode", par)
	if err != nil {
		return err
	}
	planRef, err := ref.Run(ctx, "plan", "-detailed-exitcode", par)
	if err != nil {
		return err
	}
	fmt.Printf("| terraform apply, %d key bundles (%d resources), parallelism %d | %s | %s (%d terraform_data) | %.2f |\n",
		n, 3*n, p, secs(applyOurs), secs(applyRef), 3*n, float64(applyOurs)/float64(applyRef))
	fmt.Printf("| terraform plan (refresh), %d key bundles, parallelism %d | %s | %s (%d terraform_data) | %.2f |\n",
		n, p, secs(planOurs), secs(planRef), 3*n, float64(planOurs)/float64(planRef))
	return nil
}

// dryRun is the plan-time cost of the dry run: a plan of a changed domain
// config minus a plan of an unchanged one, next to how long the emulator
// takes for the dry run.
func (b *bench) dryRun(ctx context.Context) error {
	b.emu.Reset()
	const dryRunTime = 2 * time.Second
	if err := b.emu.Search.SetPace(emusearch.Pace{DryRun: dryRunTime}); err != nil {
		return err
	}
	ws, err := b.workspace("dryrun")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ws.Dir)
	domain := func(hour int) string {
		return b.providerBlock() + fmt.Sprintf(`
resource "cloud_search_domain_config" "d" {
  domain_name      = "demo"
  dry_run_mode     = "Off"
  snapshot_options = { automated_snapshot_start_hour = %d }
}
`, hour)
	}
	if err := ws.Write(domain(3)); err != nil {
		return err
	}
	if _, err := ws.Run(ctx, "apply", "-auto-approve"); err != nil {
		return err
	}
	withDryRun := func(hour int) string { return strings.Replace(domain(hour), `  dry_run_mode     = "Off"`+"\n", "", 1) }
	const reps = 3
	var unchanged, changed []time.Duration
	for range reps {
		if err := ws.Write(withDryRun(3)); err != nil {
			return err
		}
		d, err := ws.Run(ctx, "plan")
		if err != nil {
			return err
		}
		unchanged = append(unchanged, d)
		if err := ws.Write(withDryRun(4)); err != nil {
			return err
		}
		d, err = ws.Run(ctx, "plan")
		if err != nil {
			return err
		}
		changed = append(changed, d)
	}
	over := median(changed) - median(unchanged)
	fmt.Printf("| Plan-time dry run overhead (changed minus unchanged plan, median of %d) | %s | %s (emulator's dry run) | %.2f |\n",
		reps, secs(over), secs(dryRunTime), float64(over)/float64(dryRunTime))
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
	if b.peakKB > 0 {
		fmt.Printf("| Provider peak memory (VmHWM), %s | %.1f MiB | | |\n", b.peakWhat, float64(b.peakKB)/1024)
	}
	return nil
}

// peakSampler follows a terraform process and records the largest VmHWM
// of its terraform-provider-cloud children.
type peakSampler struct {
	mu   sync.Mutex
	kb   int
	done chan struct{}
}

func (s *peakSampler) follow(p *os.Process) {
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		for {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.Pid)); err != nil {
				return
			}
			for _, child := range providerChildren(p.Pid) {
				if kb := vmHWM(child); kb > 0 {
					s.mu.Lock()
					s.kb = max(s.kb, kb)
					s.mu.Unlock()
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

func (s *peakSampler) wait() int {
	if s.done != nil {
		<-s.done
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kb
}

// providerChildren lists the processes whose parent is pid and whose name
// is terraform-provider-cloud (the kernel keeps 15 characters of it).
func providerChildren(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < 0 {
			continue
		}
		fields := strings.Fields(s[closing+1:])
		if len(fields) < 2 || !strings.HasPrefix("terraform-provider-cloud", s[open+1:closing]) {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == pid {
			out = append(out, child)
		}
	}
	return out
}

func vmHWM(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

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
