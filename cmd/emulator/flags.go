package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// config is the command line.
type config struct {
	listen, urlFile, region, timeOfDay, seed, clock string
	clockHeld, quiet, allowNonLoopback, showVersion bool
	faults                                          faultFlags
}

// parseFlags reads the command line; its errors and -help go to stderr.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:0", "address to listen on, loopback only unless -allow-non-loopback (port 0 picks a free port)")
	fs.StringVar(&cfg.urlFile, "url-file", "", "write the emulator's URL to this file once it listens")
	fs.StringVar(&cfg.seed, "seed", "", "start from this seed file (JSON, format_version 1: users, keys, domains, faults; see internal/emulator/seed/README.md) instead of the demo data")
	fs.StringVar(&cfg.clock, "clock", "", "start the emulated clock at this RFC 3339 time, such as 2026-01-02T15:04:05Z")
	fs.BoolVar(&cfg.clockHeld, "clock-held", false, "hold the emulated clock: it moves only through the admin API (POST /_admin/clock {\"advance\": \"1h\"})")
	fs.Var(&cfg.faults, "fault", "arm a fault (repeatable): its JSON, or name=value pairs such as kind=throttle,operation=CreateUser,times=2 or kind=verdict,domain=orders,deployment_type=blue/green")
	fs.BoolVar(&cfg.allowNonLoopback, "allow-non-loopback", false, "DANGEROUS: allow a -listen address other than loopback, and answer requests naming any host (the admin API is unauthenticated)")
	fs.StringVar(&cfg.region, "region", emulator.DefaultRegion, "the emulator's home region")
	fs.BoolVar(&cfg.quiet, "quiet", false, "do not print one line per request (on stderr)")
	fs.StringVar(&cfg.timeOfDay, "time-of-day", "", "move the emulated clock forward to the next HH:MM UTC, so that what depends on the hour (the demo domain's off-peak window) is the same at any real time")
	fs.BoolVar(&cfg.showVersion, "version", false, "print the provider version the emulator was built with, and exit")
	err := fs.Parse(args)
	if err == nil && fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q; every setting is a flag\n", name, fs.Args())
		fs.Usage()
		err = errUnexpectedArgs
	}
	return cfg, err
}

// errUnexpectedArgs refuses words after the flags.
var errUnexpectedArgs = errors.New("unexpected arguments")
