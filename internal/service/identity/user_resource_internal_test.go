package identity

import (
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/keyjournal"
)

func TestMatchUser(t *testing.T) {
	t.Parallel()
	const window = 10 * time.Second
	u := &identityclient.User{UserName: "alice", UserID: "AIDAORPHAN", CreateDate: t0.Add(time.Second).Truncate(time.Second)}
	tests := []struct {
		name       string
		others     []keyjournal.Entry // entries that are not candidates
		candidates []keyjournal.Entry
		offset     time.Duration
		want       string // the matched entry's id, "" for none
	}{
		{"the answer arrived: the entry names the user", nil, []keyjournal.Entry{withKey("c", keyjournal.Created, "AIDAORPHAN")}, 0, "c"},
		{"named, however long ago", nil, []keyjournal.Entry{{ID: "c", Started: t0.Add(-48 * time.Hour), Deadline: t0.Add(-48 * time.Hour), State: keyjournal.Created, KeyID: "AIDAORPHAN"}}, 0, "c"},
		{"pending, the user made in its window", nil, []keyjournal.Entry{pending("p", t0, window)}, 0, "p"},
		{"CreateDate truncated to the second before the start", nil, []keyjournal.Entry{pending("p", t0.Add(1900*time.Millisecond), window)}, 0, "p"},
		{"pending, the user older than its window", nil, []keyjournal.Entry{pending("p", t0.Add(time.Hour), window)}, 0, ""},
		{"pending, the user made after its deadline", nil, []keyjournal.Entry{pending("p", t0.Add(-time.Hour), window)}, 0, ""},
		{"the service's clock ahead of ours", nil, []keyjournal.Entry{pending("p", t0.Add(-time.Hour), window)}, time.Hour, "p"},
		{"the service's clock behind ours", nil, []keyjournal.Entry{pending("p", t0, window)}, -time.Hour, ""},
		{"an entry of a user since replaced", nil, []keyjournal.Entry{withKey("c", keyjournal.Created, "AIDAEARLIER")}, 0, ""},
		{"an entry naming another user does not claim by time", nil, []keyjournal.Entry{{ID: "c", Started: t0, Deadline: t0.Add(window), State: keyjournal.Created, KeyID: "AIDAEARLIER"}}, 0, ""},
		{"in a state (confirmed)", []keyjournal.Entry{withKey("s", keyjournal.Confirmed, "AIDAORPHAN")}, []keyjournal.Entry{pending("p", t0, window)}, 0, ""},
		{"a live run's, or another directory's, create made it", []keyjournal.Entry{withKey("l", keyjournal.Created, "AIDAORPHAN")}, []keyjournal.Entry{pending("p", t0, window)}, 0, ""},
		{"another run's create in flight at the same time", []keyjournal.Entry{pending("l", t0, window)}, []keyjournal.Entry{pending("p", t0, window)}, 0, ""},
		{"another run's create long before does not compete", []keyjournal.Entry{pending("l", t0.Add(-time.Hour), window)}, []keyjournal.Entry{pending("p", t0, window)}, 0, "p"},
		{"the earliest of two windows", nil, []keyjournal.Entry{pending("late", t0.Add(500*time.Millisecond), window), pending("early", t0, window)}, 0, "early"},
		{"no candidates", nil, nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			all := append(append([]keyjournal.Entry{}, tt.others...), tt.candidates...)
			got := ""
			if m := matchUser(all, tt.candidates, u, tt.offset); m != nil {
				got = m.ID
			}
			if got != tt.want {
				t.Errorf("matched %q, want %q", got, tt.want)
			}
		})
	}
}

// userHarness is a user resource on an emulator, with a journal of its own.
type userHarness struct {
	emu *emulator.Emulator
	idc *identityclient.Client
	r   *userResource
	j   *keyjournal.Journal
}

