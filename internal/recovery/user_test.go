package recovery

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// orphanUser makes user name as a create interrupted after CreateUser took
// effect leaves it: carrying the record of a create with a window.
func (r *testRun) orphanUser(t *testing.T, name, userPath string, window time.Duration) *identityclient.User {
	t.Helper()
	u, err := r.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: name, Path: userPath, Tags: []identityclient.Tag{userRecordTag("interrupted", window)}})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// taken fails t unless out ended with the name taken by someone else's
// user, whose resource's error gives the import advice (TestUserDiagnostics).
func taken(t *testing.T, out UserOutcome) {
	t.Helper()
	if e, ok := out.End.(UserTaken); !ok || e.SpelledAs != "" || e.OtherRunAdopting || len(out.Notes) != 0 {
		t.Fatalf("%s; want the name taken by someone else's user", show(out.End, out.Notes))
	}
}

// A create that succeeds leaves no record on the user: the user is held.
func TestUserCreateClearsItsRecord(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	if out := r.createUser(context.Background(), "eve", "/"); out.User() == nil {
		t.Fatalf("create: %s", show(out.End, out.Notes))
	}
	if tags := r.emu.Identity.UserTags("eve"); len(tags) != 0 {
		t.Fatalf("tags left on the user: %v", tags)
	}
	// So a second configuration asking for the same name gets the import
	// advice, however long after.
	r.emu.Clock().Advance(time.Hour)
	taken(t, r.createUser(context.Background(), "eve", "/"))
}

// An existing user is adopted only when it carries the record of a create
// that is over; a user without one is someone else's and gets the import
// advice, left as it is.
func TestUserCreateAdoptsOnlyAnInterruptedCreate(t *testing.T) {
	t.Parallel()
	t.Run("interrupted create, window over: adopted", func(t *testing.T) {
		t.Parallel()
		r := newRun(t, nil)
		orphan := r.orphanUser(t, "orphan", "/", 10*time.Second)
		r.emu.Clock().Advance(time.Minute)
		out := r.createUser(context.Background(), "orphan", "/")
		if e, ok := out.End.(UserAdopted); !ok || e.User.UserID != orphan.UserID || len(out.Notes) != 0 {
			t.Fatalf("%s; want the orphan %s adopted, nothing else to tell", show(out.End, out.Notes), orphan.UserID)
		}
		if tags := r.emu.Identity.UserTags("orphan"); len(tags) != 0 {
			t.Fatalf("record left on the adopted user: %v", tags)
		}
	})
	t.Run("no record: someone else's", func(t *testing.T) {
		t.Parallel()
		r := newRun(t, nil)
		if _, err := r.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "orphan", Tags: []identityclient.Tag{{Key: "team", Value: "ml"}}}); err != nil {
			t.Fatal(err)
		}
		taken(t, r.createUser(context.Background(), "orphan", "/"))
	})
	t.Run("create in flight, then answered: waits, then someone else's", func(t *testing.T) {
		t.Parallel()
		r := newRun(t, nil)
		r.orphanUser(t, "orphan", "/", time.Hour)
		before := r.emu.Answered("ListUserTags", false)
		whenRecordRead(t, r.emu, func() { // the answer arrives and the other run clears its record
			_ = r.idc.UntagUser(context.Background(), "orphan", []string{tagUserRecord})
		})
		taken(t, r.createUser(context.Background(), "orphan", "/"))
		if n := r.emu.Answered("ListUserTags", false) - before; n < 2 {
			t.Fatalf("the record was read %d times, want a wait: once in flight, once cleared", n)
		}
	})
	t.Run("create in flight, then its window over: waits, then adopts", func(t *testing.T) {
		t.Parallel()
		r := newRun(t, nil)
		orphan := r.orphanUser(t, "orphan", "/", time.Hour)
		whenRecordRead(t, r.emu, func() { r.emu.Clock().Advance(2 * time.Hour) })
		out := r.createUser(context.Background(), "orphan", "/")
		if u := out.User(); u == nil || u.UserID != orphan.UserID {
			t.Fatalf("%s; want the orphan adopted", show(out.End, out.Notes))
		}
	})
}

// A lost answer whose user predates the request and has no record: the
// request was refused with EntityAlreadyExists, and the user is someone
// else's.
func TestUserCreateLostAnswerOfAnExistingUser(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	if _, err := r.idc.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "frank"}); err != nil {
		t.Fatal(err)
	}
	if err := r.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "CreateUser", Kind: emulator.FaultLostResponse}); err != nil {
		t.Fatal(err)
	}
	taken(t, r.createUser(context.Background(), "frank", "/"))
}

