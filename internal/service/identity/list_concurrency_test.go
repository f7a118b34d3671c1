package identity_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// fanUsers is how many users seedFanUsers makes, each with one key and one
// attached policy: several times the list_concurrency the tests set.
const fanUsers = 12

// seedFanUsers makes fanUsers users, fan-00 to fan-11, each with one key
// and one attached policy, outside Terraform; it returns the keys' ids in
// the users' name order.
func seedFanUsers(t *testing.T, emu *acctest.Emulator) []string {
	t.Helper()
	c := identityClient(t, emu)
	var ids []string
	for i := range fanUsers {
		user := fmt.Sprintf("fan-%02d", i)
		if _, err := c.CreateUser(t.Context(), identityclient.CreateUserInput{UserName: user}); err != nil {
			t.Fatal(err)
		}
		key, err := c.CreateServiceSpecificCredential(t.Context(), identityclient.CreateServiceSpecificCredentialInput{UserName: user, ServiceName: "models.cloud.example", CredentialAgeDays: 90})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AttachUserPolicy(t.Context(), user, denyBearer); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, key.ServiceSpecificCredentialID)
	}
	return ids
}

// listedKeys runs terraform query -json on query with the provider's
// list_concurrency set to width, and returns the ids of the keys each list
// block found, in the order Terraform reported them, and any error
// diagnostic.
func listedKeys(t *testing.T, emu *acctest.Emulator, width int, query string) (map[string][]string, []string) {
	t.Helper()
	ctx, ws := cliWorkspace(t, emu.ProviderConfig(emulatortest.ProviderArguments(fmt.Sprintf("  list_concurrency = %d\n  max_retries = 10\n", width))),
		map[string]string{"adopt.tfquery.hcl": query})
	emu.ClearCalls()
	out, err := ws.Output(ctx, "query", "-json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	found, errs := map[string][]string{}, []string(nil)
	for line := range strings.Lines(string(out)) {
		var m struct {
			Type  string `json:"type"`
			Found struct {
				Address  string         `json:"address"`
				Identity map[string]any `json:"identity"`
			} `json:"list_resource_found"`
			Diagnostic struct{ Severity, Summary, Detail string } `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch m.Type {
		case "list_resource_found":
			id, _ := m.Found.Identity["service_specific_credential_id"].(string)
			if id == "" {
				id, _ = m.Found.Identity["user_name"].(string)
			}
			found[m.Found.Address] = append(found[m.Found.Address], id)
		case "diagnostic":
			if m.Diagnostic.Severity == "error" {
				errs = append(errs, m.Diagnostic.Summary+": "+m.Diagnostic.Detail)
			}
		}
	}
	return found, errs
}

// The per-user listings of a query run side by side, never more than
// list_concurrency at once, and the results come in the users' name order,
// as a walk of one user after another gives them.
func TestAccIdentityList_sideBySide(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	ids := seedFanUsers(t, emu)
	// Every listing takes long enough that the next ones start before it
	// ends: one at a time shows as one in flight.
	for _, op := range []string{"ListServiceSpecificCredentials", "ListAttachedUserPolicies"} {
		if err := emu.InjectFault(emulator.Fault{Operation: op, Kind: emulator.FaultDelay, Delay: 400 * time.Millisecond, Times: -1}); err != nil {
			t.Fatal(err)
		}
	}
	found, errs := listedKeys(t, emu, 3, `
list "cloud_identity_service_specific_credential" "all" {
  provider = cloud
}
`)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := found["list.cloud_identity_service_specific_credential.all"]; !slices.Equal(got, ids) {
		t.Errorf("keys found %v, want %v (the users' name order)", got, ids)
	}
	calls := emu.Calls()
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", fanUsers, "one listing per user")
	if n := emulator.MostInFlight(calls, "ListServiceSpecificCredentials"); n < 2 || n > 3 {
		t.Errorf("%d ListServiceSpecificCredentials answered at once, want 2 or 3 (side by side, list_concurrency = 3)", n)
	}

	// The attachments' list, the same.
	found, errs = listedKeys(t, emu, 3, `
list "cloud_identity_user_policy_attachment" "all" {
  provider = cloud
}
`)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	var users []string
	for i := range fanUsers {
		users = append(users, fmt.Sprintf("fan-%02d", i))
	}
	if got := found["list.cloud_identity_user_policy_attachment.all"]; !slices.Equal(got, users) {
		t.Errorf("attachments found of %v, want %v (the users' name order)", got, users)
	}
	if n := emulator.MostInFlight(emu.Calls(), "ListAttachedUserPolicies"); n < 2 || n > 3 {
		t.Errorf("%d ListAttachedUserPolicies answered at once, want 2 or 3 (side by side, list_concurrency = 3)", n)
	}
}

// A list block's limit bounds the results, which are the first ones in
// the users' order, and the listings stop there: at most list_concurrency-1
// users past the last one needed are asked.
func TestAccIdentityList_sideBySideLimit(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	ids := seedFanUsers(t, emu)
	found, errs := listedKeys(t, emu, 3, `
list "cloud_identity_service_specific_credential" "four" {
  provider = cloud
  limit    = 4
}
`)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := found["list.cloud_identity_service_specific_credential.four"]; !slices.Equal(got, ids[:4]) {
		t.Errorf("keys found %v, want the first four users' %v", got, ids[:4])
	}
	if n := emu.Sent("ListServiceSpecificCredentials"); n < 4 || n > 4+2 {
		t.Errorf("%d ListServiceSpecificCredentials, want 4 to 6 (the four users needed, and at most list_concurrency-1 more)", n)
	}
}

// Throttled listings are retried with the client's backoff: the query
// still finds every key, in order, with no error.
func TestAccIdentityList_sideBySideThrottled(t *testing.T) {
	skipUnlessQuery(t)
	emu := acctest.NewEmulator(t)
	ids := seedFanUsers(t, emu)
	if err := emu.InjectFault(emulator.Fault{Operation: "ListServiceSpecificCredentials", Kind: emulator.FaultThrottle, Times: 6}); err != nil {
		t.Fatal(err)
	}
	found, errs := listedKeys(t, emu, 3, `
list "cloud_identity_service_specific_credential" "all" {
  provider = cloud
}
`)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := found["list.cloud_identity_service_specific_credential.all"]; !slices.Equal(got, ids) {
		t.Errorf("keys found %v, want %v (the users' name order)", got, ids)
	}
	throttled, answered := 0, 0
	for _, c := range emu.CallsTo("ListServiceSpecificCredentials") {
		switch {
		case c.Fault == emulator.FaultThrottle:
			throttled++
		case c.Status == 200:
			answered++
		}
	}
	if throttled != 6 || answered != fanUsers {
		t.Errorf("%d listings throttled and %d answered, want 6 throttled and retried, %d answered", throttled, answered, fanUsers)
	}
}
