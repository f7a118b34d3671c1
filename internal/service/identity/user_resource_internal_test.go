package identity

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// userHarness is a user resource on an emulator of its own.
type userHarness struct {
	emu *emulator.Emulator
	idc *identityclient.Client
	r   *userResource
}

func newUserHarness(t *testing.T) *userHarness {
	t.Helper()
	e, clients := newEmulatorClients(t, nil)
	return &userHarness{emu: e, idc: clients.Identity, r: &userResource{clients: clients}}
}

// create runs the resource's create of user name, with path "/".
func (h *userHarness) create(t *testing.T, name string) (*identityclient.User, diag.Diagnostics) {
	t.Helper()
	return h.createPath(context.Background(), name, "/")
}

func (h *userHarness) createPath(ctx context.Context, name, userPath string) (*identityclient.User, diag.Diagnostics) {
	var diags diag.Diagnostics
	c := newUserCreate(h.r.clients, identityclient.CreateUserInput{UserName: name, Path: userPath}, &diags)
	return c.run(ctx), diags
}

// orphan makes user name as a create interrupted after CreateUser took
// effect leaves it: carrying the record of a create with a window.
func (h *userHarness) orphan(t *testing.T, name, userPath string, window time.Duration) *identityclient.User {
	t.Helper()
	u, err := h.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: name, Path: userPath, Tags: []identityclient.Tag{userCreateTag("interrupted", window)}})
	if err != nil {
		t.Fatal(err)
	}
	return u
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

// A create that succeeds leaves no record on the user: the user is held.
func TestUserCreateClearsItsRecord(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	u, diags := h.create(t, "eve")
	if u == nil || diags.HasError() {
		t.Fatalf("create: %s", summaries(diags))
	}
	if tags := h.emu.Identity.UserTags("eve"); len(tags) != 0 {
		t.Fatalf("tags left on the user: %v", tags)
	}
	// So a second configuration asking for the same name gets the import
	// advice, however long after.
	h.emu.Clock().Advance(time.Hour)
	if u, diags := h.create(t, "eve"); u != nil || !strings.Contains(details(diags), `A user named "eve" already exists`) {
		t.Fatalf("second create: user %v, %s: %s", u, summaries(diags), details(diags))
	}
}

// An existing user is adopted only when it carries the record of a create
// that is over; a user without one is someone else's and gets the import
// advice, left as it is.
func TestUserCreateAdoptsOnlyAnInterruptedCreate(t *testing.T) {
	t.Parallel()
	t.Run("interrupted create, window over: adopted", func(t *testing.T) {
		t.Parallel()
		h := newUserHarness(t)
		orphan := h.orphan(t, "orphan", "/", 10*time.Second)
		h.emu.Clock().Advance(time.Minute)
		u, diags := h.create(t, "orphan")
		if u == nil || u.UserID != orphan.UserID || diags.HasError() {
			t.Fatalf("not adopted: %v, %s: %s", u, summaries(diags), details(diags))
		}
		if got := summaries(diags); got != "Warning: Identity User Adopted" || !strings.Contains(details(diags), orphan.UserID) {
			t.Fatalf("diagnostics %q (%s), want one warning naming the adopted user", got, details(diags))
		}
		if tags := h.emu.Identity.UserTags("orphan"); len(tags) != 0 {
			t.Fatalf("record left on the adopted user: %v", tags)
		}
	})
	t.Run("no record: someone else's", func(t *testing.T) {
		t.Parallel()
		h := newUserHarness(t)
		if _, err := h.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "orphan", Tags: []identityclient.Tag{{Key: "team", Value: "ml"}}}); err != nil {
			t.Fatal(err)
		}
		u, diags := h.create(t, "orphan")
		if u != nil || !diags.HasError() {
			t.Fatalf("someone else's user was adopted: %v, %s", u, summaries(diags))
		}
		if d := details(diags); !strings.Contains(d, `A user named "orphan" already exists`) || !strings.Contains(d, "terraform import <address> orphan") {
			t.Fatalf("the error lacks the import advice: %s", d)
		}
	})
	t.Run("create in flight, then answered: waits, then someone else's", func(t *testing.T) {
		t.Parallel()
		h := newUserHarness(t)
		h.orphan(t, "orphan", "/", time.Hour)
		before := h.emu.CountCalls("ListUserTags", false)
		whenRecordRead(t, h.emu, func() { // the answer arrives and the other run clears its record
			_ = h.idc.UntagUser(context.Background(), "orphan", []string{tagCreatingUser})
		})
		u, diags := h.create(t, "orphan")
		if u != nil || !strings.Contains(details(diags), "terraform import <address> orphan") {
			t.Fatalf("user %v, %s: %s; want the import advice", u, summaries(diags), details(diags))
		}
		if n := h.emu.CountCalls("ListUserTags", false) - before; n < 2 {
			t.Fatalf("the record was read %d times, want a wait: once in flight, once cleared", n)
		}
	})
	t.Run("create in flight, then its window over: waits, then adopts", func(t *testing.T) {
		t.Parallel()
		h := newUserHarness(t)
		orphan := h.orphan(t, "orphan", "/", time.Hour)
		whenRecordRead(t, h.emu, func() { h.emu.Clock().Advance(2 * time.Hour) })
		u, diags := h.create(t, "orphan")
		if u == nil || u.UserID != orphan.UserID {
			t.Fatalf("user %v, %s: %s; want the orphan adopted", u, summaries(diags), details(diags))
		}
	})
}