func newUserHarness(t *testing.T) *userHarness {
	t.Helper()
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg := client.Config{Region: e.Region(), Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()}, AttemptTimeout: time.Second, MaxRetries: 1}
	idc, err := identityclient.New(cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	j, err := keyjournal.Open(t.TempDir(), keyjournal.NewInstanceID())
	if err != nil {
		t.Fatal(err)
	}
	r := &userResource{clients: &conns.Clients{Region: e.Region(), Config: cfg, Endpoints: conns.Endpoints{Identity: srv.URL}, Identity: idc, KeyJournal: j}}
	return &userHarness{emu: e, idc: idc, r: r, j: j}
}

// create runs the resource's create of user name, with path "/".
func (h *userHarness) create(t *testing.T, name string) (*identityclient.User, diag.Diagnostics) {
	t.Helper()
	return h.createPath(t, name, "/")
}

func (h *userHarness) createPath(t *testing.T, name, userPath string) (*identityclient.User, diag.Diagnostics) {
	t.Helper()
	var diags diag.Diagnostics
	c := &userCreate{r: h.r, j: h.j, scope: h.r.journalScope(name), in: identityclient.CreateUserInput{UserName: name, Path: userPath}, diags: &diags}
	return c.run(context.Background()), diags
}

// dead is an owner whose provider instance is gone: another instance of
// this process (keyjournal's stale rules), in dir.
func (h *userHarness) dead(dir string) keyjournal.Owner {
	o := h.j.Self()
	o.Instance, o.Dir = "dead-"+keyjournal.NewInstanceID(), dir
	return o
}

func (h *userHarness) put(t *testing.T, name string, es ...keyjournal.Entry) {
	t.Helper()
	if err := h.j.Update(h.r.journalScope(name), func(old []keyjournal.Entry) []keyjournal.Entry { return append(old, es...) }); err != nil {
		t.Fatal(err)
	}
}

