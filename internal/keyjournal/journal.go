// Package keyjournal is the provider's durable record of the API key creates
// it starts. The identity service has no idempotency token and a key has no
// tags, so a key whose create answer was lost, or whose provider process was
// killed while the create was in flight, can only be recognised later from a
// record kept before the request was sent: an entry per create, in one small
// JSON file per scope (endpoint, region, user and service) in a directory on
// the machine that runs Terraform.
//
// The same record serves the creates of identity users (a Scope of Kind
// KindUser): a user whose create took effect but never reached a Terraform
// state makes the next create fail with EntityAlreadyExists, and only an
// entry written before the request tells it from someone else's user.
//
// The package holds plain data and files; matching entries to the keys or
// users a service reports is its caller's business.
package keyjournal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// EnvDir names the journal's directory, overriding the default under the
// user's cache directory.
const EnvDir = "CLOUD_KEY_JOURNAL_DIR"

// Retention is how long an entry is kept: older ones are dropped when their
// file is read.
const Retention = 7 * 24 * time.Hour

// State is where a create stands.
type State string

// The states of an entry.
const (
	// Pending: the create is about to be sent or was sent, and no answer
	// naming the key has been recorded.
	Pending State = "pending"
	// Created: the create (or an adoption) produced KeyID, which no
	// Terraform state has been seen to hold yet.
	Created State = "created"
	// Confirmed: KeyID is in a Terraform state. Such an entry is never an
	// orphan; it only tells recovery that the key is spoken for.
	Confirmed State = "confirmed"
)

// Owner is the provider process (and, in a process that serves several
// providers, such as in-process acceptance tests, the provider instance)
// that wrote an entry.
type Owner struct {
	Instance string `json:"instance"`
	PID      int    `json:"pid"`
	Host     string `json:"host,omitempty"`
	// ProcStart tells a process from a later one that reuses its pid
	// (Linux: the start time in /proc/<pid>/stat); empty when unknown.
	ProcStart string `json:"proc_start,omitempty"`
	// Dir is the process's working directory: Terraform starts providers
	// in the directory it runs in, so it tells one configuration's runs
	// from another's on the same machine; empty when unknown.
	Dir string `json:"dir,omitempty"`
}

// Entry is one create.
type Entry struct {
	// ID names the entry within its file.
	ID string `json:"id"`
	Owner
	// Started is when the create was about to be sent (local clock).
	Started time.Time `json:"started"`
	// Deadline is when a key from this create can no longer land: the
	// request and its retries are over by then (local clock).
	Deadline time.Time `json:"deadline"`
	State    State     `json:"state"`
	// KeyID is the id of what the create made: the key's credential id, or
	// in a user scope the user's UserId (a user deleted and created again
	// under the same name gets another, so it tells them apart).
	KeyID string `json:"key_id,omitempty"`
}

// Scope is what one file covers: the keys of one user for one service, as
// one endpoint and region see them, or (Kind KindUser) the creates of one
// user itself.
type Scope struct {
	// Kind is "" for a user's keys, KindUser for the user.
	Kind        string `json:"kind,omitempty"`
	Endpoint    string `json:"endpoint"`
	Region      string `json:"region"`
	UserName    string `json:"user_name"`
	ServiceName string `json:"service_name,omitempty"`
}

// KindUser is the Kind of a scope that records the creates of a user.
const KindUser = "user"

// UserScope is the scope of the creates of user userName, as one endpoint
// and region see them.
func UserScope(endpoint, region, userName string) Scope {
	return Scope{Kind: KindUser, Endpoint: endpoint, Region: region, UserName: userName}
}