// A lost answer whose user predates the request and has no record: the
// request was refused with EntityAlreadyExists, and the user is someone
// else's.
func TestUserCreateLostAnswerOfAnExistingUser(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	if _, err := h.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "frank"}); err != nil {
		t.Fatal(err)
	}
	if err := h.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "CreateUser", Kind: emulator.FaultLostResponse}); err != nil {
		t.Fatal(err)
	}
	u, diags := h.create(t, "frank")
	if u != nil || !strings.Contains(details(diags), `A user named "frank" already exists`) {
		t.Fatalf("user %v, diagnostics %s: %s; want the import advice", u, summaries(diags), details(diags))
	}
}

// A lost answer whose request made the user: the user carries this
// create's record, so it is this create's, and the record is cleared. It
// is not remembered as made by this run: its CreateDate, read up to a
// timeout after the answer was due, would set the service's clock of the
// key creates that skip the look too early.
func TestUserCreateLostAnswerMadeTheUser(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	h.r.clients.CreatedUsers = &conns.CreatedUsers{}
	if err := h.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "CreateUser", Kind: emulator.FaultLostResponse}); err != nil {
		t.Fatal(err)
	}
	u, diags := h.create(t, "gina")
	if u == nil || diags.HasError() {
		t.Fatalf("user %v, diagnostics %s: %s", u, summaries(diags), details(diags))
	}
	if tags := h.emu.Identity.UserTags("gina"); len(tags) != 0 {
		t.Fatalf("record left on the user: %v", tags)
	}
	if _, ok := h.r.clients.CreatedUsers.Created("gina"); ok {
		t.Fatal("a user found after a lost answer is remembered as made by this run: its key creates would skip the look")
	}
}

// An orphan whose path differs from the configuration's (edited since the
// interrupted run) is not adopted: the state would hold other values than
// the plan's. The record stays, so the configuration set back to the
// user's path adopts it.
func TestUserCreateOrphanWithOtherArguments(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	orphan := h.orphan(t, "orphan", "/team/", 10*time.Second)
	h.emu.Clock().Advance(time.Minute)
	u, diags := h.createPath(context.Background(), "orphan", "/")
	if u != nil || !strings.Contains(details(diags), `User "orphan" (id `+orphan.UserID+`) with path "/team/" was created at`) {
		t.Fatalf("user %v, diagnostics %s: %s", u, summaries(diags), details(diags))
	}
	if tags := h.emu.Identity.UserTags("orphan"); len(tags) != 1 {
		t.Fatalf("tags %v, want the record kept", tags)
	}
	u, diags = h.createPath(context.Background(), "orphan", "/team/")
	if u == nil || u.UserID != orphan.UserID {
		t.Fatalf("with the user's own path: user %v, diagnostics %s: %s", u, summaries(diags), details(diags))
	}
}

