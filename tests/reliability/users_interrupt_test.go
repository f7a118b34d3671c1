package reliability

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// A user, its policy attachment and its key, hit by a kill -9 of terraform
// or of the provider once CreateUser took effect but before Terraform saved
// the user: a plain apply used to fail with EntityAlreadyExists on every
// run. Now, when CreateUser was in flight, the user carries the record of
// its create and the next plain apply adopts it; the bundle converges: one
// user, one attachment, one key, all in state, no record left on a user.
//
// With the local backend Terraform writes the state file as each resource
// completes, so a user is lost only while its CreateUser is in flight. A
// remote backend (S3, HTTP, ...) persists a snapshot only every 20 seconds
// and at the end, so there a user whose create was answered is lost too
// when terraform is killed later in the apply (httpBackend stands for
// those): its create is not an interrupted one, so the user is not adopted,
// and the import advice converges.

var usersHead = []string{"KILLED", "DURING", "RECORD ON USER AFTER KILL", "APPLIES", "USERS", "POLICIES", "KEYS", "CREATEUSER SENT", "RECOVERY TOOK"}

const userAddr = "cloud_identity_user.u"

// httpBackend is a Terraform HTTP state backend (no locking): the state it
// holds is what a remote backend has persisted.
type httpBackend struct {
	URL string
	mu  sync.Mutex
	doc []byte
}

func newHTTPBackend(t *testing.T) *httpBackend {
	t.Helper()
	b := &httpBackend{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch r.Method {
		case http.MethodGet:
			if b.doc == nil {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			_, _ = w.Write(b.doc)
		case http.MethodPost:
			doc, err := io.ReadAll(r.Body)
			if err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			b.doc = doc
		case http.MethodDelete:
			b.doc = nil
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	}))
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}

