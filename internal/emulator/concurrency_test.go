package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// TestConcurrentRequestsWithFaults drives the emulator from many goroutines
// while faults are armed and disarmed and the log and admin state are read,
// for the race detector (make test-race); every user is created once.
func TestConcurrentRequestsWithFaults(t *testing.T) {
	t.Parallel()
	srv := emulatortest.New(t)
	e := srv.Emulator
	c, err := identityclient.New(client.Config{
		Region:         e.Region(),
		Credentials:    client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()},
		RetryBaseDelay: time.Millisecond, RetryMaxDelay: 5 * time.Millisecond, MaxRetries: 5,
		AttemptTimeout: 2 * time.Second,
	}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []emulator.FaultKind{emulator.FaultThrottle, emulator.FaultError, emulator.FaultLostResponse, emulator.FaultDrop} {
		if err := e.InjectFault(emulator.Fault{Service: "identity", Kind: k, Times: 5}); err != nil {
			t.Fatal(err)
		}
	}
	const workers, each = 8, 5
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() { // readers of the log, the faults and the state
		for {
			select {
			case <-stop:
				return
			default:
				_ = e.Calls()
				_ = e.Faults()
				_ = e.Identity.UserNames()
				_ = e.Answered("CreateUser", false)
			}
		}
	}()
	ctx := context.Background()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				name := fmt.Sprintf("race-%d-%d", w, i)
				_, err := c.CreateUser(ctx, identityclient.CreateUserInput{UserName: name, Path: "/"})
				if errors.Is(err, client.ErrOutcomeUnknown) {
					// As the resource does: read to learn the outcome, create
					// again only if nothing was created.
					if _, gerr := c.GetUser(ctx, name); gerr != nil {
						_, err = c.CreateUser(ctx, identityclient.CreateUserInput{UserName: name, Path: "/"})
					} else {
						err = nil
					}
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	e.ClearFaults()
	n := 0
	for _, u := range e.Identity.UserNames() {
		if len(u) > 5 && u[:5] == "race-" {
			n++
		}
	}
	if n != workers*each {
		t.Fatalf("%d users, want %d", n, workers*each)
	}
}
