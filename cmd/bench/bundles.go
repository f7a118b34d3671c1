package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

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