func (h *userHarness) entries(t *testing.T, name string) []keyjournal.Entry {
	t.Helper()
	es, err := h.j.Entries(h.r.journalScope(name))
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func summaries(d diag.Diagnostics) string {
	var s []string
	for _, x := range d {
		s = append(s, x.Severity().String()+": "+x.Summary())
	}
	return strings.Join(s, "; ")
}

func details(d diag.Diagnostics) string {
	var s []string
	for _, x := range d {
		s = append(s, x.Detail())
	}
	return strings.Join(strings.Fields(strings.Join(s, " ")), " ")
}

// An existing user is adopted only when this directory's interrupted
// create made it; every other existing user gets the import advice and is
// left as it is.
func TestUserCreateAdoptsOnlyItsOwnOrphan(t *testing.T) {
	t.Parallel()
	wd, _ := os.Getwd()
	tests := []struct {
		name string
		// entries are written before the create; orphan is the user that
		// exists by then, made when the test starts.
		entries   func(h *userHarness, orphan *identityclient.User, started time.Time) []keyjournal.Entry
		adopt     bool
		keptAfter int // entries left in the journal
	}{
		{
			name: "pending entry of a dead instance, the user made in its window",
			entries: func(h *userHarness, _ *identityclient.User, started time.Time) []keyjournal.Entry {
				return []keyjournal.Entry{{ID: "p", Owner: h.dead(wd), Started: started, Deadline: started.Add(10 * time.Second), State: keyjournal.Pending}}
			},
			adopt: true, keptAfter: 1,
		},
		{
			name: "created entry of a dead instance naming the user",
			entries: func(h *userHarness, orphan *identityclient.User, started time.Time) []keyjournal.Entry {
				return []keyjournal.Entry{{ID: "c", Owner: h.dead(wd), Started: started.Add(-time.Hour), Deadline: started.Add(-time.Hour), State: keyjournal.Created, KeyID: orphan.UserID}}
			},
			adopt: true, keptAfter: 1,
		},
		{
			name:    "no entry: a user made outside this provider",
			entries: func(*userHarness, *identityclient.User, time.Time) []keyjournal.Entry { return nil },
		},
		{
			name: "pending entry of a dead instance an hour before the user was made",
			entries: func(h *userHarness, _ *identityclient.User, started time.Time) []keyjournal.Entry {
				s := started.Add(-time.Hour)
				return []keyjournal.Entry{{ID: "p", Owner: h.dead(wd), Started: s, Deadline: s.Add(10 * time.Second), State: keyjournal.Pending}}
			},
			keptAfter: 0, // resolved: it cannot make the user any more
		},
		{
			name: "pending entry of a dead instance in another directory",
			entries: func(h *userHarness, _ *identityclient.User, started time.Time) []keyjournal.Entry {
				return []keyjournal.Entry{{ID: "p", Owner: h.dead(wd + "-other"), Started: started, Deadline: started.Add(10 * time.Second), State: keyjournal.Pending}}
			},
			keptAfter: 1, // the other configuration's to recover
		},
		{
			name: "pending entry of a live process",
			entries: func(h *userHarness, _ *identityclient.User, started time.Time) []keyjournal.Entry {
				live := h.j.Self()
				live.Instance, live.PID, live.ProcStart = "live", 1, "" // init never dies
				return []keyjournal.Entry{{ID: "p", Owner: live, Started: started, Deadline: started.Add(10 * time.Second), State: keyjournal.Pending}}
			},
			keptAfter: 1,
		},
		{
			name: "the user is in a state (confirmed), beside a pending entry of a dead instance",
			entries: func(h *userHarness, orphan *identityclient.User, started time.Time) []keyjournal.Entry {
				return []keyjournal.Entry{
					{ID: "s", Owner: h.dead(wd), Started: started, Deadline: started, State: keyjournal.Confirmed, KeyID: orphan.UserID},
					{ID: "p", Owner: h.dead(wd), Started: started, Deadline: started.Add(10 * time.Second), State: keyjournal.Pending},
				}
			},
			keptAfter: 1,
		},
		{
			name: "created entry naming a user since deleted and made again by someone else",
			entries: func(h *userHarness, _ *identityclient.User, started time.Time) []keyjournal.Entry {
				return []keyjournal.Entry{{ID: "c", Owner: h.dead(wd), Started: started, Deadline: started.Add(10 * time.Second), State: keyjournal.Created, KeyID: "AIDAEARLIERUSER"}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newUserHarness(t)
			started := time.Now()
			orphan, err := h.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "orphan"})
			if err != nil {
				t.Fatal(err)
			}
			h.put(t, "orphan", tt.entries(h, orphan, started)...)

			u, diags := h.create(t, "orphan")
			if n := len(h.emu.Identity.UserNames()); n != 1 {
				t.Fatalf("%d users after the create, want the 1 that was there", n)
			}
			kept := h.entries(t, "orphan")
			if tt.adopt {
				if u == nil || u.UserID != orphan.UserID || diags.HasError() {
					t.Fatalf("not adopted: %v, %s", u, summaries(diags))
				}
				if got := summaries(diags); got != "Warning: Identity User Adopted" || !strings.Contains(details(diags), orphan.UserID) {
					t.Fatalf("diagnostics %q (%s), want one warning naming the adopted user", got, details(diags))
				}
				// The entry names the user, owned by this instance, until a
				// state is seen to hold it.
				if len(kept) != 1 || kept[0].KeyID != orphan.UserID || kept[0].State != keyjournal.Created || kept[0].Instance != h.j.Self().Instance {
					t.Fatalf("journal after adoption: %+v", kept)
				}
				return
			}
			if u != nil || !diags.HasError() {
				t.Fatalf("someone else's user was adopted: %v, %s", u, summaries(diags))
			}
			if d := details(diags); !strings.Contains(d, `A user named "orphan" already exists`) || !strings.Contains(d, "terraform import <address> orphan") {
				t.Fatalf("the error lacks the import advice: %s", d)
			}
			if len(kept) != tt.keptAfter {
				t.Fatalf("journal after the refusal: %+v, want %d entries", kept, tt.keptAfter)
			}
		})
	}
}

