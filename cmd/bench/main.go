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
//
// One file per concern: main.go the flags and the order of the rows;
// waits.go the change-wait rows; bundles.go the key bundle rows and their
// configurations; dryrun.go the dry-run rows; startup.go start-up and the
// sampling of the provider's process; stats.go medians, spreads, ratios
// and formatting; provider.go the provider block, the workspaces and the
// no-op provider; latency.go, schemafloor.go and estate.go the latency
// table, the floor with our schemas and the estate's rows.
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
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
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
