package emulatortest

import (
	"context"
	"strings"
	"testing"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// A refused call counts: a test that wants no API call fails when the
// provider sent one the emulator refused, and the failure names it.
func TestExpectCalls_countsRefusedCalls(t *testing.T) {
	t.Parallel()
	e := New(t)
	cfg := e.ClientConfig()
	cfg.Credentials.SecretAccessKey = "not-the-secret"
	c, err := identityclient.New(cfg, e.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetUser(context.Background(), "alice"); err == nil {
		t.Fatal("GetUser signed with the wrong secret succeeded")
	}
	f := &failures{TB: t}
	e.ExpectCalls(f, "", 0, "")
	e.ExpectCalls(f, "GetUser", 1, "")
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.errs) != 1 || !strings.Contains(f.errs[0], "1 API calls, want 0: GetUser 403 (refused)") {
		t.Errorf("failures %q", f.errs)
	}
}
