package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// The floor with our schemas: the no-op provider's noop_identity_* types
// (cmd/bench/noop/ours.go) have our resources' attributes and make only
// the calls each operation needs, so the framework's work for our
// attributes (state and plan conversions, validators, plan modifiers) is
// in the floor and only what our resources do beyond it is not. It is the
// true floor of destroy, which has nothing else to do: destroy's target is
// measured against it.

// schemaFloor is the floor with our schemas: n key bundles of the no-op
// provider's types with our schemas, in a workspace of their own against
// an emulator of their own.
type schemaFloor struct {
	emu *emulator.Emulator
	srv *httptest.Server
	ws  *tfrun.Workspace
}

// newSchemaFloor starts the floor's emulator, with delay on every request,
// and writes its workspace of n key bundles.
func (b *bench) newSchemaFloor(n int, delay time.Duration) (*schemaFloor, error) {
	f := &schemaFloor{emu: emulator.New(emulator.Options{})}
	// Its requests count with the bench's, as the rows without delay read
	// them.
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.requests.Add(1)
		f.emu.ServeHTTP(w, r)
	}))
	if err := delayAll(f.emu, delay); err != nil {
		f.close()
		return nil, err
	}
	ws, err := b.noopWorkspace(f.emu, f.srv.URL, schemaFloorConfig(n))
	if err != nil {
		f.close()
		return nil, err
	}
	f.ws = ws
	return f, nil
}

func (f *schemaFloor) close() {
	if f.ws != nil {
		os.RemoveAll(f.ws.Dir)
	}
	f.srv.Close()
}

// schemaFloorConfig is bundleConfig in the no-op provider's types with our
// schemas: the same arguments, the same references.
func schemaFloorConfig(n int) string {
	return strings.ReplaceAll(bundleConfig(n), "cloud_identity_", "noop_identity_")
}

// schemaFloorRow is the row of step next to the floor with our schemas.
// Destroy's target is measured here, against its true floor; the other
// steps' stay on the row next to noop_thing.
func schemaFloorRow(s latencyStep, n int, ours measured, oursCalls []emulator.Call, floor measured, floorCalls []emulator.Call) latencyRow {
	r := bundleLatencyRow(s, n, ours, oursCalls, floor, floorCalls)
	r.what += ", next to the floor with our schemas"
	r.floorWhat = fmt.Sprintf("%d calls, resources with our attributes", len(floorCalls))
	r.target = ""
	if s.onSchemaFloor {
		r.target = ratioTarget(wallRatio(ours, floor), s.target)
	}
	return r
}

// runSchemaFloor runs step's command in the floor with our schemas.
func (b *bench) runSchemaFloor(ctx context.Context, f *schemaFloor, s latencyStep) (measured, []emulator.Call, error) {
	return b.runLogged(ctx, f.emu, f.ws, s.args...)
}

// schemaFloorCommands applies and plans n key bundles of the floor with
// our schemas, without delay, as the refresh rows do ours (its plans with
// -detailed-exitcode; its plan -refresh-only not, as ours).
func (b *bench) schemaFloorCommands(ctx context.Context, n, p int) (commandSet, error) {
	f, err := b.newSchemaFloor(n, 0)
	if err != nil {
		return commandSet{}, err
	}
	defer f.close()
	return b.commands(ctx, f.ws, p, false)
}

// printSchemaFloor prints ours' plan (refresh) next to the floor with our
// schemas: what is left of ours' cost once the framework's work for our
// attributes and our calls are in the floor.
func printSchemaFloor(n, p int, ours, floor commandSet) {
	fmt.Printf("| Floor with our schemas and our API calls: plan (refresh) of %d key bundles next to %d no-op resources with our attributes that each make the call ours makes, parallelism %d: wall; CPU | %s | %s (%d API requests) | %s |\n",
		n, 3*n, p, ours.plan.cell(), floor.plan.cell(), floor.plan.requests, ratios(ours.plan, floor.plan))
	fmt.Printf("| Provider CPU per refreshed resource next to the floor with our schemas and our API calls, parallelism %d | %s %s | %s %s | %.2f |\n",
		p, millis(ours.plan.providerCPU/time.Duration(3*n)), perResourceSpread(ours.plans, 3*n),
		millis(floor.plan.providerCPU/time.Duration(3*n)), perResourceSpread(floor.plans, 3*n),
		float64(ours.plan.providerCPU)/float64(max(floor.plan.providerCPU, 1)))
}