// key names the scope's file. User names are case-insensitive in the
// identity service, so they are folded. A scope with a Kind hashes its
// Kind in and no ServiceName, so a user's scope never shares a file with
// the scope of that user's keys.
func (s Scope) key() string {
	parts := []string{"v1", s.Endpoint, s.Region, strings.ToLower(s.UserName), s.ServiceName}
	if s.Kind != "" {
		parts = []string{"v1", "kind=" + s.Kind, s.Endpoint, s.Region, strings.ToLower(s.UserName)}
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// file is the on-disk form.
type file struct {
	Version int     `json:"version"`
	Scope   Scope   `json:"scope"`
	Entries []Entry `json:"entries"`
}

// CorruptError reports a journal file that could not be read as a journal;
// it is treated as empty and replaced on the next write.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("key journal %s is not readable and is ignored: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Journal reads and writes the entries of one provider instance's scopes.
// A nil *Journal is valid and records nothing.
type Journal struct {
	dir   string // "" keeps the entries in memory only
	self  Owner
	now   func() time.Time
	alive func(Owner) bool
}

// DefaultDir is $CLOUD_KEY_JOURNAL_DIR, else
// <user cache dir>/terraform-provider-cloud/key-journal.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "terraform-provider-cloud", "key-journal"), nil
}

// NewInstanceID returns a random id for a provider instance.
func NewInstanceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Open returns the journal in dir for a provider instance, creating the
// directory (mode 0700) and checking that a file can be written in it.
func Open(dir, instance string) (*Journal, error) {
	if dir == "" {
		return nil, errors.New("no key journal directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return nil, err
	}
	_ = probe.Close()
	_ = os.Remove(probe.Name())
	j := newJournal(instance)
	j.dir = dir
	return j, nil
}

// Memory returns a journal that keeps its entries in this process only: it
// still serialises a process's creates and tells its own keys apart, but
// cannot help a later process. The provider falls back to it when the
// directory cannot be used.
func Memory(instance string) *Journal {
	return newJournal(instance)
}

func newJournal(instance string) *Journal {
	host, _ := os.Hostname()
	dir, _ := os.Getwd()
	pid := os.Getpid()
	return &Journal{
		self:  Owner{Instance: instance, PID: pid, Host: host, ProcStart: procStart(pid), Dir: dir},
		now:   time.Now,
		alive: processAlive,
	}
}

// Dir is the journal's directory, "" for a journal kept in memory.
func (j *Journal) Dir() string {
	if j == nil {
		return ""
	}
	return j.dir
}

// Self is the owner this journal writes entries as.
func (j *Journal) Self() Owner {
	if j == nil {
		return Owner{}
	}
	return j.self
}

// Stale reports an entry whose create can no longer be answered to anyone:
// its provider instance is gone. Only pending and created entries can be
// stale. An entry of another live process is left to that process.
func (j *Journal) Stale(e Entry) bool {
	switch {
	case j == nil, e.State != Pending && e.State != Created, e.Instance == j.self.Instance:
		return false
	case e.Host != j.self.Host:
		// A journal shared with another machine: its pid means nothing
		// here, but once the deadline is past the create is over.
		return j.now().After(e.Deadline)
	case e.PID == j.self.PID:
		// An earlier provider instance in this process (in-process tests
		// serve many), or an earlier process that had our pid.
		return true
	}
	return !j.alive(e.Owner)
}

// Lock serialises the key creates of one scope within this process, so
// that two key resources of one user never recover or match each other's
// keys at the same time. It returns the unlock function.
func Lock(s Scope) func() {
	mu := mutexFor(&createLocks, s.key())
	mu.Lock()
	return mu.Unlock
}

var (
	createLocks sync.Map // scope key -> *sync.Mutex, held across a create
	fileLocks   sync.Map // scope key -> *sync.Mutex, held across a read-modify-write
	memory      sync.Map // scope key -> []Entry, for journals in memory
)

func mutexFor(m *sync.Map, key string) *sync.Mutex {
	mu, _ := m.LoadOrStore(key, &sync.Mutex{})
	return mu.(*sync.Mutex) //nolint:forcetypeassert // the map holds nothing else
}

// Entries returns the scope's entries, without expired ones. A corrupt file
// reads as empty, with a *CorruptError.
func (j *Journal) Entries(s Scope) ([]Entry, error) {
	if j == nil {
		return nil, nil
	}
	mu := mutexFor(&fileLocks, s.key())
	mu.Lock()
	defer mu.Unlock()
	return j.load(s)
}

// Update replaces the scope's entries with what fn returns, atomically
// within this process. A corrupt file is passed to fn as empty, replaced,
// and reported with a *CorruptError.
func (j *Journal) Update(s Scope, fn func([]Entry) []Entry) error {
	return j.update(s, fn, true)
}

// update is Update; a write that need not survive a crash (a confirmation
// or a forgotten entry, which the next run makes again) skips the fsyncs,
// which cost a refresh of many keys more than all else the provider does.
func (j *Journal) update(s Scope, fn func([]Entry) []Entry, durable bool) error {
	if j == nil {
		return nil
	}
	mu := mutexFor(&fileLocks, s.key())
	mu.Lock()
	defer mu.Unlock()
	entries, lerr := j.load(s)
	var corrupt *CorruptError
	if lerr != nil && !errors.As(lerr, &corrupt) {
		return lerr
	}
	if err := j.save(s, fn(entries), durable); err != nil {
		return err
	}
	return lerr
}

// Begin records a pending create owned by this journal and returns it (a
// nil journal returns it unrecorded).
func (j *Journal) Begin(s Scope, deadline time.Time) (Entry, error) {
	if j == nil {
		return Entry{Started: time.Now(), Deadline: deadline, State: Pending}, nil
	}
	e := Entry{ID: NewInstanceID(), Owner: j.self, Started: j.now(), Deadline: deadline, State: Pending}
	return e, j.Update(s, func(es []Entry) []Entry { return append(es, e) })
}

// Set updates the entry with id: its state, key id and deadline, and makes
// this journal its owner (an adoption takes over an entry).
func (j *Journal) Set(s Scope, id string, state State, keyID string, deadline time.Time) error {
	return j.Update(s, func(es []Entry) []Entry {
		for i := range es {
			if es[i].ID == id {
				es[i].Owner, es[i].State, es[i].KeyID, es[i].Deadline = j.self, state, keyID, deadline
			}
		}
		return es
	})
}

// Drop removes the entries with these ids.
func (j *Journal) Drop(s Scope, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	return j.Update(s, func(es []Entry) []Entry {
		return remove(es, func(e Entry) bool { return contains(ids, e.ID) })
	})
}

// Confirm records that keyID is in a Terraform state: its entries become
// confirmed. When other creates of the scope are unresolved, a key with no
// entry gets a confirmed one, so that their recovery never takes it. It
// writes nothing when nothing changes.
func (j *Journal) Confirm(s Scope, keyID string) error {
	if j == nil || keyID == "" {
		return nil
	}
	entries, err := j.Entries(s)
	if err != nil || !needsConfirm(entries, keyID) {
		return err
	}
	return j.update(s, func(es []Entry) []Entry {
		found := false
		for i := range es {
			if es[i].KeyID == keyID {
				es[i].State, found = Confirmed, true
			}
		}
		if !found && unresolved(es) {
			now := j.now()
			es = append(es, Entry{ID: NewInstanceID(), Owner: j.self, Started: now, Deadline: now, State: Confirmed, KeyID: keyID})
		}
		return es
	}, false)
}

// Forget removes the entries of a deleted key.
func (j *Journal) Forget(s Scope, keyID string) error {
	if j == nil || keyID == "" {
		return nil
	}
	entries, err := j.Entries(s)
	if err != nil || !containsKey(entries, keyID) {
		return err
	}
	return j.update(s, func(es []Entry) []Entry {
		return remove(es, func(e Entry) bool { return e.KeyID == keyID })
	}, false)
}

func needsConfirm(es []Entry, keyID string) bool {
	found := false
	for _, e := range es {
		if e.KeyID == keyID {
			found = true
			if e.State != Confirmed {
				return true
			}
		}
	}
	return !found && unresolved(es)
}

func unresolved(es []Entry) bool {
	for _, e := range es {
		if e.State == Pending || e.State == Created {
			return true
		}
	}
	return false
}

func containsKey(es []Entry, keyID string) bool {
	for _, e := range es {
		if e.KeyID == keyID {
			return true
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func remove(es []Entry, drop func(Entry) bool) []Entry {
	out := es[:0]
	for _, e := range es {
		if !drop(e) {
			out = append(out, e)
		}
	}
	return out
}

func (j *Journal) path(s Scope) string {
	return filepath.Join(j.dir, s.key()+".json")
}

// load reads the scope's entries and drops expired ones. The caller holds
// the scope's file lock.
func (j *Journal) load(s Scope) ([]Entry, error) {
	var entries []Entry
	if j.dir == "" {
		if v, ok := memory.Load(s.key()); ok {
			entries = append(entries, v.([]Entry)...) //nolint:forcetypeassert // the map holds nothing else
		}
	} else {
		b, err := os.ReadFile(j.path(s))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		var f file
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, &CorruptError{Path: j.path(s), Err: err}
		}
		if f.Version != 1 {
			return nil, &CorruptError{Path: j.path(s), Err: fmt.Errorf("version %d, want 1", f.Version)}
		}
		entries = f.Entries
	}
	cutoff := j.now().Add(-Retention)
	return remove(entries, func(e Entry) bool { return e.Started.Before(cutoff) || e.ID == "" }), nil
}

// save writes the scope's entries atomically: a temporary file in the same
// directory, synced, renamed over the old one, then the directory synced.
// An empty list removes the file. (google/renameio does the same but not
// on Windows, where the provider also runs.)
func (j *Journal) save(s Scope, entries []Entry, durable bool) error {
	if j.dir == "" {
		if len(entries) == 0 {
			memory.Delete(s.key())
		} else {
			memory.Store(s.key(), append([]Entry(nil), entries...))
		}
		return nil
	}
	p := j.path(s)
	if len(entries) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(file{Version: 1, Scope: s, Entries: entries}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(j.dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		_ = tmp.Close()
		return err
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			_ = tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return err
	}
	if durable {
		syncDir(j.dir)
	}
	return nil
}