// Ctrl-C right after CreateUser's answer arrived: the record is removed all
// the same, so no other configuration ever adopts the user.
func TestUserCreateInterruptedAfterTheAnswer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := newUserHarness(t)
	cfg := h.r.clients.Config
	cfg.HTTPClient = &http.Client{Transport: &answered{op: "CreateUser", then: cancel}}
	idc, err := identityclient.New(cfg, h.r.clients.Endpoints.Identity)
	if err != nil {
		t.Fatal(err)
	}
	h.r.clients.Identity = idc
	u, diags := h.createPath(ctx, "ivy", "/")
	if u == nil || len(diags) != 0 {
		t.Fatalf("user %v, diagnostics %s: %s; want the user, no diagnostics", u, summaries(diags), details(diags))
	}
	if ctx.Err() == nil {
		t.Fatal("the run was not interrupted: the test tests nothing")
	}
	if tags := h.emu.Identity.UserTags("ivy"); len(tags) != 0 {
		t.Fatalf("tags left on the user: %v", tags)
	}
}

// Two runs adopting the same orphaned user at once: exactly one adopts it.
func TestUserAdoptionTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	h := newUserHarness(t)
	orphan := h.orphan(t, "orphan", "/", 10*time.Second)
	h.emu.Clock().Advance(time.Minute)
	ta, tb, bDone := twoRuns("UntagUser")
	run := func(transport http.RoundTripper) *userResource {
		return &userResource{clients: otherRun(t, h.r.clients, transport)}
	}
	create := func(r *userResource) (*identityclient.User, diag.Diagnostics) {
		var diags diag.Diagnostics
		c := newUserCreate(r.clients, identityclient.CreateUserInput{UserName: "orphan", Path: "/"}, &diags)
		return c.run(context.Background()), diags
	}
	a, b := run(ta), run(tb)
	var wg sync.WaitGroup
	var userA, userB *identityclient.User
	var diagsA, diagsB diag.Diagnostics
	wg.Add(2)
	go func() { defer wg.Done(); userA, diagsA = create(a) }()
	go func() { defer wg.Done(); defer bDone(); userB, diagsB = create(b) }()
	wg.Wait()
	adopted := 0
	for _, u := range []*identityclient.User{userA, userB} {
		if u != nil {
			adopted++
			if u.UserID != orphan.UserID {
				t.Errorf("user %s adopted, want %s", u.UserID, orphan.UserID)
			}
		}
	}
	if adopted != 1 {
		t.Fatalf("%d runs adopted the user, want 1\nA: %s: %s\nB: %s: %s", adopted, summaries(diagsA), details(diagsA), summaries(diagsB), details(diagsB))
	}
	if tags := h.emu.Identity.UserTags("orphan"); len(tags) != 0 {
		t.Errorf("tags left on the user: %v", tags)
	}
}

// whenRecordRead runs fn once the create has read the record of the create
// in flight (its first ListUserTags from now), so that it is seen waiting
// however slow the machine. Past two minutes it fails t and runs fn
// anyway, so that the create ends. (acctest.Emulator.WhenCalled does the
// same; this package's internal tests cannot import acctest, which imports
// the provider.)
func whenRecordRead(t *testing.T, e *emulator.Emulator, fn func()) {
	t.Helper()
	before := e.CountCalls("ListUserTags", false)
	done := make(chan struct{})
	t.Cleanup(func() { <-done })
	go func() {
		defer close(done)
		deadline := time.Now().Add(2 * time.Minute)
		for e.CountCalls("ListUserTags", false) == before {
			if time.Now().After(deadline) {
				t.Errorf("the create did not read the record within 2m")
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		fn()
	}()
}
