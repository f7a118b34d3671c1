// Command cloud-emulator serves the local cloud, for tests of modules and
// policies and for demos. See internal/emulator/README.md for what it
// promises and its admin API, internal/emulator/seed/README.md for the
// seed file.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/seed"
)

// version is the provider version the emulator was built with (the
// release sets it with -ldflags "-X main.version=..." as for the provider).
var version = "dev"

// name is the command's name in its messages.
const name = "cloud-emulator"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the command: it starts the emulator cfg asks for, prints the ready
// line on stdout and serves until ctx ends (SIGINT, SIGTERM), returning
// the exit code. Everything else (request lines, warnings, errors) goes to
// stderr, so stdout holds the ready line only.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if cfg.showVersion {
		fmt.Fprintf(stdout, "%s %s\n", name, version)
		return 0
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	if err := checkListen(cfg.listen, cfg.allowNonLoopback); err != nil {
		return fail(err)
	}
	if cfg.allowNonLoopback {
		fmt.Fprintf(stderr, "%s: WARNING: -allow-non-loopback: listening on %s; the admin API is unauthenticated, so anyone who reaches this address can reset the emulator, read its request log and add access keys\n", name, cfg.listen)
	}
	emu, err := start(cfg, stderr)
	if err != nil {
		return fail(err)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.listen)
	if err != nil {
		return fail(fmt.Errorf("listen: %w", err))
	}
	url := listenURL(cfg.listen, ln.Addr())
	if cfg.urlFile != "" {
		if err := writeFileAtomic(cfg.urlFile, url+"\n"); err != nil {
			_ = ln.Close()
			return fail(err)
		}
	}
	fmt.Fprintf(stdout, "%s ready: url=%s region=%s access_key_id=%s version=%s\n", name, url, emu.Region(), emu.AccessKeyID(), version)
	if err := serve(ctx, ln, emu); err != nil {
		return fail(err)
	}
	return 0
}

// start is the emulator cfg asks for: its clock set, the seed applied and
// the faults armed, before anything listens (a bad seed or fault is
// refused first). A reset through the admin API puts all of it back.
func start(cfg config, stderr io.Writer) (*emulator.Emulator, error) {
	var file *seed.File
	if cfg.seed != "" {
		f, err := seed.Load(cfg.seed)
		if err != nil {
			return nil, err
		}
		file = f
	}
	faults := make([]emulator.Fault, 0, len(cfg.faults))
	for i, spec := range cfg.faults {
		f, err := seed.ParseFault(spec, fmt.Sprintf("-fault[%d]", i))
		if err != nil {
			return nil, err
		}
		faults = append(faults, f)
	}
	var clockAt time.Time
	if cfg.clock != "" {
		t, err := time.Parse(time.RFC3339, cfg.clock)
		if err != nil {
			return nil, fmt.Errorf("-clock %q: want an RFC 3339 time such as 2026-01-02T15:04:05Z", cfg.clock)
		}
		clockAt = t
	}

	opts := emulator.Options{Region: cfg.region, AnyHost: cfg.allowNonLoopback}
	if !cfg.quiet {
		opts.Log = stderr
	}
	// setUp brings a new or reset emulator to the start cfg asks for.
	setUp := func(emu *emulator.Emulator) error {
		if cfg.clockHeld {
			emu.Clock().Hold() // first, so the clock stands exactly where it is set
		}
		if !clockAt.IsZero() {
			emu.Clock().Set(clockAt)
		}
		if cfg.timeOfDay != "" {
			d, err := untilTimeOfDay(emu.Clock().Now(), cfg.timeOfDay)
			if err != nil {
				return fmt.Errorf("-time-of-day %q: %w", cfg.timeOfDay, err)
			}
			emu.Clock().Advance(d)
		}
		if file != nil {
			if err := file.Apply(emu); err != nil {
				return err
			}
		}
		for i, f := range faults {
			if err := emu.InjectFault(f); err != nil {
				return fmt.Errorf("-fault[%d] %q: %w", i, cfg.faults[i], err)
			}
		}
		return nil
	}
	opts.AfterReset = func(emu *emulator.Emulator) {
		if err := setUp(emu); err != nil {
			fmt.Fprintf(stderr, "%s: reset: %v\n", name, err)
		}
	}
	emu := emulator.New(opts)
	if err := setUp(emu); err != nil {
		return nil, err
	}
	return emu, nil
}

// checkListen refuses an address that is not loopback unless allowed.
func checkListen(addr string, allowNonLoopback bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-listen %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) || allowNonLoopback {
		return nil
	}
	return fmt.Errorf("-listen %q: not a loopback address; the emulator's admin API is unauthenticated, so it listens on loopback only unless started with -allow-non-loopback", addr)
}

// listenURL is the URL of a listener on addr (as -listen gave it) at the
// address it got: the host as given (0.0.0.0 stays so, not Go's dual-stack
// [::]), the port it got (port 0 picks one).
func listenURL(addr string, got net.Addr) string {
	host, _, _ := net.SplitHostPort(addr)
	gotHost, port, _ := net.SplitHostPort(got.String())
	if host == "" {
		host = gotHost
	}
	return "http://" + net.JoinHostPort(host, port)
}

// writeFileAtomic writes content to path through a temporary file renamed
// over it, so a reader polling for the file never sees part of it.
func writeFileAtomic(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(content); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// serve serves emu on ln until ctx ends (an interrupt or SIGTERM), then
// shuts down, giving requests under way 5 seconds.
func serve(ctx context.Context, ln net.Listener, emu *emulator.Emulator) error {
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: emulator.ReadHeaderTimeout}
	emulator.ConfigureServer(srv) // the other timeouts
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		// The shutdown has its own time: ctx has ended.
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	<-done
	return nil
}

// untilTimeOfDay is how far now is from the next hh:mm UTC (zero at it).
func untilTimeOfDay(now time.Time, hhmm string) (time.Duration, error) {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return 0, fmt.Errorf("want a time such as 02:00")
	}
	now = now.UTC()
	at := time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), 0, 0, time.UTC)
	if at.Before(now) {
		at = at.Add(24 * time.Hour)
	}
	return at.Sub(now), nil
}

// faultFlags collects the repeated -fault flag.
type faultFlags []string

func (f *faultFlags) String() string { return strings.Join(*f, " ") }

func (f *faultFlags) Set(v string) error {
	*f = append(*f, v)
	return nil
}