// A lost answer whose request made the user: the user carries this
// create's record, so it is this create's, and the record is cleared. It
// is not remembered as made by this run: its CreateDate, read up to
// LateWindow after the answer was due, would set the service's clock of
// the key creates that skip the look too early.
func TestUserCreateLostAnswerMadeTheUser(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	r.made = &conns.CreatedUsers{}
	if err := r.emu.InjectFault(emulator.Fault{Service: "identity", Operation: "CreateUser", Kind: emulator.FaultLostResponse}); err != nil {
		t.Fatal(err)
	}
	if out := r.createUser(context.Background(), "gina", "/"); out.User() == nil {
		t.Fatalf("%s; want the user", show(out.End, out.Notes))
	}
	if tags := r.emu.Identity.UserTags("gina"); len(tags) != 0 {
		t.Fatalf("record left on the user: %v", tags)
	}
	if _, ok := r.made.Created("gina"); ok {
		t.Fatal("a user found after a lost answer is remembered as made by this run: its key creates would skip the look")
	}
}

// An orphan whose path differs from the configuration's (edited since the
// interrupted run) is not adopted: the state would hold other values than
// the plan's. The record stays, so the configuration set back to the
// user's path adopts it.
func TestUserCreateOrphanWithOtherArguments(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	orphan := r.orphanUser(t, "orphan", "/team/", 10*time.Second)
	r.emu.Clock().Advance(time.Minute)
	out := r.createUser(context.Background(), "orphan", "/")
	if e, ok := out.End.(UserOtherPath); !ok || e.User.UserID != orphan.UserID || e.User.Path != "/team/" || e.User.UserName != "orphan" {
		t.Fatalf("%s; want the orphan %s with path /team/ not adopted", show(out.End, out.Notes), orphan.UserID)
	}
	if tags := r.emu.Identity.UserTags("orphan"); len(tags) != 1 {
		t.Fatalf("tags %v, want the record kept", tags)
	}
	out = r.createUser(context.Background(), "orphan", "/team/")
	if u := out.User(); u == nil || u.UserID != orphan.UserID {
		t.Fatalf("with the user's own path: %s", show(out.End, out.Notes))
	}
}

// Ctrl-C right after CreateUser's answer arrived: the record is removed all
// the same, so no other configuration ever adopts the user.
func TestUserCreateInterruptedAfterTheAnswer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newRun(t, &answered{op: "CreateUser", then: cancel})
	out := r.createUser(ctx, "ivy", "/")
	if _, ok := out.End.(UserCreated); !ok || len(out.Notes) != 0 {
		t.Fatalf("%s; want the user, nothing to tell", show(out.End, out.Notes))
	}
	if ctx.Err() == nil {
		t.Fatal("the run was not interrupted: the test tests nothing")
	}
	if tags := r.emu.Identity.UserTags("ivy"); len(tags) != 0 {
		t.Fatalf("tags left on the user: %v", tags)
	}
}

// Two runs adopting the same orphaned user at once: exactly one adopts it.
func TestUserAdoptionTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	r := newRun(t, nil)
	orphan := r.orphanUser(t, "orphan", "/", 10*time.Second)
	r.emu.Clock().Advance(time.Minute)
	ta, tb, bDone := twoRuns("UntagUser")
	a, b := r.other(t, ta), r.other(t, tb)
	var wg sync.WaitGroup
	var outA, outB UserOutcome
	wg.Add(2)
	go func() { defer wg.Done(); outA = a.createUser(context.Background(), "orphan", "/") }()
	go func() { defer wg.Done(); defer bDone(); outB = b.createUser(context.Background(), "orphan", "/") }()
	wg.Wait()
	adopted := 0
	for _, u := range []*identityclient.User{outA.User(), outB.User()} {
		if u != nil {
			adopted++
			if u.UserID != orphan.UserID {
				t.Errorf("user %s adopted, want %s", u.UserID, orphan.UserID)
			}
		}
	}
	if adopted != 1 {
		t.Fatalf("%d runs adopted the user, want 1\nA: %s\nB: %s", adopted, show(outA.End, outA.Notes), show(outB.End, outB.Notes))
	}
	if tags := r.emu.Identity.UserTags("orphan"); len(tags) != 0 {
		t.Errorf("tags left on the user: %v", tags)
	}
}

// whenRecordRead runs fn once the create has read the record of the create
// in flight (its first ListUserTags from now), so that it is seen waiting
// however slow the machine; past two minutes it fails t and runs fn
// anyway, so that the create ends.
func whenRecordRead(t *testing.T, e *emulatortest.Emulator, fn func()) {
	t.Helper()
	e.WhenCalled(t, "ListUserTags", 2*time.Minute, fn)
}
