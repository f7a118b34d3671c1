package emulator_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// TestCallLoggedBeforeTheCallerHearsBack: a caller that has its answer, or
// has seen the connection close, finds the call in the request log, as a
// test counting calls right after them does. The log line of the call
// waits for the caller to hear back: logged first, the caller cannot hear
// before the wait ends.
func TestCallLoggedBeforeTheCallerHearsBack(t *testing.T) {
	t.Parallel()
	cases := map[string]emulator.FaultKind{
		"answer": "", "lost_response": emulator.FaultLostResponse, "drop": emulator.FaultDrop,
	}
	for name, kind := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			heard := make(chan struct{})
			w := &waitingLog{op: "ListUsers", heard: heard, done: make(chan bool, 1)}
			e := emulatortest.New(t, emulatortest.WithOptions(emulator.Options{Log: w}))
			c, err := identityclient.New(e.ClientConfig(), e.URL)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			// Enough users that the answer outgrows the server's buffers.
			for i := range 60 {
				if _, err := c.CreateUser(ctx, identityclient.CreateUserInput{UserName: fmt.Sprintf("user-%02d-with-a-long-name-to-fill-the-page", i)}); err != nil {
					t.Fatal(err)
				}
			}
			if kind != "" {
				if err := e.InjectFault(emulator.Fault{Service: "identity", Operation: "ListUsers", Kind: kind}); err != nil {
					t.Fatal(err)
				}
			}
			out, err := c.ListUsers(ctx, identityclient.ListUsersInput{})
			close(heard)
			if (kind == "") != (err == nil) {
				t.Fatalf("ListUsers: %v, want an error only under a fault", err)
			}
			if kind == "" && len(out.Users) != 60 {
				t.Fatalf("%d users listed, want 60", len(out.Users))
			}
			if <-w.done {
				t.Error("the caller heard back before the call was logged")
			}
			if n := len(e.CallsTo("ListUsers")); n != 1 {
				t.Errorf("%d ListUsers calls logged, want 1", n)
			}
		})
	}
}

// waitingLog is an emulator log whose line for op waits, a while, for the
// caller to hear back, then sends on done whether it did.
type waitingLog struct {
	op    string
	heard <-chan struct{}
	done  chan bool
}

func (w *waitingLog) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(" "+w.op+" ")) {
		select {
		case <-w.heard:
			w.done <- true
		case <-time.After(time.Second):
			w.done <- false
		}
	}
	return len(p), nil
}
