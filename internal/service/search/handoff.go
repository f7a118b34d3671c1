package search

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// A plan's dry run is handed on by its id to the plan and the Create that
// follow it, never found on the service by what it planned: two requests
// can plan the same configuration and get different verdicts (the
// service's findings depend on the members a request carries), so only the
// plan that made a dry run knows which request it analysed.
//
// Terraform plans again at apply in another provider process (it starts
// providers per walk), from the configuration, prior state and private
// state the reviewed plan had. So the plan that dry-runs leaves a note in
// the working directory's Terraform data directory, named by the domain,
// the request and the read record it started from (domain_read.go), that
// holds only the dry run's id. A plan with refresh starts from a read of
// its own and never finds a note. Notes are single-use. Create runs in
// the process of the plan at apply and gets no private state: that plan
// hands it its dry run in memory. Writing or reading a note may fail: it
// is only a saving, and the plan then dry-runs.

// handoff is where this provider's plans leave notes (dir, the Terraform
// data directory; "" leaves none) and which service they are of.
type handoff struct{ dir, endpoint, region string }

// handoffOf is the hand-off of the provider configured as c.
func handoffOf(c *conns.Clients) handoff {
	return handoff{dir: c.DataDir, endpoint: c.Endpoints.Search, region: c.Region}
}

// handoffNote is the note a plan leaves of its dry run: never the request
// or a secret.
type handoffNote struct {
	ID      string    `json:"id"`
	Mode    string    `json:"mode"`
	Created time.Time `json:"created"`
}

// handoffDir is the notes' directory inside the Terraform data directory.
const handoffDir = "cloud-search-dry-runs"

// handoffName names the hand-off of a dry run of in made from the read
// record read (nil at creation): the service, the domain, the request and
// the starting point.
func (h handoff) handoffName(in *searchclient.UpdateDomainConfigInput, read []byte) string {
	sum := sha256.New()
	for _, s := range []string{h.endpoint, h.region, in.DomainName, requestKey(in), string(read)} {
		sum.Write([]byte(s))
		sum.Write([]byte{0})
	}
	return hex.EncodeToString(sum.Sum(nil))
}

// leaveNote writes n under name, atomically and readable by the owner
// only, after removing notes older than reuseMaxAge.
func (h handoff) leaveNote(ctx context.Context, name string, n handoffNote) {
	fail := func(err error) {
		tflog.Debug(ctx, "Could not leave the search domain dry run for the plan at apply", map[string]any{"error": err.Error()})
	}
	if h.dir == "" {
		return
	}
	dir := filepath.Join(h.dir, handoffDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fail(err)
		return
	}
	expireNotes(dir)
	b, _ := json.Marshal(n)
	f, err := os.CreateTemp(dir, name+".*.tmp") // mode 0600
	if err != nil {
		fail(err)
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		fail(err)
	}
}

// takeNote is the note named name, removed so that no other plan takes it
// (moved aside first: of two plans, one gets it); nil when there is none.
func (h handoff) takeNote(ctx context.Context, name string) *handoffNote {
	if h.dir == "" {
		return nil
	}
	path := filepath.Join(h.dir, handoffDir, name)
	taken := path + "." + rand.Text() + ".tmp"
	if err := os.Rename(path, taken); err != nil {
		return nil
	}
	b, err := os.ReadFile(taken) //nolint:gosec // G304: a note in the Terraform data directory, named by a digest
	_ = os.Remove(taken)
	var n handoffNote
	if err == nil {
		err = json.Unmarshal(b, &n)
	}
	if err != nil || n.ID == "" || time.Since(n.Created) > reuseMaxAge {
		tflog.Debug(ctx, "Unusable search domain dry run note", map[string]any{"path": path})
		return nil
	}
	return &n
}

// expireNotes removes the notes (and leftovers of interrupted writes)
// older than reuseMaxAge from dir.
func expireNotes(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > reuseMaxAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// handedDryRun is a dry run the plan at apply hands to Create, and when.
type handedDryRun struct {
	dr *dryRunResult
	at time.Time
}

// createHandoffs holds, by handoffName, the dry runs plans at creation
// made, for the Create that follows in the same process.
var createHandoffs sync.Map

func handToCreate(name string, dr *dryRunResult) {
	createHandoffs.Store(name, handedDryRun{dr: dr, at: time.Now()})
}

// takeForCreate is the dry run handed to Create under name, within
// createReuseAge, removed; nil when there is none.
func takeForCreate(name string) *dryRunResult {
	v, ok := createHandoffs.LoadAndDelete(name)
	if h, _ := v.(handedDryRun); ok && time.Since(h.at) <= createReuseAge {
		return h.dr
	}
	return nil
}
