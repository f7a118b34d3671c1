// Command emulator serves the local cloud on loopback. See
// internal/emulator/README.md for the admin API.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// config is the command line.
type config struct {
	listen, urlFile, region, timeOfDay string
	quiet                              bool
}

func main() {
	cfg := parseFlags()
	checkLoopback(cfg.listen)
	emu := newEmulator(cfg)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln := mustListen(ctx, cfg.listen)
	announce(ln, emu, cfg.urlFile)
	serve(ctx, ln, emu)
}

func parseFlags() config {
	var cfg config
	flag.StringVar(&cfg.listen, "listen", "127.0.0.1:0", "loopback address to listen on (port 0 picks a free port)")
	flag.StringVar(&cfg.urlFile, "url-file", "", "write the emulator's URL to this file once it listens")
	flag.StringVar(&cfg.region, "region", emulator.DefaultRegion, "the emulator's home region")
	flag.BoolVar(&cfg.quiet, "quiet", false, "do not print one line per request")
	flag.StringVar(&cfg.timeOfDay, "time-of-day", "", "move the emulated clock forward to the next HH:MM UTC, so that what depends on the hour (the demo domain's off-peak window) is the same at any real time")
	flag.Parse()
	return cfg
}

// checkLoopback exits unless addr is a loopback address.
func checkLoopback(addr string) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		log.Fatalf("-listen %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		log.Fatalf("-listen %q: the emulator serves loopback addresses only", addr)
	}
}

// newEmulator is the emulator cfg asks for, its clock moved to the time of
// day asked for.
func newEmulator(cfg config) *emulator.Emulator {
	opts := emulator.Options{Region: cfg.region}
	if !cfg.quiet {
		opts.Log = os.Stdout
	}
	emu := emulator.New(opts)
	if cfg.timeOfDay != "" {
		d, err := untilTimeOfDay(emu.Clock().Now(), cfg.timeOfDay)
		if err != nil {
			log.Fatalf("-time-of-day %q: %v", cfg.timeOfDay, err)
		}
		emu.Clock().Advance(d)
	}
	return emu
}

// mustListen listens on addr (TCP), or exits.
func mustListen(ctx context.Context, addr string) net.Listener {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	return ln
}

// announce prints the emulator's URL, and writes it to urlFile if set.
func announce(ln net.Listener, emu *emulator.Emulator, urlFile string) {
	url := "http://" + ln.Addr().String()
	fmt.Printf("emulator listening on %s (region %s, access key %s)\n", url, emu.Region(), emu.AccessKeyID())
	if urlFile != "" {
		if err := os.WriteFile(urlFile, []byte(url+"\n"), 0o600); err != nil {
			log.Fatalf("writing %s: %v", urlFile, err)
		}
	}
}

// serve serves emu on ln until ctx ends (an interrupt or SIGTERM), then
// shuts down, giving requests under way 5 seconds.
func serve(ctx context.Context, ln net.Listener, emu *emulator.Emulator) {
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: emulator.ReadHeaderTimeout}
	emulator.ConfigureServer(srv) // the other timeouts
	go func() {
		<-ctx.Done()
		// The shutdown has its own time: ctx has ended.
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("serve: %v", err)
	}
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
