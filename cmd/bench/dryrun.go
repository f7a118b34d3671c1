package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

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