// A create that succeeds records the user's id, and resolves this
// directory's unresolved creates of the same user (their name is taken).
func TestUserCreateRecordsTheUser(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	wd, _ := os.Getwd()
	h.put(t, "eve", keyjournal.Entry{ID: "p", Owner: h.dead(wd), Started: time.Now().Add(-time.Minute), Deadline: time.Now().Add(-time.Minute), State: keyjournal.Pending})
	u, diags := h.create(t, "eve")
	if u == nil || diags.HasError() {
		t.Fatalf("create: %s", summaries(diags))
	}
	es := h.entries(t, "eve")
	if len(es) != 1 || es[0].KeyID != u.UserID || es[0].State != keyjournal.Created || es[0].Instance != h.j.Self().Instance {
		t.Fatalf("journal %+v, want only this create's entry naming %s", es, u.UserID)
	}
}

// A lost answer whose user predates the request: the request was refused
// with EntityAlreadyExists, and the user is someone else's.
func TestUserCreateLostAnswerOfAnExistingUser(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	if _, err := h.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "frank"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(clockMargin + 1100*time.Millisecond) // older than the margin, at second resolution
	if err := h.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "CreateUser", Kind: emulator.FaultLostResponse}); err != nil {
		t.Fatal(err)
	}
	u, diags := h.create(t, "frank")
	if u != nil || !strings.Contains(details(diags), `A user named "frank" already exists`) || !strings.Contains(details(diags), "before this request was sent") {
		t.Fatalf("user %v, diagnostics %s: %s; want the import advice", u, summaries(diags), details(diags))
	}
	if es := h.entries(t, "frank"); len(es) != 0 {
		t.Fatalf("journal %+v, want nothing left", es)
	}
}

// Read confirms the user in the journal, Delete forgets it.
func TestUserJournalConfirmAndForget(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	u, diags := h.create(t, "gina")
	if u == nil {
		t.Fatal(summaries(diags))
	}
	m := &userModel{}
	flattenUser(u, m)
	h.r.confirm(context.Background(), m)
	if es := h.entries(t, "gina"); len(es) != 1 || es[0].State != keyjournal.Confirmed {
		t.Fatalf("after confirm: %+v", es)
	}
	h.r.forget(context.Background(), m)
	if es := h.entries(t, "gina"); len(es) != 0 {
		t.Fatalf("after forget: %+v", es)
	}
}

// An orphan whose name is spelled otherwise, or whose path differs from
// the configuration's (edited since the interrupted run), is not adopted:
// the state would hold other values than the plan's. The entry stays, so
// the configuration set back to the user's values adopts it.
func TestUserCreateOrphanWithOtherArguments(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	wd, _ := os.Getwd()
	started := time.Now()
	orphan, err := h.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "Orphan", Path: "/team/"})
	if err != nil {
		t.Fatal(err)
	}
	h.put(t, "orphan", keyjournal.Entry{ID: "p", Owner: h.dead(wd), Started: started, Deadline: started.Add(10 * time.Second), State: keyjournal.Pending})
	for _, in := range []identityclient.CreateUserInput{{UserName: "orphan", Path: "/team/"}, {UserName: "Orphan", Path: "/"}} {
		u, diags := h.createPath(t, in.UserName, in.Path)
		if u != nil || !strings.Contains(details(diags), `User "Orphan" (id `+orphan.UserID+`) with path "/team/" was created by an earlier run of this configuration`) {
			t.Fatalf("%+v: user %v, diagnostics %s: %s", in, u, summaries(diags), details(diags))
		}
		if es := h.entries(t, "orphan"); len(es) != 1 || es[0].ID != "p" || es[0].State != keyjournal.Pending {
			t.Fatalf("%+v: journal %+v, want the entry kept as it was", in, es)
		}
	}
	u, diags := h.createPath(t, "Orphan", "/team/")
	if u == nil || u.UserID != orphan.UserID {
		t.Fatalf("with the user's own values: user %v, diagnostics %s: %s", u, summaries(diags), details(diags))
	}
}