// persisted reports whether the persisted state holds a resource of type
// typ (the backend holds only snapshots terraform chose to persist).
func (b *httpBackend) persisted(t *testing.T, typ string) bool {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.doc == nil {
		return false
	}
	var st struct {
		Resources []struct {
			Type string `json:"type"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b.doc, &st); err != nil {
		t.Fatalf("the backend's state: %v", err)
	}
	for _, r := range st.Resources {
		if r.Type == typ {
			return true
		}
	}
	return false
}

// init gives w's configuration (written already) the HTTP backend, in a
// file of its own, and initialises it. A backend needs terraform init,
// which installs the provider: from a plugin directory holding the binary
// under test (dev_overrides still pick the same binary at run time).
func (b *httpBackend) init(t *testing.T, w *workdir) {
	t.Helper()
	pd := filepath.Join(t.TempDir(), "plugins")
	dir := filepath.Join(pd, "registry.terraform.io", "cloudlabs", "cloud", "0.0.1", runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(acctest.BuiltProviderPath(t), filepath.Join(dir, "terraform-provider-cloud_v0.0.1")); err != nil {
		t.Fatal(err)
	}
	backend := fmt.Sprintf("terraform {\n  backend \"http\" {\n    address = %q\n  }\n}\n", b.URL+"/state")
	if err := os.WriteFile(filepath.Join(w.dir, "backend.tf"), []byte(backend), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := w.run("init", "-input=false", "-plugin-dir="+pd); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
}

// createOutOfBand makes a user the way a console or a script would.
func createOutOfBand(t *testing.T, e *emu, name string) *identityclient.User {
	t.Helper()
	u, err := apiClient(t, e).CreateUser(context.Background(), identityclient.CreateUserInput{UserName: name})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUsers_killDuringCreate: terraform or the provider is killed (SIGKILL)
// once CreateUser took effect and before Terraform saved the user. The
// next plain apply adopts the user and converges.
func TestUsers_killDuringCreate(t *testing.T) {
	needProc(t)
	cases := []struct {
		name string
		op   string // held when the kill comes
		cli  bool
		// remote: the state lives in a remote (HTTP) backend.
		remote bool
	}{
		{"provider", "CreateUser", false, false},
		{"terraform", "CreateUser", true, false},
		// CreateUser answered, so the user carries no record; terraform is
		// killed, while the key create is held, before the backend
		// persisted the user. A create whose answer arrived is never
		// treated as interrupted: import advice; the key is adopted.
		{"terraform", "CreateServiceSpecificCredential", true, true},
	}
	for _, tc := range cases {
		backend := "local backend"
		if tc.remote {
			backend = "HTTP backend"
		}
		t.Run(fmt.Sprintf("kill -9 of %s during %s, %s", tc.name, tc.op, backend), func(t *testing.T) {
			t.Parallel()
			e := newEmu(t)
			w := newWorkdir(t)
			user := "kill-" + strings.ToLower(tc.name[:2]+"-"+tc.op)
			w.write(bundleConfig(e, user, ""))
			var remote *httpBackend
			if tc.remote {
				remote = newHTTPBackend(t)
				remote.init(t, w)
			}
			killDuring(t, e, w, tc.op, tc.cli)
			if remote != nil && remote.persisted(t, "cloud_identity_user") {
				t.Fatal("the backend persisted the user before the kill; nothing to recover")
			}
			if tc.op == "AttachUserPolicy" && len(e.Identity.AttachedPolicyArns(user)) != 1 {
				t.Fatal("the held AttachUserPolicy did not land: the next apply would not attach an attached policy")
			}

			orphan := apiUser(t, e, user)
			if orphan == nil || countFold(e.Identity.UserNames(), user) != 1 {
				t.Fatalf("after the kill: users %v, want the 1 the killed run made", e.Identity.UserNames())
			}
			if st := w.state(); st[userAddr] != nil {
				t.Fatalf("the killed run saved the user in state; nothing to recover")
			}
			// CreateUser in flight: the user carries its record. Answered
			// (the later kills): the record was cleared.
			record := userRecord(e, user)
			if (record != "") != (tc.op == "CreateUser") {
				t.Fatalf("record on the user after the kill: %q", record)
			}

			start := time.Now()
			applies := "2"
			if record == "" {
				// CreateUser was answered: the create is not an interrupted
				// one, and a user without a record is never adopted (it
				// may be another configuration's). The import advice
				// converges.
				out, err := w.apply()
				if flat := strings.Join(strings.Fields(out), " "); err == nil || !strings.Contains(flat, "terraform import <address> "+user) {
					t.Fatalf("the apply after the kill: %v, want the import advice:\n%s", err, out)
				}
				if out, err := w.run("import", "-input=false", userAddr, user); err != nil {
					t.Fatalf("import: %v\n%s", err, out)
				}
				mustApply(t, w, "the apply after the import")
				applies = "3 (one refused with the import advice, import)"
			} else {
				out := mustApply(t, w, "the plain apply after the kill")
				if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "Warning: Identity User Adopted") || !strings.Contains(flat, orphan.UserID) {
					t.Errorf("the apply does not say that it adopted user %s:\n%s", orphan.UserID, out)
				}
			}
			took := time.Since(start)
			converged(t, e, w, user, orphan.UserID)
			if remote != nil && !remote.persisted(t, "cloud_identity_user") {
				t.Fatal("the backend does not hold the adopted user")
			}
			if c := e.Sent("CreateUser"); c != 2 {
				t.Fatalf("CreateUser sent %d times, want 2 (the killed one, then one refused as existing)", c)
			}
			if c := e.Sent("CreateServiceSpecificCredential"); c != 1 && tc.op == "CreateServiceSpecificCredential" {
				t.Fatalf("CreateServiceSpecificCredential sent %d times, want 1 (the killed one, adopted)", c)
			}
			addRow("users: kill -9 -> users in the service", usersHead, tc.name, tc.op+", "+backend, cmp.Or(record, "none"), applies,
				strconv.Itoa(countFold(e.Identity.UserNames(), user)), strconv.Itoa(len(e.Identity.AttachedPolicyArns(user))),
				strconv.Itoa(len(e.Identity.CredentialIDs(user))), strconv.Itoa(e.Sent("CreateUser")), took.Round(100*time.Millisecond).String())
			destroyed(t, e, w)
		})
	}
}

// TestUsers_existingUserNotAdopted: a user this configuration's runs did not
// make still gets the EntityAlreadyExists error with the import advice,
// and is left as it is.
func TestUsers_existingUserNotAdopted(t *testing.T) {
	// refused applies the bundle and checks the refusal: the import advice,
	// the user unchanged, nothing else created for it.
	refused := func(t *testing.T, e *emu, w *workdir, user, wantID string) {
		t.Helper()
		mark := len(e.Calls())
		out, err := w.apply()
		if err == nil {
			t.Fatalf("the apply adopted a user it did not make:\n%s", out)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, fmt.Sprintf(`A user named %q already exists`, user)) || !strings.Contains(flat, "terraform import <address> "+user) {
			t.Fatalf("the error lacks the import advice:\n%s", out)
		}
		if strings.Contains(flat, "Adopted") {
			t.Fatalf("the apply speaks of adopting:\n%s", out)
		}
		if u := apiUser(t, e, user); u == nil || u.UserID != wantID || countFold(e.Identity.UserNames(), user) != 1 {
			t.Fatalf("the existing user changed: %+v, want id %s", u, wantID)
		}
		if st := w.state(); st[userAddr] != nil {
			t.Fatal("the refused apply saved the user in its state")
		}
		for _, c := range e.Calls()[mark:] {
			if c.Operation == "AttachUserPolicy" || c.Operation == "CreateServiceSpecificCredential" {
				t.Fatalf("the refused apply sent %s for a user it does not own", c.Operation)
			}
		}
	}

	t.Run("made outside Terraform", func(t *testing.T) {
		t.Parallel()
		e := newEmu(t)
		w := newWorkdir(t)
		user := "console-made"
		existing := createOutOfBand(t, e, user)
		w.write(bundleConfig(e, user, ""))
		refused(t, e, w, user, existing.UserID)
		// Following the advice converges.
		if out, err := w.run("import", "-input=false", userAddr, user); err != nil {
			t.Fatalf("import: %v\n%s", err, out)
		}
		mustApply(t, w, "the apply after the import")
		converged(t, e, w, user, existing.UserID)
		addRow("users: existing user -> outcome", []string{"USER MADE BY", "OUTCOME"}, "a script (no record on the user)", "EntityAlreadyExists with import advice; import + apply converged")
	})

	t.Run("made by another configuration on this machine", func(t *testing.T) {
		t.Parallel()
		e := newEmu(t)
		a := newWorkdir(t)
		user := "other-config"
		a.write(bundleConfig(e, user, ""))
		// A's run ends normally: its create's record is cleared.
		mustApply(t, a, "configuration A")
		if r := userRecord(e, user); r != "" {
			t.Fatalf("A's user still carries the record %s", r)
		}
		existing := apiUser(t, e, user)
		b := newWorkdir(t)
		b.write(bundleConfig(e, user, ""))
		refused(t, e, b, user, existing.UserID)
		if st := a.state(); st[userAddr] == nil {
			t.Fatal("configuration A lost its user")
		}
		if out, changes, err := a.plan(); err != nil || changes {
			t.Fatalf("configuration A's plan is not empty (err %v):\n%s", err, out)
		}
		addRow("users: existing user -> outcome", []string{"USER MADE BY", "OUTCOME"}, "another configuration, right after A's apply", "EntityAlreadyExists with import advice; A unaffected")
	})

	t.Run("made outside Terraform after an interrupted create that never reached the service", func(t *testing.T) {
		t.Parallel()
		e := newEmu(t)
		w := newWorkdir(t)
		user := "dropped-then-made"
		// max_retries = 0 keeps the create's window (when a user from it
		// could still land) short: 2 x http_timeout.
		w.write(bundleConfig(e, user, "  max_retries = 0\n"))
		arm(t, e, emulator.Fault{Operation: "CreateUser", Kind: emulator.FaultDrop})
		if out, err := w.apply(); err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), "most likely nothing was created") {
			t.Fatalf("the apply whose CreateUser was dropped: %v\n%s", err, out)
		}
		if n := countFold(e.Identity.UserNames(), user); n != 0 {
			t.Fatalf("a dropped CreateUser made %d users", n)
		}
		time.Sleep(2*attemptTimeout + 3*time.Second) // past the window and its margin
		existing := createOutOfBand(t, e, user)
		refused(t, e, w, user, existing.UserID)
		addRow("users: existing user -> outcome", []string{"USER MADE BY", "OUTCOME"}, "a script, after this configuration's create was dropped", "EntityAlreadyExists with import advice (no record on the user)")
	})
}
