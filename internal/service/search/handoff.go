package search

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// A plan's dry run is handed on by its id to the plan and the Create that
// follow it, so that the plan Terraform makes at apply need not dry-run the
// reviewed change again. The id is only a saving, never evidence: the plan
// at apply takes the dry run it names only when the service's record of
// it proves that it analysed exactly this request on the domain as it is
// (provenDryRun, analysed.go), so a note planted, copied, stale or
// corrupt costs at most a fresh dry run.
//
// Terraform plans again at apply in another provider process (it starts
// providers per walk), from the configuration, prior state and private
// state the reviewed plan had. So the plan that dry-runs leaves a note in
// the working directory's Terraform data directory, named by the domain,
// the request and the read record it started from (domain_read.go), that
// holds only the dry run's id. Notes are single-use, small, owner-only
// files in an owner-only directory that is never a link (notesDir); the
// provider removes only files named as its notes. Create runs in the
// process of the plan at apply and gets no private state: that plan hands
// it its dry run in memory. Writing or reading a note may fail: the plan
// then dry-runs.

// handoff is where this provider's plans leave notes (dir, the Terraform
// data directory; "" leaves none) and which service they are of;
// refreshed are the domains a refresh read in this walk: a plan of one
// of them is a fresh plan, which runs its own dry run.
type handoff struct {
	dir, endpoint, region string
	refreshed             *conns.Refreshed
}

// handoffOf is the hand-off of the provider configured as c.
func handoffOf(c *conns.Clients) handoff {
	return handoff{dir: c.DataDir, endpoint: c.Endpoints.Search, region: c.Region, refreshed: c.Refreshed}
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

// noteMaxSize bounds a note read: a note is an id, a mode and a time.
const noteMaxSize = 1 << 10

// noteFile matches the names of this provider's notes and of the
// leftovers of its interrupted writes (os.CreateTemp) and takes
// (rand.Text): the only files it ever removes.
var noteFile = regexp.MustCompile(`^[0-9a-f]{64}(\.[0-9A-Z]+\.tmp)?$`)

// notesDir is the notes' directory when it is safe to use ("" else, with
// why it is not when it exists): a real directory, not a symbolic link,
// owned by this user and closed to everyone else (0700). Anyone who can
// write there could plant or swap notes; a note is only a saving, but an
// unsafe directory is not used at all. create makes it when missing.
func (h handoff) notesDir(create bool) (dir, unsafe string) {
	if h.dir == "" {
		return "", ""
	}
	dir = filepath.Join(h.dir, handoffDir)
	if create {
		_ = os.MkdirAll(dir, 0o700)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return "", ""
	}
	var why string
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		why = "is a symbolic link"
	case !info.IsDir():
		why = "is not a directory"
	case info.Mode().Perm()&0o077 != 0:
		why = fmt.Sprintf("has mode %04o: others may write or read there, where only the owner should (0700)", info.Mode().Perm())
	case !ownedByMe(info):
		why = "is owned by another user"
	}
	if why != "" {
		return "", fmt.Sprintf("The directory %s %s, so the provider does not use it to hand a plan's dry run on to the plan at apply; apply dry-runs the change again instead. Remove the directory (it holds only the provider's notes) to let the provider recreate it.", dir, why)
	}
	return dir, ""
}

// leaveNote writes n under name, atomically and readable by the owner
// only, after removing this provider's notes older than reuseMaxAge; why
// the notes' directory is not safe to use when it is not.
func (h handoff) leaveNote(ctx context.Context, name string, n handoffNote) (unsafe string) {
	fail := func(err error) {
		tflog.Debug(ctx, "Could not leave the search domain dry run for the plan at apply", map[string]any{"error": err.Error()})
	}
	dir, unsafe := h.notesDir(true)
	if dir == "" {
		return unsafe
	}
	expireNotes(dir)
	b, _ := json.Marshal(n)
	f, err := os.CreateTemp(dir, name+".*.tmp") // mode 0600
	if err != nil {
		fail(err)
		return ""
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
	return ""
}

// takeNote is the note named name, removed so that no other plan takes it
// (moved aside first: of two plans, one gets it); nil when there is none
// or it is not a small regular file of this user's (a symbolic link is
// never followed), with why the directory is not safe when it is not.
func (h handoff) takeNote(ctx context.Context, name string) (note *handoffNote, unsafe string) {
	dir, unsafe := h.notesDir(false)
	if dir == "" {
		return nil, unsafe
	}
	path := filepath.Join(dir, name)
	taken := path + "." + rand.Text() + ".tmp"
	if err := os.Rename(path, taken); err != nil {
		return nil, ""
	}
	// Remove never follows a symbolic link: it removes the link.
	defer func() { _ = os.Remove(taken) }()
	b, err := readSmallFile(taken, noteMaxSize)
	var n handoffNote
	if err == nil {
		err = json.Unmarshal(b, &n)
	}
	if err != nil || n.ID == "" || time.Since(n.Created) > reuseMaxAge {
		tflog.Debug(ctx, "Unusable search domain dry run note", map[string]any{"path": path, "error": fmt.Sprint(err)})
		return nil, ""
	}
	return &n, ""
}

// readSmallFile reads path, a regular file of at most limit bytes, without
// following a symbolic link or waiting on a device or pipe.
func readSmallFile(path string, limit int64) ([]byte, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() || before.Size() > limit {
		return nil, fmt.Errorf("not a regular file of at most %d bytes", limit)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0) //nolint:gosec // G304: a note in the provider's own 0700 directory, named by a digest
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	// The file opened is the one checked, not another swapped in since.
	if after, err := f.Stat(); err != nil || !os.SameFile(before, after) || !after.Mode().IsRegular() {
		return nil, errors.New("the file changed while it was opened")
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("larger than %d bytes", limit)
	}
	return b, err
}

// expireNotes removes this provider's notes (and leftovers of interrupted
// writes) older than reuseMaxAge from dir, a safe notes directory
// (notesDir): regular files named as notes only, never what a link points
// to.
func expireNotes(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !noteFile.MatchString(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > reuseMaxAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// unsafeWarned holds the notes directories already warned about, so each
// is warned about once per provider process.
var unsafeWarned sync.Map

// warnUnsafe warns, once per directory, that the notes' directory is not
// used (unsafe, from notesDir; "" when it is safe).
func (p *planning) warnUnsafe(unsafe string) {
	if unsafe == "" {
		return
	}
	if _, seen := unsafeWarned.LoadOrStore(unsafe, true); !seen {
		p.diags().AddWarning("Unsafe Dry Run Notes Directory Ignored", unsafe)
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
